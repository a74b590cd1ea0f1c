-- The play-by-email daemon's own tables. They live in the same SQLite file
-- as the archive, so that a finished game is archived in the transaction
-- that finishes it.
CREATE TABLE pbem_games (
	id            INTEGER PRIMARY KEY AUTOINCREMENT,
	game          TEXT NOT NULL,            -- canonical game name
	status        TEXT NOT NULL,            -- invited, active, finished, declined, cancelled
	record        TEXT NOT NULL,            -- the game's record so far, canonical
	ply           INTEGER NOT NULL DEFAULT 0,
	draw_offers   INTEGER NOT NULL DEFAULT 0, -- bit i-1: seat i offers a draw
	created_at    INTEGER NOT NULL,
	updated_at    INTEGER NOT NULL
);
CREATE INDEX pbem_games_status ON pbem_games(status);

CREATE TABLE pbem_seats (
	game_id  INTEGER NOT NULL REFERENCES pbem_games(id),
	seat     INTEGER NOT NULL,
	address  TEXT NOT NULL,                 -- lower case
	name     TEXT NOT NULL,
	accepted INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (game_id, seat)
);
CREATE INDEX pbem_seats_address ON pbem_seats(address);

CREATE TABLE pbem_observers (
	game_id INTEGER NOT NULL REFERENCES pbem_games(id),
	address TEXT NOT NULL,
	PRIMARY KEY (game_id, address)
);

-- Every mail handled, by its Message-ID (or a hash of the mail without
-- one): what makes processing exactly-once.
CREATE TABLE pbem_processed (
	mail_key     TEXT PRIMARY KEY,
	processed_at INTEGER NOT NULL,
	sender       TEXT NOT NULL,
	outcome      TEXT NOT NULL
) WITHOUT ROWID;

-- Mail waiting to be sent, written in the transaction that decided it.
CREATE TABLE pbem_outbox (
	id          INTEGER PRIMARY KEY AUTOINCREMENT,
	recipient   TEXT NOT NULL,
	message     BLOB NOT NULL,
	created_at  INTEGER NOT NULL,
	next_try_at INTEGER NOT NULL,
	attempts    INTEGER NOT NULL DEFAULT 0,
	sent_at     INTEGER,
	failed_at   INTEGER,
	last_error  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX pbem_outbox_pending ON pbem_outbox(next_try_at) WHERE sent_at IS NULL AND failed_at IS NULL;

-- Error replies sent, for the per-sender rate limit.
CREATE TABLE pbem_error_replies (
	address TEXT NOT NULL,
	sent_at INTEGER NOT NULL
);
CREATE INDEX pbem_error_replies_address ON pbem_error_replies(address, sent_at);

-- Small facts the daemon keeps: the mailbox's UIDVALIDITY and last UID.
CREATE TABLE pbem_state (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
) WITHOUT ROWID;
