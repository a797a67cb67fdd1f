-- A server's own variants (`/variant add`): the definition file as the manager gave it.
-- A removed variant takes no new challenges; its row stays while games or challenges of
-- it are stored, so that they still replay with the rules they were played under.

CREATE TABLE server_variants (
    server     TEXT NOT NULL,
    id         TEXT NOT NULL,
    name       TEXT NOT NULL,
    source     TEXT NOT NULL,
    added_by   TEXT NOT NULL,
    added_at   INTEGER NOT NULL,
    -- NULL while the variant is offered.
    removed_at INTEGER,
    PRIMARY KEY (server, id)
);

CREATE INDEX games_server_variant ON games (server, variant);
