-- ../0013_retired_puzzles.sql for PostgreSQL: puzzles Ferry no longer ships.

ALTER TABLE puzzles ADD COLUMN retired_at BIGINT;
