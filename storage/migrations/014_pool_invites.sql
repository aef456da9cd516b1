-- Invitations to the pairing pool ("bring a partner"): a friend who presses one joins its
-- maker as their partner for a 2-v-2, and the pool finds the other pair. The token is
-- random, never an id; an invitation is good once (used_by is set as it is used) and until
-- ``until``. Making one forgets those that expired a day before; erasing a person forgets
-- those they made or used.
CREATE TABLE pool_invites (
    token     TEXT PRIMARY KEY,
    inviter   TEXT NOT NULL,
    chat_id   TEXT NOT NULL,
    name      TEXT NOT NULL,
    lang      TEXT,
    mode      TEXT NOT NULL,
    searching INTEGER NOT NULL DEFAULT 0 CHECK (searching IN (0, 1)),
    made_at   REAL NOT NULL,
    until     REAL NOT NULL,
    used_by   TEXT,
    used_at   REAL,
    CHECK ((used_by IS NULL) = (used_at IS NULL))
) STRICT, WITHOUT ROWID;

CREATE INDEX pool_invites_by_inviter ON pool_invites (inviter);
CREATE INDEX pool_invites_by_used_by ON pool_invites (used_by);
CREATE INDEX pool_invites_by_until ON pool_invites (until);
