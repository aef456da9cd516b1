-- What closed lately (a match finished, a lobby cancelled or expired): a starting service
-- draws those tables afresh too, since the last messages of a process that stopped right
-- after closing one may never have gone out.
CREATE INDEX tables_closed_by_update ON tables (owner, updated_at)
    WHERE status IN ('finished', 'cancelled', 'expired');
