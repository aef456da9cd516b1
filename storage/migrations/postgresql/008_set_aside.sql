-- The tables set aside because their rows could not be read (a damaged event or row):
-- closed like any other, and noted here with why, for ``basra damaged`` to list and export.
CREATE TABLE set_aside (
    table_id text COLLATE "C" PRIMARY KEY REFERENCES tables (table_id) ON DELETE CASCADE,
    reason   text NOT NULL,
    at       double precision NOT NULL
);
