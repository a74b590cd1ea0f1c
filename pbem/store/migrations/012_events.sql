-- Tournaments (docs/tournaments.md): one row each, the whole state of
-- its pairings and results as package tournament keeps it (JSON), and
-- the games by mail it started. A tournament is paired in the
-- transaction that starts its games, so a round is paired once.
CREATE TABLE pbem_events (
	id         INTEGER PRIMARY KEY,
	name       TEXT NOT NULL UNIQUE,
	game       TEXT NOT NULL,                -- the game's name, as the registry gives it
	options    TEXT NOT NULL DEFAULT '{}',   -- the game's options, JSON
	days       INTEGER NOT NULL DEFAULT 0,   -- days per move
	status     TEXT NOT NULL,                -- open, running, finished, cancelled
	starts_at  INTEGER,                      -- when it starts by itself; NULL: when full, or by the operator
	when_full  INTEGER NOT NULL DEFAULT 0,   -- it starts once MaxPlayers have joined
	state      TEXT NOT NULL,                -- tournament.Tournament, JSON
	created_at INTEGER NOT NULL,
	updated_at INTEGER NOT NULL
);
CREATE TABLE pbem_event_games (
	event_id INTEGER NOT NULL REFERENCES pbem_events(id),
	round    INTEGER NOT NULL,
	board    INTEGER NOT NULL,
	game_id  INTEGER NOT NULL UNIQUE REFERENCES pbem_games(id),
	PRIMARY KEY (event_id, round, board)
);
