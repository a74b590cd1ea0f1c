-- Indexes for the filtered searches, so that a search at a million games
-- reads about as many rows as at a few thousand (docs/web.md, "Speed").
--
-- A search by event: the names of the events stored, one row each, which
-- the event's words are looked for in (a scan of a few hundred names
-- instead of every game), then the games of those events in a range of
-- dates from games_event_date. The names are kept by triggers; a name
-- whose games are all deleted stays (it then selects no game).
CREATE INDEX games_event_date ON games(event, CASE WHEN substr(date, 1, 1) <> '?' THEN date END);
CREATE TABLE events (
	name TEXT PRIMARY KEY
) WITHOUT ROWID;
INSERT INTO events(name) SELECT DISTINCT event FROM games WHERE event IS NOT NULL;
CREATE TRIGGER games_event_insert AFTER INSERT ON games WHEN new.event IS NOT NULL BEGIN
	INSERT OR IGNORE INTO events(name) VALUES (new.event);
END;
CREATE TRIGGER games_event_update AFTER UPDATE OF event ON games WHEN new.event IS NOT NULL BEGIN
	INSERT OR IGNORE INTO events(name) VALUES (new.event);
END;

-- A player's games newest first: each seat holds its game's date as the
-- orders by date read it (games_date's expression: NULL when the year is
-- unknown), so that the latest games of a player are the last entries of
-- seats_player_date for that player, not a sort of all of them. The
-- outcome rides along so that a search by result reads the same entries.
ALTER TABLE seats ADD COLUMN sort_date TEXT;
UPDATE seats SET sort_date = g.date FROM games g
	WHERE g.id = seats.game_id AND substr(g.date, 1, 1) <> '?';
CREATE INDEX seats_player_date ON seats(player_id, sort_date, outcome);
