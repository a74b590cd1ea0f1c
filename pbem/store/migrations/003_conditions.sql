-- Conditional moves (docs/mail.md): a player of a two-player game, after
-- their move, says what they will answer to the opponent's next moves.
-- One row per game and author, valid only while the game stands where
-- they were given: after ply moves, at position (its code). Anything else
-- (a move that matched nothing, an undo, the end of the game) makes them
-- stale, and they are deleted.
CREATE TABLE pbem_conditions (
	game_id    INTEGER NOT NULL REFERENCES pbem_games(id),
	seat       INTEGER NOT NULL,   -- the author's seat
	ply        INTEGER NOT NULL,   -- moves played when they apply
	position   TEXT NOT NULL,      -- the position code then
	chains     TEXT NOT NULL,      -- one line per chain: canonical tokens, the opponent's first, alternating
	created_at INTEGER NOT NULL,
	PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
