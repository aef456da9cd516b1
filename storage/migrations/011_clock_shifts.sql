-- How far each bot's clocks have been held back by its stops: the sum of its downtimes,
-- in seconds. An open table's deadline and due_at are stored less its bot's shift as it
-- was when the row was written, and read with the shift as it is now added, so a start
-- moves every clock of a bot by the downtime in this one row (Store.resume) instead of
-- rewriting each of its tables. A closed table's times are stored as they are. A bot
-- without a row here has not stopped since this table came: its shift is 0, which is
-- also what every open table's stored times were written against until now.
CREATE TABLE clock_shifts (
    owner TEXT PRIMARY KEY,
    shift REAL NOT NULL
) WITHOUT ROWID;

-- Due work is read a few tables at a time in the order of this index (the first due, the
-- next few), ties by table id: with the id in the index, however many tables are due at
-- one moment, those reads stop after the few they need instead of sorting them all.
DROP INDEX tables_open_by_due;
CREATE INDEX tables_open_by_due ON tables (owner, due_at, table_id)
    WHERE status IN ('lobby', 'running');
