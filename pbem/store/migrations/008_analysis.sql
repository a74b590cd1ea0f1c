-- Computer analysis by mail (docs/mail.md, "Computer analysis"). A
-- player of a finished game writes analyze; the analysis is made once
-- per game and level, outside the handling of any mail, and each request
-- gets its answer once.

-- The analyses made: the game's record with the analysis written into it
-- (package analysis: [%eval] comments, marks as NAGs, the better moves as
-- variations), one per game and engine level. A request for one made
-- already is answered from here, in the transaction of its mail.
CREATE TABLE pbem_analyses (
	game_id    INTEGER NOT NULL REFERENCES pbem_games(id),
	level      INTEGER NOT NULL,
	record     TEXT NOT NULL,
	created_at INTEGER NOT NULL,
	PRIMARY KEY (game_id, level)
) WITHOUT ROWID;

-- The analyses to make, as pbem_bot_jobs: queued in the transaction of
-- the mail that asks for one not made yet; the daemon's analysis loop
-- analyses the game with no transaction open, and then, in one
-- transaction, stores the analysis, queues the answer of every request
-- waiting for it, and deletes the job and the requests. A crash before
-- that commit leaves the job to be done again; after it, the answers are
-- in the outbox and the job is gone.
CREATE TABLE pbem_analysis_jobs (
	game_id     INTEGER NOT NULL REFERENCES pbem_games(id),
	level       INTEGER NOT NULL,
	created_at  INTEGER NOT NULL,
	next_try_at INTEGER NOT NULL,
	tries       INTEGER NOT NULL DEFAULT 0,    -- failed attempts
	last_error  TEXT NOT NULL DEFAULT '',
	PRIMARY KEY (game_id, level)
) WITHOUT ROWID;
CREATE INDEX pbem_analysis_jobs_due ON pbem_analysis_jobs(next_try_at);

-- The requests waiting for a job: one per game, level and seat that
-- asked (a seat asking again while it waits is told so, and not answered
-- twice). The answer goes to the seat's address.
CREATE TABLE pbem_analysis_requests (
	game_id    INTEGER NOT NULL REFERENCES pbem_games(id),
	level      INTEGER NOT NULL,
	seat       INTEGER NOT NULL,
	created_at INTEGER NOT NULL,
	PRIMARY KEY (game_id, level, seat)
) WITHOUT ROWID;
