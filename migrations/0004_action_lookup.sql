-- A game is rebuilt from its moves in effect and the few actions still in force (the last
-- draw offer, the last takeback request, how it ended), not from every action it ever had:
-- this index finds the last action of a kind and side without reading the others.
CREATE INDEX actions_by_kind ON actions (game_id, kind, color, seq);
