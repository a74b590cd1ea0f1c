-- Computer opponents (docs/mail.md, "Playing the bot"). A seat the server
-- plays itself has its level here (0: a person). Its address is the
-- server's own, and nothing is ever sent to it.
ALTER TABLE pbem_seats ADD COLUMN bot_level INTEGER NOT NULL DEFAULT 0;

-- The bots' work to do: one row per game and ply at which a bot must move
-- or answer a draw offer. Queued in the transaction that made it due (a
-- move, the start, an undo, a draw offer), so that it survives a restart;
-- the daemon searches outside any transaction, and then plays the move,
-- queues the boards and deletes the row in one transaction, after checking
-- that the game still stands at ply. So a crash at any point loses or
-- doubles nothing.
CREATE TABLE pbem_bot_jobs (
	game_id     INTEGER NOT NULL REFERENCES pbem_games(id),
	ply         INTEGER NOT NULL,              -- moves played when it was queued
	created_at  INTEGER NOT NULL,
	next_try_at INTEGER NOT NULL,
	tries       INTEGER NOT NULL DEFAULT 0,    -- failed attempts
	last_error  TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE INDEX pbem_bot_jobs_due ON pbem_bot_jobs(next_try_at);
