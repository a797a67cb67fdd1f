-- ../0006_ferry_plays.sql for PostgreSQL: the side Ferry's engine plays, and its level.
ALTER TABLE games ADD COLUMN computer_color TEXT CHECK (computer_color IN ('white', 'black'));
ALTER TABLE games ADD COLUMN computer_level BIGINT CHECK (computer_level BETWEEN 1 AND 8);

CREATE INDEX games_computer_active ON games (id)
    WHERE computer_color IS NOT NULL AND status = 'active';
