-- When each open table next has timed work (lobby expiry, a computer's turn, a clock
-- warning, a deadline), so that a starting service re-arms its clocks without reading
-- every table, and which process, if any, is doing that work now (a claim with a lease:
-- claim_until, epoch seconds). Any write of the row lets the claim go.
ALTER TABLE tables ADD COLUMN due_at REAL;
ALTER TABLE tables ADD COLUMN claim_holder TEXT;
ALTER TABLE tables ADD COLUMN claim_until REAL;

CREATE INDEX tables_open_by_due ON tables (owner, due_at)
    WHERE status IN ('lobby', 'running');
-- What changed in the open tables of a bot since a moment.
CREATE INDEX tables_open_by_update ON tables (owner, updated_at)
    WHERE status IN ('lobby', 'running');

-- Tables open before due times were kept are looked at once by the next service to start
-- (as due at once): it loads each and arms its clock for the moment it really has.
UPDATE tables SET due_at = COALESCE(deadline, 0) WHERE status IN ('lobby', 'running');
