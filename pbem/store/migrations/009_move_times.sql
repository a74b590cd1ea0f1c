-- When each move of a game by mail was made (docs/web.md, "Follow
-- games": the feeds give each move its time). Written with the record
-- by saveGame: a move adds its ply, an undo takes the plies undone away.
-- The moves of games played before this table have no row: the feeds
-- give them the time the game began, as before.
CREATE TABLE pbem_move_times (
	game_id INTEGER NOT NULL REFERENCES pbem_games(id) ON DELETE CASCADE,
	ply     INTEGER NOT NULL, -- 1 for the first move
	at      INTEGER NOT NULL, -- Unix seconds
	PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
