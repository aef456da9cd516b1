-- As SQLite's 007: what closed lately, for a starting service to draw afresh.
CREATE INDEX tables_closed_by_update ON tables (owner, updated_at)
    WHERE status IN ('finished', 'cancelled', 'expired');
