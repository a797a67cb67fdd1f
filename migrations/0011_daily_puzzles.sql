-- The daily puzzle: where and when a server wants it, each day's post, and which tries
-- were at a daily puzzle. A notice may now ask a question (`asks`), as a reply does: the
-- next day's post settles the day before's message.

ALTER TABLE outbox ADD COLUMN asks TEXT;

CREATE TABLE puzzle_daily_settings (
    server      TEXT PRIMARY KEY,
    channel     TEXT NOT NULL,
    -- The hour of the day, UTC, from which the day's puzzle is posted.
    hour        INTEGER NOT NULL CHECK (hour BETWEEN 0 AND 23),
    -- NULL: the variants in turn, one a day.
    variant     TEXT,
    -- When it was set: no day before this one's is posted.
    since       INTEGER NOT NULL
);

-- One row a server and day: the unique pair is what makes each day's post happen once,
-- whatever processes and restarts there are (its notice is queued in the same transaction).
CREATE TABLE puzzle_dailies (
    id           INTEGER PRIMARY KEY,
    server       TEXT NOT NULL,
    -- Days since 1970-01-01, UTC.
    day          INTEGER NOT NULL,
    channel      TEXT NOT NULL,
    puzzle       TEXT NOT NULL REFERENCES puzzles(id),
    posted_at    INTEGER NOT NULL,
    first_solver TEXT,
    solved_at    INTEGER,
    UNIQUE (server, day)
);

ALTER TABLE puzzle_tries ADD COLUMN daily INTEGER REFERENCES puzzle_dailies(id);
CREATE INDEX puzzle_tries_daily ON puzzle_tries (daily) WHERE daily IS NOT NULL;
