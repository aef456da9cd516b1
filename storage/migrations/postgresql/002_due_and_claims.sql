-- As SQLite's 006: when each open table next has timed work, and which process, if any,
-- is doing it now (a claim with a lease until claim_until). Any write of the row lets the
-- claim go.
ALTER TABLE tables ADD COLUMN due_at double precision;
ALTER TABLE tables ADD COLUMN claim_holder text;
ALTER TABLE tables ADD COLUMN claim_until double precision;

CREATE INDEX tables_open_by_due ON tables (owner, due_at)
    WHERE status IN ('lobby', 'running');
CREATE INDEX tables_open_by_update ON tables (owner, updated_at)
    WHERE status IN ('lobby', 'running');

-- Tables open before due times were kept are looked at once by the next service to start.
UPDATE tables SET due_at = COALESCE(deadline, 0) WHERE status IN ('lobby', 'running');

-- Rate budgets shared by every process on the database (Store.take_window): the times
-- of the calls let through in the last window of each key, and whether the last call
-- asking was let through.
CREATE TABLE rate_windows (
    key     text PRIMARY KEY,
    stamps  double precision[] NOT NULL,
    granted boolean NOT NULL
);

-- The newest stamp written for each key (Store.advance_mark: a message's last edit), so
-- that no process puts back an older state than one another process has sent.
CREATE TABLE marks (
    key   text PRIMARY KEY,
    stamp bigint[] NOT NULL
);
