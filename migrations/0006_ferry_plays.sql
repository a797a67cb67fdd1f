-- Ferry plays: a game's side played by Ferry's own engine, and at which level (1 to 8).
-- Both are NULL in a game between members. Such games are casual (rated = 0) until the
-- levels are calibrated (see 0005).
ALTER TABLE games ADD COLUMN computer_color TEXT CHECK (computer_color IN ('white', 'black'));
ALTER TABLE games ADD COLUMN computer_level INTEGER CHECK (computer_level BETWEEN 1 AND 8);

-- At start, Ferry looks for its active games (it may be to move in some): without
-- reading every game.
CREATE INDEX games_computer_active ON games (id)
    WHERE computer_color IS NOT NULL AND status = 'active';
