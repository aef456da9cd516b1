-- As SQLite's 013: who abandoned which match between strangers (resigned, or let their
-- clock run out), and when, so a wave pairs people who abandon often with each other. One
-- mark per person and match, however often it is noted; a noting forgets the marks 30
-- days old, leaving those another process is forgetting at that moment to it rather than
-- waiting for them.
CREATE TABLE pool_abandons (
    player_id text COLLATE "C" NOT NULL,
    table_id  text COLLATE "C" NOT NULL,
    at        double precision NOT NULL,
    PRIMARY KEY (player_id, table_id)
);

-- A wave counts the marks of the people it pairs since a time; noting forgets by time.
CREATE INDEX pool_abandons_by_player ON pool_abandons (player_id, at);
CREATE INDEX pool_abandons_by_at ON pool_abandons (at);
