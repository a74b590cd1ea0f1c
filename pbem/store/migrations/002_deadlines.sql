-- Deadlines, vacations, digests, undo, and the operator's blocks.
--
-- A game's clock: the player to move has used (now - turn_started_at)
-- minus every pause that overlaps their turn: the daemon's outages
-- (pbem_outages) and their own vacations (pbem_vacations). Nothing is
-- shifted or counted down, so the time left is the same whatever the
-- daemon did in between, and restarts cannot lose it.
ALTER TABLE pbem_games ADD COLUMN days_per_move INTEGER NOT NULL DEFAULT 0;   -- 0: no time control
ALTER TABLE pbem_games ADD COLUMN turn_started_at INTEGER NOT NULL DEFAULT 0; -- unix seconds: the mover's turn began
ALTER TABLE pbem_games ADD COLUMN clock_notice INTEGER NOT NULL DEFAULT 0;    -- this turn: 1 reminder sent, 2 last warning sent
ALTER TABLE pbem_games ADD COLUMN undo_requests INTEGER NOT NULL DEFAULT 0;   -- bit i-1: seat i asks to undo the last move

-- Active games whose clock runs, for the periodic tick.
CREATE INDEX pbem_games_clock ON pbem_games(status, days_per_move);

-- Per player settings.
CREATE TABLE pbem_players (
	address        TEXT PRIMARY KEY,               -- lower case
	digest         INTEGER NOT NULL DEFAULT 0,     -- 1: a daily mail of the games waiting for them
	digest_sent_at INTEGER NOT NULL DEFAULT 0,     -- unix seconds of the last digest slot handled
	blocked        INTEGER NOT NULL DEFAULT 0      -- 1: the operator blocked this address
) WITHOUT ROWID;

-- Vacations: each pauses the player's clocks in all their games from
-- starts_at to ends_at ("vacation off" moves ends_at to that moment).
CREATE TABLE pbem_vacations (
	id        INTEGER PRIMARY KEY AUTOINCREMENT,
	address   TEXT NOT NULL,
	starts_at INTEGER NOT NULL,
	ends_at   INTEGER NOT NULL,
	noticed   INTEGER NOT NULL DEFAULT 0           -- 1: the end was announced
);
CREATE INDEX pbem_vacations_address ON pbem_vacations(address, ends_at);

-- Times the daemon was not running (from its last heartbeat to its next
-- start): no clock runs then.
CREATE TABLE pbem_outages (
	starts_at INTEGER NOT NULL,
	ends_at   INTEGER NOT NULL
);
CREATE INDEX pbem_outages_ends ON pbem_outages(ends_at);

-- Games active before this migration start their clocks now, with none.
UPDATE pbem_games SET turn_started_at = updated_at WHERE status = 'active';
