-- Ferry's first schema. Times are Unix seconds (UTC). Member, server and channel ids are
-- the chat's own ids, as text.

-- Per-server settings; a server without a row uses the defaults.
CREATE TABLE servers (
    id           TEXT PRIMARY KEY,
    river_aspect TEXT NOT NULL DEFAULT 'gentle',
    clock_days   INTEGER NOT NULL DEFAULT 3 CHECK (clock_days BETWEEN 1 AND 30)
);

-- Members Ferry has seen: the name for pictures and lists, and their board orientation
-- ('own': from their side; 'white': White at the bottom).
CREATE TABLE members (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    orientation TEXT NOT NULL DEFAULT 'own' CHECK (orientation IN ('own', 'white'))
);

CREATE TABLE games (
    id             INTEGER PRIMARY KEY,
    server         TEXT NOT NULL,
    channel        TEXT NOT NULL,
    variant        TEXT NOT NULL,
    options        TEXT NOT NULL,          -- key=value, one a line, every key
    white          TEXT NOT NULL,
    black          TEXT NOT NULL,
    status         TEXT NOT NULL DEFAULT 'active'
                   CHECK (status IN ('active', 'finished', 'aborted')),
    result         TEXT CHECK (result IN ('1-0', '0-1', '1/2-1/2')),
    reason         TEXT,                   -- the outcome in words, or why it was aborted
    start_position TEXT NOT NULL,
    clock_days     INTEGER NOT NULL CHECK (clock_days BETWEEN 1 AND 30),
    deadline       INTEGER NOT NULL,       -- the player to move loses on time then
    remind_at      INTEGER NOT NULL,
    reminded       INTEGER NOT NULL DEFAULT 0,
    ply            INTEGER NOT NULL DEFAULT 0,  -- moves in effect (after takebacks)
    seq            INTEGER NOT NULL DEFAULT 0,  -- moves and actions recorded
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL
);
-- A channel holds one active game.
CREATE UNIQUE INDEX games_active_channel ON games (server, channel) WHERE status = 'active';
CREATE INDEX games_deadline ON games (remind_at, deadline) WHERE status = 'active';
CREATE INDEX games_white ON games (white, status);
CREATE INDEX games_black ON games (black, status);

-- Moves and the other actions share one sequence per game (seq 1, 2, ...): replaying them
-- in that order rebuilds the game.
CREATE TABLE moves (
    game_id        INTEGER NOT NULL REFERENCES games (id),
    seq            INTEGER NOT NULL,
    ply            INTEGER NOT NULL,       -- 1 for the first move
    text           TEXT NOT NULL,          -- canonical move text
    position_after TEXT NOT NULL,
    member         TEXT NOT NULL,
    played_at      INTEGER NOT NULL,
    taken_back     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seq)
);
-- Never two moves in effect for the same turn.
CREATE UNIQUE INDEX moves_one_per_ply ON moves (game_id, ply) WHERE taken_back = 0;

CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seq     INTEGER NOT NULL,
    kind    TEXT NOT NULL CHECK (kind IN ('offer_draw', 'accept_draw', 'decline_draw',
              'request_takeback', 'accept_takeback', 'decline_takeback', 'resign', 'timeout')),
    color   TEXT NOT NULL CHECK (color IN ('white', 'black')),
    member  TEXT,                          -- NULL for the clock
    at      INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE challenges (
    id          INTEGER PRIMARY KEY,
    server      TEXT NOT NULL,
    channel     TEXT NOT NULL,
    challenger  TEXT NOT NULL,
    opponent    TEXT,                      -- NULL: open to anyone
    variant     TEXT NOT NULL,
    options     TEXT NOT NULL,
    color       TEXT NOT NULL CHECK (color IN ('white', 'black', 'random')),
    clock_days  INTEGER NOT NULL CHECK (clock_days BETWEEN 1 AND 30),
    created_at  INTEGER NOT NULL,
    expires_at  INTEGER NOT NULL,
    status      TEXT NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'accepted', 'declined', 'cancelled')),
    game_id     INTEGER REFERENCES games (id)
);
CREATE INDEX challenges_open ON challenges (server, status);

CREATE TABLE votes (
    id        INTEGER PRIMARY KEY,
    server    TEXT NOT NULL,
    channel   TEXT NOT NULL,               -- where it was started and its result is told
    question  TEXT NOT NULL,               -- 'river_aspect'
    choices   TEXT NOT NULL,               -- comma-separated
    opened_by TEXT NOT NULL,
    opened_at INTEGER NOT NULL,
    closes_at INTEGER NOT NULL,
    status    TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    winner    TEXT,
    closed_at INTEGER
);
-- One open vote per question in a server.
CREATE UNIQUE INDEX votes_open ON votes (server, question) WHERE status = 'open';

CREATE TABLE ballots (
    vote_id INTEGER NOT NULL REFERENCES votes (id),
    member  TEXT NOT NULL,
    choice  TEXT NOT NULL,
    at      INTEGER NOT NULL,
    PRIMARY KEY (vote_id, member)
);
