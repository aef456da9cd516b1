-- Who abandoned which match between strangers (resigned, or let their clock run out), and
-- when: a wave pairs people who abandon often with each other. One mark per person and
-- match, however often it is noted; marks 30 days old are forgotten as new ones are noted.
CREATE TABLE pool_abandons (
    player_id TEXT NOT NULL,
    table_id  TEXT NOT NULL,
    at        REAL NOT NULL,
    PRIMARY KEY (player_id, table_id)
) STRICT, WITHOUT ROWID;

-- A wave counts the marks of the people it pairs since a time; noting forgets by time.
CREATE INDEX pool_abandons_by_player ON pool_abandons (player_id, at);
CREATE INDEX pool_abandons_by_at ON pool_abandons (at);
