-- Where each table's messages are (the lobby, the round's table, each hand ...) belongs to
-- delivery, not to the game: a reference kept while another action of the table is
-- committed must neither wait for it nor conflict with it. One row per table and key.
CREATE TABLE message_refs (
    table_id   TEXT NOT NULL,
    key        TEXT NOT NULL,
    value      TEXT NOT NULL CHECK (json_valid(value)),
    updated_at REAL NOT NULL,
    PRIMARY KEY (table_id, key)
) WITHOUT ROWID;

INSERT INTO message_refs (table_id, key, value, updated_at)
SELECT t.table_id, j.key,
       CASE WHEN j.type IN ('object', 'array') THEN j.value ELSE json_quote(j.value) END,
       t.updated_at
FROM tables AS t, json_each(t.message_refs) AS j
WHERE json_valid(t.message_refs) AND json_type(t.message_refs) = 'object' AND j.type != 'null';

ALTER TABLE tables DROP COLUMN message_refs;
