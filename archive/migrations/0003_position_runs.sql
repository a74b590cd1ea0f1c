-- The position index becomes sorted runs of packed blocks (posindex.go,
-- docs/archive.md): one row per block of about a page instead of one row
-- per position, written in order by imports instead of at random, with
-- the move played next and the mover's outcome so that the opening
-- explorer answers from the index.

-- A run: its entries, and its tier (runs of one tier are merged).
CREATE TABLE pos_runs (
	id      INTEGER PRIMARY KEY,
	entries INTEGER NOT NULL,
	level   INTEGER NOT NULL
);

-- A block of a run: lo is its first hash with the top bit flipped (so
-- that SQLite's signed order is the hashes' unsigned order); data is the
-- packed entries.
CREATE TABLE pos_blocks (
	id   INTEGER PRIMARY KEY,
	run  INTEGER NOT NULL,
	lo   INTEGER NOT NULL,
	data BLOB NOT NULL
);
CREATE INDEX pos_blocks_run_lo ON pos_blocks(run, lo);

-- Move tokens as the index numbers them (canonical spellings; never
-- deleted, never renumbered).
CREATE TABLE move_tokens (
	id    INTEGER PRIMARY KEY,
	token TEXT NOT NULL UNIQUE
);

-- Work left for the program: reindex_after and reindex_upto bound the
-- games stored before this migration whose positions are still to be
-- put in the new index (Migrate does it, in stages it commits).
CREATE TABLE archive_state (
	key   TEXT PRIMARY KEY,
	value INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO archive_state(key, value) SELECT 'reindex_after', 0 WHERE EXISTS (SELECT 1 FROM games);
INSERT INTO archive_state(key, value) SELECT 'reindex_upto', (SELECT max(id) FROM games) WHERE EXISTS (SELECT 1 FROM games);

DROP TABLE positions;
