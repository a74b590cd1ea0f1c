-- Each game's language in the full-text index (FTS4's languageid, the
-- column lang of game_text), recorded instead of written into the code,
-- so that a game added to icepost gets a language of its own without
-- moving any other game's words (archive/text.go, textLanguages):
--   - the four games keep the numbers migration 9 gave them;
--   - a game stored later gets the next number (the largest here, plus
--     one) in the transaction that first stores a game of it, and keeps
--     it whatever games are added or however they are listed after.
-- Numbers are never changed or reused.
CREATE TABLE game_languages (
	game TEXT PRIMARY KEY,                      -- canonical game name
	lang INTEGER NOT NULL UNIQUE CHECK (lang > 0)
);
INSERT INTO game_languages(game, lang) VALUES ('IceSickle', 1), ('Pikemen', 2), ('IceLady', 3), ('IceFrogs', 4);

-- Migration 9 put any other game (one that a program or a test
-- registered) in language 0, all together. Each such game stored gets
-- the next number, in the order of its first game, and its words move
-- into its language. The games are found by seeks of games_kind, one a
-- game, not by a scan.
INSERT INTO game_languages(game, lang)
SELECT game, 4 + row_number() OVER (ORDER BY first)
FROM (
	WITH RECURSIVE names(game) AS (
		SELECT min(game) FROM games
		UNION ALL
		SELECT (SELECT min(game) FROM games WHERE game > names.game) FROM names WHERE names.game IS NOT NULL
	)
	SELECT game, (SELECT min(id) FROM games g WHERE g.game = names.game) AS first
	FROM names
	WHERE game IS NOT NULL AND game NOT IN (SELECT game FROM game_languages)
);
-- The rows are found by their docid, text.go's textKeySQL (as in
-- migration 9), from the games of the new languages only.
CREATE TABLE game_text_moved AS
SELECT t.docid AS docid, l.lang AS lang, t.players AS players, t.event AS event, t.comments AS comments
FROM game_languages l CROSS JOIN games g CROSS JOIN game_text t
WHERE l.lang > 4 AND g.game = l.game AND t.lang = 0 AND t.docid = (CASE WHEN length(g.date) = 10 AND substr(g.date, 1, 1) <> '?' THEN
	(1 + ((((((( (instr('0123456789', substr(g.date, 1, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 2, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 3, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 4, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 6, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 7, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 9, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 10, 1)) + 10) % 11) << 35 | g.id
	ELSE g.id END);
DELETE FROM game_text WHERE docid IN (SELECT docid FROM game_text_moved);
INSERT INTO game_text(docid, lang, players, event, comments)
SELECT docid, lang, players, event, comments FROM game_text_moved ORDER BY lang, docid;
DROP TABLE game_text_moved;
