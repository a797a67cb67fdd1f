-- A puzzle Ferry no longer ships (it no longer holds with the search Ferry has now) is
-- retired: no longer offered, daily or on demand, while its row stays for the tries and
-- ratings that name it. NULL while shipped; else when it was found missing at start.

ALTER TABLE puzzles ADD COLUMN retired_at INTEGER;
