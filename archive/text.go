package archive

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// The full-text index, game_text (FTS4), is kept so that a search by
// words reads about a page of its index however many games hold the
// words (migration 9; docs/archive.md "Words at a million games"):
//
//   - Each game of a game (IceSickle, Pikemen, ...) is in a language of
//     its own (FTS4's languageid, the hidden column lang), so that words
//     and a game look in that game's part of the index only.
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

// textLanguages are the games' languages in game_text, by the game's
// canonical name; any other game (none today) is in language 0.
var textLanguages = map[string]int{"IceSickle": 1, "Pikemen": 2, "IceLady": 3, "IceFrogs": 4}

// allTextLanguages lists every language a game can be in.
var allTextLanguages = []int{0, 1, 2, 3, 4}

// textLanguage is the language of a game's text in game_text.
func textLanguage(game string) int { return textLanguages[game] }

// textLanguageSQL is textLanguage of the games g in SQL (migration 9 uses
// the same expression).
const textLanguageSQL = `(CASE g.game WHEN 'IceSickle' THEN 1 WHEN 'Pikemen' THEN 2 WHEN 'IceLady' THEN 3 WHEN 'IceFrogs' THEN 4 ELSE 0 END)`

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
