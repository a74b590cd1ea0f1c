-- Puzzles from the archive's games (icepost archive puzzles,
-- archive/puzzles.go; package puzzle): each position where the player to
-- move missed a forced win in one to three moves, which package solve
-- proved. They are found once, by a search that takes seconds a game,
-- and stored here so that the web site and the mail serve them without
-- searching again. The game's tags and players' names are not copied:
-- they are read from games and seats when a puzzle is shown, so that a
-- player forgotten (players forget) is forgotten here too, and a game
-- deleted takes its puzzles with it.
CREATE TABLE puzzles (
	id       INTEGER PRIMARY KEY,
	game_id  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	ply      INTEGER NOT NULL,                          -- the move that missed the win (1: the game's first)
	game     TEXT NOT NULL,                             -- the game's canonical name
	seat     INTEGER NOT NULL,                          -- the seat to move, who had the win
	moves    INTEGER NOT NULL CHECK (moves BETWEEN 1 AND 3), -- it wins in this many own moves
	setup    TEXT NOT NULL,                             -- the position code before the move
	solution TEXT NOT NULL,                             -- the line, tokens separated by spaces
	played   TEXT NOT NULL,                             -- the move played instead
	-- How many tried it on the web site (or by mail) and how many solved
	-- it: the only columns the web site writes, one row a puzzle, so
	-- that no client can make the table grow.
	attempts INTEGER NOT NULL DEFAULT 0,
	solved   INTEGER NOT NULL DEFAULT 0,
	UNIQUE (game_id, ply)
);
CREATE INDEX puzzles_by_game ON puzzles(game, moves);

-- The games searched for puzzles, found or not, so that archive puzzles
-- searches only the games added since (unless told to search again).
CREATE TABLE puzzle_searches (
	game_id  INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	searched INTEGER NOT NULL, -- Unix time
	found    INTEGER NOT NULL  -- puzzles found in it
);
