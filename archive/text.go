package archive

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"icepost/rules/games"
)

// The full-text index, game_text (FTS4), is kept so that a search by
// words reads about a page of its index however many games hold the
// words (migration 9; docs/archive.md "Words at a million games"):
//
//   - Each game of a game (IceSickle, Pikemen, ...) is in a language of
//     its own (FTS4's languageid, the hidden column lang), so that words
//     and a game look in that game's part of the index only. The
//     languages are numbered in the table game_languages (below).
//   - A game's docid is not its id but its textKey: its date as the
//     orders by date read it (dateKey), then its id. The index is stored
//     newest first (order=DESC), so that the games with the words come
//     out of it newest first, read as they are needed: a page of the
//     newest games with the words ends the reading.
//
// The id is the docid's low textIDBits bits (docid & textIDMask).

// textIDBits is how many low bits of a docid hold the game's id.
const textIDBits = 35

// textIDMask takes the id out of a docid.
const textIDMask = 1<<textIDBits - 1

// maxTextID is the largest game id the full-text index can hold.
const maxTextID = textIDMask

// textKey is the docid of the game with this id and Date tag (date, when
// hasDate) in game_text. Keys sort as dateKey then id sort: the games
// with no known year (no Date, or one that begins with '?') first, then
// by each of the date's eight digits, '?' above '9' as in the text.
// Dates are as the notation checks them (YYYY.MM.DD, digits or '?'); any
// other character counts as '?'. textKeySQL is the same in SQL.
func textKey(date string, hasDate bool, id int64) int64 {
	if !hasDate || len(date) != 10 || date[0] == '?' {
		return id
	}
	var d int64
	for i := 0; i < len(date); i++ {
		if i == 4 || i == 7 {
			continue
		}
		c := date[i]
		digit := int64(10)
		if c >= '0' && c <= '9' {
			digit = int64(c - '0')
		}
		d = d*11 + digit
	}
	return (d+1)<<textIDBits | id
}

// textKeySQL is textKey of the games g in SQL (migration 9 uses the same
// expression): 11 to the 8th, 214,358,881, is below 2 to the 28th, so
// that the key stays below 2 to the 63rd.
const textKeySQL = `(CASE WHEN length(g.date) = 10 AND substr(g.date, 1, 1) <> '?' THEN
	(1 + ((((((( (instr('0123456789', substr(g.date, 1, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 2, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 3, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 4, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 6, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 7, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 9, 1)) + 10) % 11) * 11
	+ (instr('0123456789', substr(g.date, 10, 1)) + 10) % 11) << 35 | g.id
	ELSE g.id END)`

// A game's language in game_text is recorded in the table
// game_languages (migration 10), not written here: the four games keep
// the numbers migration 9 gave them (1 IceSickle, 2 Pikemen, 3 IceLady,
// 4 IceFrogs), and a game the table does not hold yet gets the next
// number in the transaction that first stores a game of it
// (numberTextLanguages). A number once given never changes, so that
// adding a game, or listing the games in another order, moves no game's
// words.

// textLanguageSQL is the language of the games g in SQL (NULL for a
// game with none), for verify.
const textLanguageSQL = `(SELECT lang FROM game_languages WHERE game = g.game)`

// readTextLanguages reads game_languages: each game's language, by its
// canonical name.
func readTextLanguages(ctx context.Context, q dbtx) (map[string]int, error) {
	rows, err := q.QueryContext(ctx, `SELECT game, lang FROM game_languages`)
	if err != nil {
		return nil, fmt.Errorf("reading the games' languages: %w", err)
	}
	defer rows.Close()
	langs := map[string]int{}
	for rows.Next() {
		var game string
		var lang int
		if err := rows.Scan(&game, &lang); err != nil {
			return nil, err
		}
		langs[game] = lang
	}
	return langs, rows.Err()
}

// numberTextLanguages gives game a language in game_languages inside tx,
// the transaction that stores its first game, and returns the table as
// it then is. Every registered game the table does not hold yet is
// numbered with it, in the order of the games' list (rules/games), each
// the largest number plus one: the numbers follow the order the games
// were registered in, whichever is stored first. A game no longer
// registered is numbered last.
func numberTextLanguages(ctx context.Context, tx dbtx, game string) (map[string]int, error) {
	langs, err := readTextLanguages(ctx, tx)
	if err != nil {
		return nil, err
	}
	if _, ok := langs[game]; ok {
		return langs, nil
	}
	next := 1
	for _, l := range langs {
		next = max(next, l+1)
	}
	var names []string
	for _, g := range games.All() {
		if _, ok := langs[g.Name()]; !ok {
			names = append(names, g.Name())
		}
	}
	if !slices.Contains(names, game) {
		names = append(names, game)
	}
	for _, name := range names {
		if _, err := tx.ExecContext(ctx, `INSERT INTO game_languages(game, lang) VALUES (?, ?)`, name, next); err != nil {
			return nil, fmt.Errorf("numbering the language of %s: %w", name, err)
		}
		langs[name] = next
		next++
	}
	return langs, nil
}

// sortedLanguages lists the languages of langs, smallest first.
func sortedLanguages(langs map[string]int) []int {
	out := make([]int, 0, len(langs))
	for _, l := range langs {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

// storedTextKey is the docid of a stored game's text.
func storedTextKey(ctx context.Context, tx *sql.Tx, id int64) (int64, error) {
	var date sql.NullString
	if err := tx.QueryRowContext(ctx, `SELECT date FROM games WHERE id = ?`, id).Scan(&date); err != nil {
		return 0, fmt.Errorf("game %d: %w", id, err)
	}
	return textKey(date.String, date.Valid, id), nil
}

// textRow is a game's row of game_text, waiting in an import batch.
type textRow struct {
	key  int64
	lang int
	cols [3]string // players, event, comments
}

// textMatch is the full-text part of a search: the words (ftsQuery) and
// the languages to look in.
type textMatch struct {
	query string
	langs []int
}

// idsSQL selects the ids of the games with the words, for a condition
// g.id IN (...).
func (m textMatch) idsSQL() (string, []any) {
	if len(m.langs) == 1 {
		return `SELECT docid & ` + fmt.Sprint(textIDMask) + ` FROM game_text WHERE game_text MATCH ? AND lang = ?`, []any{m.query, m.langs[0]}
	}
	marks := strings.TrimSuffix(strings.Repeat("?,", len(m.langs)), ",")
	args := []any{m.query}
	for _, l := range m.langs {
		args = append(args, l)
	}
	return `SELECT docid & ` + fmt.Sprint(textIDMask) + ` FROM game_text WHERE game_text MATCH ? AND lang IN (` + marks + `)`, args
}
