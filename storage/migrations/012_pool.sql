-- The pairing pool ("play someone now"): one row per person, waiting for an opponent or
-- seated at the table a wave paired them at until the service has told them. A wave reads
-- the waiting of some platforms, the longest waiting first.
CREATE TABLE pool_entries (
    player_id   TEXT PRIMARY KEY,
    platform    TEXT NOT NULL,
    chat_id     TEXT NOT NULL,
    name        TEXT NOT NULL,
    lang        TEXT,
    rating      REAL NOT NULL,
    provisional INTEGER NOT NULL DEFAULT 0 CHECK (provisional IN (0, 1)),
    mode        TEXT NOT NULL,
    partner     TEXT,
    joined_at   REAL NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('waiting', 'seated')),
    table_id    TEXT,
    offered     INTEGER NOT NULL DEFAULT 0 CHECK (offered IN (0, 1)),
    message     TEXT CHECK (message IS NULL OR json_valid(message))
) STRICT;

CREATE INDEX pool_entries_by_state ON pool_entries (state, platform, joined_at);

-- Who was paired with whom, and when: two ids in order. A wave avoids pairing the same two
-- again soon; pairs a day old are forgotten as new ones are noted.
CREATE TABLE pool_pairs (
    player_a TEXT NOT NULL,
    player_b TEXT NOT NULL,
    at       REAL NOT NULL,
    CHECK (player_a < player_b)
) STRICT;

CREATE INDEX pool_pairs_by_a ON pool_pairs (player_a, player_b, at);
CREATE INDEX pool_pairs_by_b ON pool_pairs (player_b);
CREATE INDEX pool_pairs_by_at ON pool_pairs (at);

-- Whom each person blocked: a wave never pairs the two, whichever blocked the other.
CREATE TABLE pool_blocks (
    player_id TEXT NOT NULL,
    other_id  TEXT NOT NULL,
    at        REAL NOT NULL,
    PRIMARY KEY (player_id, other_id),
    CHECK (player_id <> other_id)
) STRICT, WITHOUT ROWID;

CREATE INDEX pool_blocks_by_other ON pool_blocks (other_id);
