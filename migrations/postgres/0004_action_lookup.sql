-- ../0004_action_lookup.sql for PostgreSQL: the last action of a kind and side.
CREATE INDEX actions_by_kind ON actions (game_id, kind, color, seq);
