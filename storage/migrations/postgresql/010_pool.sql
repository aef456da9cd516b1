-- As SQLite's 012: the pairing pool ("play someone now"), one row per person, waiting for
-- an opponent or seated at the table a wave paired them at until the service has told
-- them. A wave reads the waiting of some platforms, the longest waiting first; seating
-- locks the rows of the people it seats, so two processes never seat one person twice.
CREATE TABLE pool_entries (
    player_id   text COLLATE "C" PRIMARY KEY,
    platform    text COLLATE "C" NOT NULL,
    chat_id     text COLLATE "C" NOT NULL,
    name        text NOT NULL,
    lang        text,
    rating      double precision NOT NULL,
    provisional boolean NOT NULL DEFAULT false,
    mode        text NOT NULL,
    partner     text COLLATE "C",
    joined_at   double precision NOT NULL,
    state       text NOT NULL CHECK (state IN ('waiting', 'seated')),
    table_id    text COLLATE "C",
    offered     boolean NOT NULL DEFAULT false,
    message     json
);

CREATE INDEX pool_entries_by_state ON pool_entries (state, platform, joined_at);

-- Who was paired with whom, and when: two ids in order (byte order, as SQLite's and
-- Python's). No key: a seating only adds rows, and forgets those a day old that no other
-- process is forgetting at that moment, so it never waits for another seating's rows.
CREATE TABLE pool_pairs (
    player_a text COLLATE "C" NOT NULL,
    player_b text COLLATE "C" NOT NULL,
    at       double precision NOT NULL,
    CHECK (player_a < player_b)
);

CREATE INDEX pool_pairs_by_a ON pool_pairs (player_a, player_b, at);
CREATE INDEX pool_pairs_by_b ON pool_pairs (player_b);
CREATE INDEX pool_pairs_by_at ON pool_pairs (at);

-- Whom each person blocked: a wave never pairs the two, whichever blocked the other.
CREATE TABLE pool_blocks (
    player_id text COLLATE "C" NOT NULL,
    other_id  text COLLATE "C" NOT NULL,
    at        double precision NOT NULL,
    PRIMARY KEY (player_id, other_id),
    CHECK (player_id <> other_id)
);

CREATE INDEX pool_blocks_by_other ON pool_blocks (other_id);
