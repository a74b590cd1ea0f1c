-- The daily puzzle by mail (docs/mail.md, "Puzzles"): who asked for it,
-- the last puzzle sent to them and when; and each player's answer to
-- each puzzle sent, their own moves so far. The puzzles themselves are
-- the archive's (table puzzles).
CREATE TABLE pbem_puzzle_players (
	address     TEXT PRIMARY KEY,
	active      INTEGER NOT NULL DEFAULT 1,
	last_puzzle INTEGER NOT NULL DEFAULT 0, -- the archive's puzzle id
	sent_at     INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE pbem_puzzle_tries (
	address    TEXT NOT NULL,
	puzzle_id  INTEGER NOT NULL,
	moves      TEXT NOT NULL DEFAULT '', -- the player's own moves, space-separated
	status     TEXT NOT NULL DEFAULT 'open', -- open, solved, missed
	updated_at INTEGER NOT NULL,
	PRIMARY KEY (address, puzzle_id)
);
