-- Your-turn notices: how each member wants to be told it is their move (`/settings
-- notify`): a mention in the game's channel, a direct message, or both; and whether Ferry
-- has told them once that Discord refused its direct message (then it mentions them in the
-- channel instead, without saying why again).
ALTER TABLE members ADD COLUMN notify TEXT NOT NULL DEFAULT 'channel'
    CHECK (notify IN ('channel', 'dm', 'both'));
ALTER TABLE members ADD COLUMN dm_refused_told INTEGER NOT NULL DEFAULT 0;

-- A notice for one member's direct messages (NULL: for the channel), and what the game's
-- channel says instead when the chat refuses the direct message (NULL: nothing, the channel
-- mentioned the member already).
ALTER TABLE outbox ADD COLUMN direct_to TEXT;
ALTER TABLE outbox ADD COLUMN fallback TEXT;
