-- As SQLite's 011: how far each bot's clocks have been held back by its stops (the sum
-- of its downtimes, seconds). An open table's deadline and due_at are stored less its
-- bot's shift as it was when the row was written, and read with the shift as it is now
-- added, so a start moves every clock of a bot by the downtime in this one row
-- (Store.resume) instead of rewriting each of its tables. Closed tables' times are stored
-- as they are; a bot without a row has a shift of 0.
CREATE TABLE clock_shifts (
    owner text COLLATE "C" PRIMARY KEY,
    shift double precision NOT NULL
);

-- Due work is read a few tables at a time in the order of this index, ties by table id:
-- with the id in the index, those reads stop after the few they need.
DROP INDEX tables_open_by_due;
CREATE INDEX tables_open_by_due ON tables (owner, due_at, table_id)
    WHERE status IN ('lobby', 'running');
