-- Messages that ask a question (a challenge, a draw offer, a takeback request, a vote) are
-- edited once the question is settled, to say what happened and lose their buttons.

-- Where the chat posted the message asking each open question (`key`: 'challenge:12',
-- 'draw:GAME:SEQ', 'takeback:GAME:SEQ', 'vote:3'). A question settled before its message
-- was remembered (the answer raced the post) keeps its new text in `settled_text`, with
-- no message, so the message is edited as soon as it is remembered.
CREATE TABLE question_messages (
    key          TEXT PRIMARY KEY,
    channel      TEXT,
    message      TEXT,
    settled_text TEXT,
    at           INTEGER NOT NULL
);

-- What a clock notice settles: one a line, the question's key, a tab, its new text.
ALTER TABLE outbox ADD COLUMN settles TEXT NOT NULL DEFAULT '';

-- The clocks have told that this open challenge expired (its message was settled).
ALTER TABLE challenges ADD COLUMN expiry_told INTEGER NOT NULL DEFAULT 0;
CREATE INDEX challenges_expiring ON challenges (expires_at) WHERE status = 'open' AND expiry_told = 0;
