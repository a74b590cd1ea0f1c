-- The order by the Date tag, newest first: the web site's default order,
-- a player's latest games and the latest games that reached a position.
-- The indexes hold the date as that order reads it, NULL for a game whose
-- year is not known ("????.??.??", or no Date tag), so that a backward
-- scan gives the latest dates first, the undated games last and, among
-- games of one date, the last added first (the rowid ends each entry). A
-- page of the newest games then reads 50 entries instead of sorting
-- every game; the second index does the same for the games of one game,
-- the search most links make. browse.go's dateKey is the same expression.
CREATE INDEX games_date ON games(CASE WHEN substr(date, 1, 1) <> '?' THEN date END);
CREATE INDEX games_game_date ON games(game, CASE WHEN substr(date, 1, 1) <> '?' THEN date END);
