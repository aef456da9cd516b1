-- Logins and links that are good once (a Mini App's initData, a hand's link): each one
-- used is kept until it would have expired anyway, by every process and across restarts.
CREATE TABLE used_once (
    key   text COLLATE "C" PRIMARY KEY,
    until double precision NOT NULL
);

CREATE INDEX used_once_until ON used_once (until);
