-- Logins and links that are good once (a Mini App's initData, a hand's link): each one
-- used is kept until it would have expired anyway, so that a restart does not forget it.
CREATE TABLE used_once (
    key   TEXT PRIMARY KEY,
    until REAL NOT NULL
) WITHOUT ROWID;

CREATE INDEX used_once_until ON used_once (until);
