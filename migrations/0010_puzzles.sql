-- Puzzles cut from real play (`ferry puzzles generate`), loaded from the files Ferry ships
-- at start; each member's tries at them, and the puzzle ratings of members (per server and
-- variant) and of puzzles (Glicko-2, a try being a game between the two, as lichess rates
-- its puzzles).

CREATE TABLE puzzles (
    -- Stable across loads: the same puzzle is one row.
    id          TEXT PRIMARY KEY,
    variant     TEXT NOT NULL,
    -- The options that differ from the variant's defaults, "key=value" joined by spaces,
    -- or "-".
    options     TEXT NOT NULL,
    -- The position before the setup move, the setup move, and the line (moves separated by
    -- spaces: the solver's first and last, the opponent's replies between).
    before      TEXT NOT NULL,
    setup       TEXT NOT NULL,
    line        TEXT NOT NULL,
    -- Separated by commas.
    themes      TEXT NOT NULL,
    depth       INTEGER NOT NULL,
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    plays       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX puzzles_by_variant ON puzzles (variant, rating);

-- One row a try: a member sees a puzzle once, and has at most one going per server.
CREATE TABLE puzzle_tries (
    id          INTEGER PRIMARY KEY,
    server      TEXT NOT NULL,
    channel     TEXT NOT NULL,
    member      TEXT NOT NULL,
    puzzle      TEXT NOT NULL REFERENCES puzzles(id),
    -- The moves of the line played so far (the solver's and the replies).
    progress    INTEGER NOT NULL DEFAULT 0,
    -- NULL while going, then 'solved' or 'failed'.
    result      TEXT CHECK (result IN ('solved', 'failed')),
    started_at  INTEGER NOT NULL,
    ended_at    INTEGER
);
CREATE UNIQUE INDEX one_puzzle_going ON puzzle_tries (server, member) WHERE result IS NULL;
CREATE INDEX puzzle_tries_seen ON puzzle_tries (member, puzzle);

CREATE TABLE puzzle_ratings (
    server      TEXT NOT NULL,
    member      TEXT NOT NULL,
    variant     TEXT NOT NULL,
    rating      REAL NOT NULL,
    deviation   REAL NOT NULL,
    volatility  REAL NOT NULL,
    solved      INTEGER NOT NULL DEFAULT 0,
    failed      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (server, member, variant)
);
