-- Where each table's messages are (the lobby, the round's table, each hand ...) belongs to
-- delivery, not to the game: a reference kept while another process commits an action of
-- the table must neither wait for that action's row lock nor conflict with it.
CREATE TABLE message_refs (
    table_id   text COLLATE "C" NOT NULL,
    key        text COLLATE "C" NOT NULL,
    value      json NOT NULL,
    updated_at double precision NOT NULL,
    PRIMARY KEY (table_id, key)
);

INSERT INTO message_refs (table_id, key, value, updated_at)
SELECT t.table_id, j.key, j.value, t.updated_at
FROM tables AS t, json_each(t.message_refs) AS j
WHERE json_typeof(t.message_refs) = 'object' AND json_typeof(j.value) <> 'null';

ALTER TABLE tables DROP COLUMN message_refs;
