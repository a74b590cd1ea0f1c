-- Open challenges to anyone (docs/mail.md, "Finding an opponent"): a
-- player's seek for a game with its options, which a matching seek of
-- another player meets. A seek met has its game; one taken back or run
-- out is deleted.
CREATE TABLE pbem_seeks (
	id         INTEGER PRIMARY KEY,
	address    TEXT NOT NULL,
	game       TEXT NOT NULL,    -- the game's name, as the registry gives it
	terms      TEXT NOT NULL,    -- the options and days, canonical: what two seeks must share
	seats      INTEGER NOT NULL, -- how many players the game takes
	rating     REAL NOT NULL,    -- the seeker's rating in the game when the seek came
	rating_min INTEGER NOT NULL DEFAULT 0, -- the opponents' ratings the seeker takes (0: any)
	rating_max INTEGER NOT NULL DEFAULT 0,
	created_at INTEGER NOT NULL,
	expires_at INTEGER NOT NULL,
	game_id    INTEGER REFERENCES pbem_games(id) -- the game it started, once met
);
CREATE INDEX pbem_seeks_open ON pbem_seeks (game, terms) WHERE game_id IS NULL;
CREATE INDEX pbem_seeks_by_address ON pbem_seeks (address);
