-- Glicko-2 ratings per server and variant (see src/rating.rs for the choices).

-- Rated is the default; a casual challenge (rated:false) starts a casual game. A game takes
-- its challenge's flag. Games against Ferry's own engine, when it exists, are stored with
-- rated = 0 until the engine's levels are calibrated.
ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));

-- A member's current rating in one variant on one server, with their rated results.
CREATE TABLE ratings (
    server     TEXT NOT NULL,
    variant    TEXT NOT NULL,
    member     TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    wins       INTEGER NOT NULL DEFAULT 0,
    draws      INTEGER NOT NULL DEFAULT 0,
    losses     INTEGER NOT NULL DEFAULT 0,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (server, variant, member)
);
-- The leaderboard: one server's variant, best first, without sorting every row.
CREATE INDEX ratings_board ON ratings (server, variant, rating DESC);

-- Each rated game's change to each player's rating: the history a profile draws and the
-- trend a leaderboard shows. One row per game and player: a game is rated exactly once.
CREATE TABLE rating_changes (
    game_id       INTEGER NOT NULL REFERENCES games (id),
    member        TEXT NOT NULL,
    server        TEXT NOT NULL,
    variant       TEXT NOT NULL,
    rating_before REAL NOT NULL,
    rating        REAL NOT NULL,
    deviation     REAL NOT NULL,
    at            INTEGER NOT NULL,
    PRIMARY KEY (game_id, member)
);
-- A member's history on a server (the profile's chart), and per variant since a time
-- (the leaderboard's trend).
CREATE INDEX rating_changes_member ON rating_changes (server, member, variant, at);

-- A profile's results: a member's finished games on a server, without reading the others.
CREATE INDEX games_white_server ON games (server, white, status);
CREATE INDEX games_black_server ON games (server, black, status);
