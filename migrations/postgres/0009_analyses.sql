-- Analyses of finished games: each position's search, kept as it is made, so that an
-- analysis cut short (a restart) goes on where it stopped and a finished one is answered
-- at once. One row a game: two processes asked at once analyse it once.

CREATE TABLE analyses (
    game_id     BIGINT PRIMARY KEY REFERENCES games(id),
    -- The search of each position in milliseconds.
    budget_ms   INTEGER NOT NULL,
    -- The positions of the game: its start and one after each move.
    positions   INTEGER NOT NULL,
    -- One line a position searched so far, in order: "score depth move move ...".
    searched    TEXT NOT NULL DEFAULT '',
    done        INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
    -- The process analysing it, until its claim lapses (then another goes on).
    holder      TEXT NOT NULL,
    expires_at  BIGINT NOT NULL,
    -- Where it was asked for, and by whom: the result is posted there.
    server      TEXT NOT NULL,
    channel     TEXT NOT NULL,
    asked_by    TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);
