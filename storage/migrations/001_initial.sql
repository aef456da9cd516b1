-- Initial schema. Timestamps are epoch seconds (REAL); nested data is JSON text.

CREATE TABLE chat_settings (
    chat_id      TEXT PRIMARY KEY,
    language     TEXT,
    rules        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(rules)),
    turn_seconds INTEGER NOT NULL DEFAULT 120 CHECK (turn_seconds > 0),
    ai_delay_ms  INTEGER NOT NULL DEFAULT 800 CHECK (ai_delay_ms >= 0),
    updated_at   REAL NOT NULL
) STRICT;

CREATE TABLE players (
    player_id     TEXT PRIMARY KEY,
    name          TEXT NOT NULL,
    language      TEXT,
    matches       INTEGER NOT NULL DEFAULT 0,
    wins          INTEGER NOT NULL DEFAULT 0,
    draws         INTEGER NOT NULL DEFAULT 0,
    losses        INTEGER NOT NULL DEFAULT 0,
    points        INTEGER NOT NULL DEFAULT 0,
    basras        INTEGER NOT NULL DEFAULT 0,
    best_round    INTEGER NOT NULL DEFAULT 0,
    rated_matches INTEGER NOT NULL DEFAULT 0,
    mu            REAL NOT NULL,
    sigma         REAL NOT NULL,
    rating        REAL NOT NULL,
    created_at    REAL NOT NULL,
    updated_at    REAL NOT NULL
) STRICT;

CREATE INDEX players_ranking ON players (rating DESC, points DESC, wins DESC)
    WHERE matches > 0;

-- One row per lobby-or-match; a lobby row becomes the match row when it starts.
CREATE TABLE tables (
    table_id     TEXT PRIMARY KEY,
    chat_id      TEXT NOT NULL,
    platform     TEXT NOT NULL,
    status       TEXT NOT NULL
                 CHECK (status IN ('lobby', 'running', 'finished', 'cancelled', 'expired')),
    mode         TEXT NOT NULL CHECK (mode IN ('1v1', '2v2', 'practice')),
    created_by   TEXT NOT NULL,
    created_at   REAL NOT NULL,
    updated_at   REAL NOT NULL,
    rules        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(rules)),
    seats        TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(seats)),
    header       TEXT CHECK (header IS NULL OR json_valid(header)),
    version      INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    revision     INTEGER NOT NULL DEFAULT 0 CHECK (revision >= 0),
    deadline     REAL,
    warned       INTEGER NOT NULL DEFAULT 0 CHECK (warned IN (0, 1)),
    result       TEXT CHECK (result IS NULL OR json_valid(result)),
    rated        INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1)),
    message_refs TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(message_refs))
) STRICT;

-- A chat runs at most one lobby or match at a time.
CREATE UNIQUE INDEX tables_one_open_per_chat ON tables (chat_id)
    WHERE status IN ('lobby', 'running');
CREATE INDEX tables_open_by_deadline ON tables (deadline)
    WHERE status IN ('lobby', 'running');
CREATE INDEX tables_by_chat ON tables (chat_id, created_at);

-- The event log: the primary key refuses a stale or doubled action.
CREATE TABLE events (
    table_id TEXT NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    version  INTEGER NOT NULL CHECK (version >= 1),
    kind     TEXT NOT NULL,
    data     TEXT NOT NULL CHECK (json_valid(data)),
    at       REAL NOT NULL,
    PRIMARY KEY (table_id, version)
) STRICT, WITHOUT ROWID;

-- One row per finished match whose result reached the profiles.
CREATE TABLE results (
    table_id    TEXT PRIMARY KEY REFERENCES tables (table_id),
    chat_id     TEXT NOT NULL,
    mode        TEXT NOT NULL,
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    finished_at REAL NOT NULL
) STRICT;

CREATE INDEX results_by_chat ON results (chat_id);

CREATE TABLE result_seats (
    table_id       TEXT NOT NULL REFERENCES results (table_id),
    seat           INTEGER NOT NULL CHECK (seat >= 0),
    player_id      TEXT REFERENCES players (player_id),
    team           INTEGER NOT NULL,
    outcome        TEXT NOT NULL CHECK (outcome IN ('win', 'draw', 'loss')),
    score          INTEGER NOT NULL,
    profile_points INTEGER NOT NULL,
    basras         INTEGER NOT NULL,
    best_round     INTEGER NOT NULL,
    PRIMARY KEY (table_id, seat),
    UNIQUE (table_id, player_id)
) STRICT;

CREATE INDEX result_seats_by_player ON result_seats (player_id);

CREATE TABLE rating_history (
    player_id     TEXT NOT NULL REFERENCES players (player_id),
    table_id      TEXT NOT NULL REFERENCES results (table_id),
    before_mu     REAL NOT NULL,
    before_sigma  REAL NOT NULL,
    before_rating REAL NOT NULL,
    after_mu      REAL NOT NULL,
    after_sigma   REAL NOT NULL,
    after_rating  REAL NOT NULL,
    at            REAL NOT NULL,
    PRIMARY KEY (player_id, table_id)
) STRICT;

CREATE INDEX rating_history_by_time ON rating_history (player_id, at DESC);
