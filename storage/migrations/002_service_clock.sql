-- When each table service was last known alive, so that after a restart every
-- turn clock resumes with the time it had left instead of losing the downtime.
CREATE TABLE service_clock (
    name     TEXT PRIMARY KEY,
    alive_at REAL NOT NULL
) STRICT;
