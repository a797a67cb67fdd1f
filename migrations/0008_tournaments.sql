-- Tournaments: round robins and Swiss events of one server, their players, and the
-- pairings of each round with the games that play them.

CREATE TABLE tournaments (
    id          INTEGER PRIMARY KEY,
    server      TEXT NOT NULL,
    -- Where it was announced: its news is posted there and its games' threads open there.
    channel     TEXT NOT NULL,
    variant     TEXT NOT NULL,
    -- The variant's option texts, one a line, as a challenge stores them.
    options     TEXT NOT NULL DEFAULT '',
    format      TEXT NOT NULL
        CHECK (format IN ('round-robin', 'double-round-robin', 'swiss')),
    -- 'all': every game of a round robin starts at once; 'rounds': round by round.
    schedule    TEXT NOT NULL CHECK (schedule IN ('all', 'rounds')),
    -- A Swiss's rounds as asked; a round robin's are known when it starts (NULL before).
    rounds      INTEGER,
    clock_days  INTEGER NOT NULL,
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    max_players INTEGER,
    -- When it starts by itself (NULL: when a manager starts it).
    starts_at   INTEGER,
    -- Tie-break codes in order, comma-separated ('BH-C1,SB,WIN').
    tie_breaks  TEXT NOT NULL,
    -- Losses on time that withdraw a player (0: never).
    timeouts_withdraw INTEGER NOT NULL DEFAULT 2,
    created_by  TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    status      TEXT NOT NULL DEFAULT 'open'
        CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    -- Rounds paired so far: pairing round r is the update from r - 1 to r, so it happens
    -- once however many processes try.
    paired      INTEGER NOT NULL DEFAULT 0,
    started_at  INTEGER,
    ended_at    INTEGER
);
CREATE INDEX tournaments_server ON tournaments (server, status);
CREATE INDEX tournaments_due ON tournaments (starts_at) WHERE status = 'open';

CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    member        TEXT NOT NULL,
    joined_at     INTEGER NOT NULL,
    -- The pairing number, given when the tournament starts (or a late entry joins).
    number        INTEGER,
    -- The first round a late entry plays (1 for everyone else).
    first_round   INTEGER NOT NULL DEFAULT 1,
    -- The first round the player no longer plays, once withdrawn.
    withdrawn_round INTEGER,
    -- The rating the pairing order read at the start (NULL: none yet).
    rating        REAL,
    -- Ferry's level, when the player is Ferry.
    level         INTEGER,
    PRIMARY KEY (tournament_id, member)
);

-- One board of one round: a game between white and black, or a bye for white alone.
CREATE TABLE tournament_pairings (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round         INTEGER NOT NULL,
    board         INTEGER NOT NULL,
    white         TEXT NOT NULL,
    black         TEXT,
    -- A bye's kind ('pairing', 'half', 'full', 'zero'); NULL for a game.
    bye           TEXT CHECK (bye IN ('pairing', 'half', 'full', 'zero')),
    -- The game playing this board, once it has started (its thread opened).
    game_id       INTEGER REFERENCES games (id),
    -- A game scored without being played (a withdrawal): '1-0', '0-1' or '0-0'.
    forfeit       TEXT CHECK (forfeit IN ('1-0', '0-1', '0-0')),
    PRIMARY KEY (tournament_id, round, board),
    CHECK ((black IS NULL) = (bye IS NOT NULL))
);
CREATE UNIQUE INDEX tournament_pairings_game ON tournament_pairings (game_id)
    WHERE game_id IS NOT NULL;
-- Boards waiting for their game to start.
CREATE INDEX tournament_pairings_unseated ON tournament_pairings (tournament_id)
    WHERE game_id IS NULL AND black IS NOT NULL AND forfeit IS NULL;
