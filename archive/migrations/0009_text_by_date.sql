-- The full-text index, made again so that a search by words reads about
-- a page of it at any size of archive (archive/text.go):
--   - each game of a game is in a language of its own (the hidden column
--     lang, FTS4's languageid: 1 IceSickle, 2 Pikemen, 3 IceLady,
--     4 IceFrogs, 0 any other), so that "words and a game" reads that
--     game's part of the index only;
--   - the docid is the game's textKey (its date as the orders by date
--     read it, then its id in the low 35 bits), and the index is stored
--     newest first (order=DESC), so that the games with the words come
--     out of it newest first, as they are needed.
-- The expressions are text.go's textKeySQL and textLanguageSQL. The rows
-- go in by language and docid: FTS4 writes out what it has gathered
-- whenever either goes back, and so makes one run per language.
CREATE VIRTUAL TABLE game_text_new USING fts4(players, event, comments, tokenize=unicode61, languageid="lang", order=DESC);
INSERT INTO game_text_new(docid, lang, players, event, comments)
SELECT (CASE WHEN length(g.date) = 10 AND substr(g.date, 1, 1) <> '?' THEN
	(1 + ((((((( (instr('0123456789', substr(g.date, 1, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 2, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 3, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 4, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 6, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 7, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 9, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 10, 1)) + 10) % 11) << 35 | g.id
	ELSE g.id END) AS k,
	(CASE g.game WHEN 'IceSickle' THEN 1 WHEN 'Pikemen' THEN 2 WHEN 'IceLady' THEN 3 WHEN 'IceFrogs' THEN 4 ELSE 0 END) AS l,
	t.players, t.event, t.comments
FROM game_text t JOIN games g ON g.id = t.docid
ORDER BY l, k;
DROP TABLE game_text;
ALTER TABLE game_text_new RENAME TO game_text;
-- One segment per language (1.6 s at a million games): a word is then
-- looked up once per language instead of once per segment.
INSERT INTO game_text(game_text) VALUES ('optimize');
