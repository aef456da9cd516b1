-- The schema SQLite has after its migration 005, on PostgreSQL. Timestamps are epoch
-- seconds (double precision); nested data is JSON kept as written (json, checked to be
-- valid). Where SQLite breaks ties by rowid, a row here has an identity column (seq); ids
-- compare byte by byte (COLLATE "C"), as SQLite compares them, whatever the server's locale.

CREATE TABLE chat_settings (
    chat_id      text COLLATE "C" PRIMARY KEY,
    language     text,
    rules        json NOT NULL DEFAULT '{}',
    turn_seconds integer NOT NULL DEFAULT 120 CHECK (turn_seconds > 0),
    ai_delay_ms  integer NOT NULL DEFAULT 800 CHECK (ai_delay_ms >= 0),
    updated_at   double precision NOT NULL
);

CREATE TABLE players (
    player_id         text COLLATE "C" PRIMARY KEY,
    name              text NOT NULL,
    language          text,
    platform_language text,
    matches           integer NOT NULL DEFAULT 0,
    wins              integer NOT NULL DEFAULT 0,
    draws             integer NOT NULL DEFAULT 0,
    losses            integer NOT NULL DEFAULT 0,
    points            integer NOT NULL DEFAULT 0,
    basras            integer NOT NULL DEFAULT 0,
    best_round        integer NOT NULL DEFAULT 0,
    rated_matches     integer NOT NULL DEFAULT 0,
    mu                double precision NOT NULL,
    sigma             double precision NOT NULL,
    rating            double precision NOT NULL,
    created_at        double precision NOT NULL,
    updated_at        double precision NOT NULL
);

CREATE INDEX players_ranking ON players (rating DESC, points DESC, wins DESC)
    WHERE matches > 0;

-- One row per lobby-or-match; a lobby row becomes the match row when it starts.
CREATE TABLE tables (
    table_id     text COLLATE "C" PRIMARY KEY,
    seq          bigint GENERATED ALWAYS AS IDENTITY,
    chat_id      text COLLATE "C" NOT NULL,
    platform     text NOT NULL,
    owner        text NOT NULL DEFAULT '',
    status       text NOT NULL
                 CHECK (status IN ('lobby', 'running', 'finished', 'cancelled', 'expired')),
    mode         text NOT NULL CHECK (mode IN ('1v1', '2v2', 'practice')),
    created_by   text NOT NULL,
    created_at   double precision NOT NULL,
    updated_at   double precision NOT NULL,
    rules        json NOT NULL DEFAULT '{}',
    seats        json NOT NULL DEFAULT '[]',
    header       json,
    version      integer NOT NULL DEFAULT 0 CHECK (version >= 0),
    revision     integer NOT NULL DEFAULT 0 CHECK (revision >= 0),
    deadline     double precision,
    warned       boolean NOT NULL DEFAULT false,
    result       json,
    rated        boolean NOT NULL DEFAULT false,
    message_refs json NOT NULL DEFAULT '{}'
);

-- A chat runs at most one lobby or match at a time of each bot.
CREATE UNIQUE INDEX tables_one_open_per_chat ON tables (owner, chat_id)
    WHERE status IN ('lobby', 'running');
CREATE INDEX tables_open_by_deadline ON tables (deadline)
    WHERE status IN ('lobby', 'running');
CREATE INDEX tables_by_chat ON tables (chat_id, created_at);
-- Finding the tables still to adopt costs nothing once there are none.
CREATE INDEX tables_without_owner ON tables (platform) WHERE owner = '';
-- A chat's last finished match is found without reading the chat's other tables.
CREATE INDEX tables_finished_by_chat ON tables (owner, chat_id, created_at, seq)
    WHERE status = 'finished';

-- The event log: the primary key refuses a stale or doubled action.
CREATE TABLE events (
    table_id text COLLATE "C" NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    version  integer NOT NULL CHECK (version >= 1),
    kind     text NOT NULL,
    data     json NOT NULL,
    at       double precision NOT NULL,
    PRIMARY KEY (table_id, version)
);

-- One row per finished match whose result reached the profiles.
CREATE TABLE results (
    table_id    text COLLATE "C" PRIMARY KEY REFERENCES tables (table_id),
    chat_id     text COLLATE "C" NOT NULL,
    mode        text NOT NULL,
    rated       boolean NOT NULL,
    finished_at double precision NOT NULL
);

CREATE INDEX results_by_chat ON results (chat_id);

CREATE TABLE result_seats (
    table_id       text COLLATE "C" NOT NULL REFERENCES results (table_id),
    seat           integer NOT NULL CHECK (seat >= 0),
    player_id      text COLLATE "C" REFERENCES players (player_id),
    team           integer NOT NULL,
    outcome        text NOT NULL CHECK (outcome IN ('win', 'draw', 'loss')),
    score          integer NOT NULL,
    profile_points integer NOT NULL,
    basras         integer NOT NULL,
    best_round     integer NOT NULL,
    PRIMARY KEY (table_id, seat),
    UNIQUE (table_id, player_id)
);

CREATE INDEX result_seats_by_player ON result_seats (player_id);

CREATE TABLE rating_history (
    player_id     text COLLATE "C" NOT NULL REFERENCES players (player_id),
    table_id      text COLLATE "C" NOT NULL REFERENCES results (table_id),
    seq           bigint GENERATED ALWAYS AS IDENTITY,
    before_mu     double precision NOT NULL,
    before_sigma  double precision NOT NULL,
    before_rating double precision NOT NULL,
    after_mu      double precision NOT NULL,
    after_sigma   double precision NOT NULL,
    after_rating  double precision NOT NULL,
    at            double precision NOT NULL,
    PRIMARY KEY (player_id, table_id)
);

CREATE INDEX rating_history_by_time ON rating_history (player_id, at DESC, seq DESC);

-- When each table service was last known alive, so that after a restart every turn
-- clock resumes with the time it had left instead of losing the downtime.
CREATE TABLE service_clock (
    name     text PRIMARY KEY,
    alive_at double precision NOT NULL
);
