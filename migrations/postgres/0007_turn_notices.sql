-- ../0007_turn_notices.sql for PostgreSQL: how each member is told it is their move, and
-- notices for a member's direct messages.
ALTER TABLE members ADD COLUMN notify TEXT NOT NULL DEFAULT 'channel'
    CHECK (notify IN ('channel', 'dm', 'both'));
ALTER TABLE members ADD COLUMN dm_refused_told BIGINT NOT NULL DEFAULT 0;

ALTER TABLE outbox ADD COLUMN direct_to TEXT;
ALTER TABLE outbox ADD COLUMN fallback TEXT;
