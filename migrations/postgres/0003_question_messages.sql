-- ../0003_question_messages.sql for PostgreSQL: where each open question was asked.

CREATE TABLE question_messages (
    key          TEXT PRIMARY KEY,
    channel      TEXT,
    message      TEXT,
    settled_text TEXT,
    at           BIGINT NOT NULL
);

ALTER TABLE outbox ADD COLUMN settles TEXT NOT NULL DEFAULT '';

ALTER TABLE challenges ADD COLUMN expiry_told BIGINT NOT NULL DEFAULT 0;
CREATE INDEX challenges_expiring ON challenges (expires_at) WHERE status = 'open' AND expiry_told = 0;
