-- ../0012_server_variants.sql for PostgreSQL: a server's own variants.

CREATE TABLE server_variants (
    server     TEXT NOT NULL,
    id         TEXT NOT NULL,
    name       TEXT NOT NULL,
    source     TEXT NOT NULL,
    added_by   TEXT NOT NULL,
    added_at   BIGINT NOT NULL,
    -- NULL while the variant is offered.
    removed_at BIGINT,
    PRIMARY KEY (server, id)
);

CREATE INDEX games_server_variant ON games (server, variant);
