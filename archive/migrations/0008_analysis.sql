-- The computer analysis of stored games (icepost archive analyze,
-- archive/analysis.go). The analysis itself lives in each game's record
-- (package analysis: an [%eval] comment after every move, the marks as
-- NAGs, the better move as a variation, an Annotator tag with the
-- level); these tables hold what searches and the lists of players ask
-- of it, written in the same transaction as the annotated record.

-- A game analysed, and at which engine level: a game with a row here
-- has an icepost analysis at that level in its record. archive analyze
-- skips the games with a row at the level it is asked for.
CREATE TABLE analysis (
	game_id  INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
	level    INTEGER NOT NULL,
	analysed INTEGER NOT NULL -- Unix time it was stored
);

-- Each seat's moves in an analysed game: how many, the sum of their
-- losses (how much each lowered the mover's estimate, 0 to 1), and how
-- many were marked. The seat joins seats(game_id, seat) for the player.
CREATE TABLE analysis_seats (
	game_id      INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	seat         INTEGER NOT NULL,
	moves        INTEGER NOT NULL,
	loss         REAL NOT NULL,
	inaccuracies INTEGER NOT NULL,
	mistakes     INTEGER NOT NULL,
	blunders     INTEGER NOT NULL,
	PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
