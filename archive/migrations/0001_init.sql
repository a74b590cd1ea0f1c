-- The archive of finished games: one row per game, its seats and players,
-- its extra tags, every position it reached, a full-text index, and the
-- records that could not be imported.

CREATE TABLE games (
	id            INTEGER PRIMARY KEY,
	game          TEXT NOT NULL,              -- canonical game name
	seats         INTEGER NOT NULL,
	board         TEXT NOT NULL DEFAULT '',   -- option; '' when the game has none
	target        INTEGER NOT NULL DEFAULT 0, -- option; 0 when the game has none
	setup         TEXT,                       -- the Setup tag, NULL for the usual start
	result        TEXT NOT NULL,              -- the result marker
	winner        INTEGER,                    -- winning seat, 0 for a draw, NULL when undecided
	scores        TEXT,                       -- "14:16" when the game keeps scores
	termination   TEXT,
	date          TEXT,                       -- YYYY.MM.DD as in the record, ? for unknown digits
	event         TEXT,
	site          TEXT,
	round         TEXT,
	plies         INTEGER NOT NULL,           -- main-line length
	dedupe        INTEGER NOT NULL UNIQUE,    -- 64-bit hash of game, options, setup, moves and result
	record        BLOB NOT NULL,              -- the canonical record, compressed (see record.go)
	source        TEXT,                       -- file it was imported from
	source_line   INTEGER,
	source_offset INTEGER,
	mail_game     TEXT,                       -- the mail game it came from
	added         INTEGER NOT NULL            -- Unix time it was added
);

-- One person, however many spellings: key is the normalised name.
CREATE TABLE players (
	id   INTEGER PRIMARY KEY,
	key  TEXT NOT NULL UNIQUE,
	name TEXT NOT NULL
);

-- Further spellings (normalised) that mean an existing player.
CREATE TABLE player_aliases (
	alias     TEXT PRIMARY KEY,
	player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TABLE seats (
	game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	seat      INTEGER NOT NULL,
	player_id INTEGER REFERENCES players(id), -- NULL when the name is unknown (?)
	name      TEXT NOT NULL,                  -- as the record gives it, without the address
	address   TEXT,
	outcome   INTEGER,                        -- 2 win, 1 draw, 0 loss, NULL undecided
	score     INTEGER,                        -- points, for games with scores
	PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX seats_player ON seats(player_id, outcome);

-- Tags that have no column of their own.
CREATE TABLE tags (
	game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	name    TEXT NOT NULL,
	value   TEXT NOT NULL,
	PRIMARY KEY (game_id, name)
) WITHOUT ROWID;
CREATE INDEX tags_name_value ON tags(name, value);

-- Every position of every game's main line: hash is the first 8 bytes of
-- FNV-1a 64 of the position code, ply the number of plies played to reach
-- it. Rows are removed by Delete, not by a foreign key, to keep the table
-- to one b-tree.
CREATE TABLE positions (
	hash    INTEGER NOT NULL,
	game_id INTEGER NOT NULL,
	ply     INTEGER NOT NULL,
	PRIMARY KEY (hash, game_id, ply)
) WITHOUT ROWID;

-- Full text over players, event, site and comments; docid is games.id.
CREATE VIRTUAL TABLE game_text USING fts4(players, event, comments, tokenize=unicode61);

-- Records that did not replay, kept with the reason until a retry admits
-- them or someone deletes them.
CREATE TABLE quarantine (
	id            INTEGER PRIMARY KEY,
	text_hash     INTEGER NOT NULL UNIQUE,
	text          TEXT NOT NULL,
	reason        TEXT NOT NULL,
	source        TEXT,
	source_line   INTEGER,
	source_offset INTEGER,
	added         INTEGER NOT NULL
);
