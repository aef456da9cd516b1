-- As SQLite's 014: invitations to the pairing pool ("bring a partner"). A friend who
-- presses one joins its maker as their partner for a 2-v-2, and the pool finds the other
-- pair. The token is random, never an id; an invitation is good once (used_by is set as
-- it is used, the row locked, so two presses at once use it once) and until ``until``.
-- Making one forgets those that expired a day before, leaving those another process is
-- forgetting at that moment to it; erasing a person forgets those they made or used.
CREATE TABLE pool_invites (
    token     text COLLATE "C" PRIMARY KEY,
    inviter   text COLLATE "C" NOT NULL,
    chat_id   text COLLATE "C" NOT NULL,
    name      text NOT NULL,
    lang      text,
    mode      text NOT NULL,
    searching boolean NOT NULL DEFAULT false,
    made_at   double precision NOT NULL,
    until     double precision NOT NULL,
    used_by   text COLLATE "C",
    used_at   double precision,
    CHECK ((used_by IS NULL) = (used_at IS NULL))
);

CREATE INDEX pool_invites_by_inviter ON pool_invites (inviter);
CREATE INDEX pool_invites_by_used_by ON pool_invites (used_by);
CREATE INDEX pool_invites_by_until ON pool_invites (until);
