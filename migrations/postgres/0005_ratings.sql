-- ../0005_ratings.sql for PostgreSQL: Glicko-2 ratings per server and variant.

ALTER TABLE challenges ADD COLUMN rated BIGINT NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));
ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 1 CHECK (rated IN (0, 1));

CREATE TABLE ratings (
    server     TEXT NOT NULL,
    variant    TEXT NOT NULL,
    member     TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL DEFAULT 0,
    wins       BIGINT NOT NULL DEFAULT 0,
    draws      BIGINT NOT NULL DEFAULT 0,
    losses     BIGINT NOT NULL DEFAULT 0,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (server, variant, member)
);
CREATE INDEX ratings_board ON ratings (server, variant, rating DESC);

CREATE TABLE rating_changes (
    game_id       BIGINT NOT NULL REFERENCES games (id),
    member        TEXT NOT NULL,
    server        TEXT NOT NULL,
    variant       TEXT NOT NULL,
    rating_before DOUBLE PRECISION NOT NULL,
    rating        DOUBLE PRECISION NOT NULL,
    deviation     DOUBLE PRECISION NOT NULL,
    at            BIGINT NOT NULL,
    PRIMARY KEY (game_id, member)
);
CREATE INDEX rating_changes_member ON rating_changes (server, member, variant, at);

CREATE INDEX games_white_server ON games (server, white, status);
CREATE INDEX games_black_server ON games (server, black, status);
