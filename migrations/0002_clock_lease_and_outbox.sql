-- Several `ferry serve` processes may share this database (one per group of shards).

-- Who runs a job that must run in one process only (the clocks: 'clock'). The holder renews
-- its lease while it runs; when the holder stops renewing, another process takes over once
-- `expires_at` (Unix seconds) has passed.
CREATE TABLE leases (
    name       TEXT PRIMARY KEY,
    holder     TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);

-- Notices the clocks decided to post (reminders, time-outs, closed votes), written in the
-- same transaction as the change they tell of, and deleted once the chat has them: a process
-- that dies between the two leaves them here for the next one. AUTOINCREMENT: an id is never
-- reused, because the chat uses it to recognise a notice it was already given.
CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    server      TEXT NOT NULL,
    channel     TEXT NOT NULL,
    text        TEXT NOT NULL,
    picture     BLOB,                        -- PNG
    picture_name TEXT,
    buttons     TEXT NOT NULL DEFAULT '',    -- one a line: id, a tab, label
    mentions    TEXT NOT NULL DEFAULT '',    -- member ids, one a line
    created_at  INTEGER NOT NULL,
    tries       INTEGER NOT NULL DEFAULT 0   -- failed deliveries so far
);
