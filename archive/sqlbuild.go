package archive

import (
	"strconv"
	"strings"
	"unicode"

	"icepost/rules"
	"icepost/rules/games"
)

// This file turns a checked query into SQL text and arguments. Nothing
// here reads the database: what a search needs from it (the kinds of
// game stored, for a search by moves) is read first (Archive.where) and
// passed in, so that the SQL a query makes can be tested without one.

// builder collects a WHERE clause and its arguments.
type builder struct {
	conds []string
	args  []any
	// listed is how many games at most the conditions can select when
	// one of them is a list of ids the position index gave (a position,
	// opening moves); -1 when none is. SQLite cannot see a list's length
	// (json_each), so SearchOrdered reads it to pick its plan.
	listed int
	// seats is the search's condition on the seats (a player, a seat, a
	// result, an opponent) when it has one: SearchOrdered may read a
	// player's games from seats_player_date instead.
	seats *seatsCond
	// text is the search's condition on its words when it has one:
	// SearchOrdered and Count may read the games from the full-text
	// index, newest first (textSQL).
	text *textCond
}

// textCond is where the condition on the words is among a builder's.
type textCond struct {
	match        textMatch
	cond         int // index in conds
	argAt, nargs int // its arguments in args
}

// seatsCond is where the condition on the seats is among a builder's.
type seatsCond struct {
	c            *checkedQuery
	cond         int // index in conds
	argAt, nargs int // its arguments in args
}

func (b *builder) add(cond string, args ...any) {
	b.conds = append(b.conds, cond)
	b.args = append(b.args, args...)
}

// withoutSeats is b without its condition on the seats.
func (b *builder) withoutSeats() *builder {
	s := b.seats
	return b.without(s.cond, s.argAt, s.nargs)
}

// withoutText is b without its condition on the words.
func (b *builder) withoutText() *builder {
	t := b.text
	return b.without(t.cond, t.argAt, t.nargs)
}

// without is b without its condition at index cond, whose arguments are
// nargs from argAt. The result has neither seats nor text marked.
func (b *builder) without(cond, argAt, nargs int) *builder {
	out := &builder{listed: b.listed}
	out.conds = append(append(out.conds, b.conds[:cond]...), b.conds[cond+1:]...)
	out.args = append(append(out.args, b.args[:argAt]...), b.args[argAt+nargs:]...)
	return out
}

// where is the WHERE clause on games g, with its leading space, or "".
func (b *builder) where() string {
	if len(b.conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(b.conds, " AND ")
}

// and is the conditions joined by AND, without WHERE, or "".
func (b *builder) and() string { return strings.Join(b.conds, " AND ") }

// kind is a kind of game stored from the usual start: a game and its
// options. A search by moves replays the moves in each kind.
type kind struct {
	game   string
	seats  int
	board  string
	target int
}

// buildQuery checks q and builds its conditions on games g, with kinds
// the kinds of game stored (only a search by moves uses them), langs the
// games' languages in the full-text index (only a search by words uses
// them) and the index not read: position and move conditions select no
// games.
func buildQuery(q Query, kinds []kind, langs map[string]int) (*builder, error) {
	c, err := check(q)
	if err != nil {
		return nil, err
	}
	c.langs = langs
	if len(c.moves) > 0 {
		if c.paths, err = movePaths(c.moves, kinds); err != nil {
			return nil, err
		}
	}
	return build(c), nil
}

const playerIDs = `(SELECT player_id FROM player_aliases WHERE alias = ? UNION SELECT id FROM players WHERE key = ?)`

// build turns c, with what the index found, into conditions on games g.
func build(c *checkedQuery) *builder {
	b := &builder{listed: -1}
	if c.hasPosition {
		b.listed = len(c.positionIDs)
	}
	if len(c.moves) > 0 {
		n := 0
		for _, p := range c.paths {
			n += len(p.ids)
		}
		if b.listed < 0 || n < b.listed {
			b.listed = n
		}
	}
	if c.game != nil {
		b.add("g.game = ?", c.game.Name())
	}
	if c.undecided {
		b.add("g.winner IS NULL")
	}
	if c.player != "" || c.seat != 0 || c.opponent != "" {
		b.seats = &seatsCond{c: c, cond: len(b.conds), argAt: len(b.args)}
		seatCond(b, c)
		b.seats.nargs = len(b.args) - b.seats.argAt
	}
	// Dates are compared as the date indexes hold them (dateKey: NULL
	// when the year is unknown), so that a range of dates is a range of
	// an index. "since" is dateKey >= since; "until" (every date that
	// begins with until or comes before it) is dateKey below until with
	// its last digit one up: "2015" gives < "2016", "2015.12" < "2015.13".
	if c.since != "" {
		b.add(dateKey+" >= ?", c.since)
	}
	if c.until != "" {
		b.add(dateKey+" < ?", c.until[:len(c.until)-1]+string(c.until[len(c.until)-1]+1))
	}
	if c.event != "" {
		// The event's name contains the words: a scan of the events
		// (every name stored, a few per thousand games), then the index
		// games_event_date for those names (migration 7).
		b.add(`g.event IN (SELECT name FROM events WHERE name LIKE ? ESCAPE '\')`, "%"+escapeLike(c.event)+"%")
	}
	for _, t := range c.tags {
		tagCond(b, t)
	}
	if c.plies != nil {
		if c.plies.Min > 0 {
			b.add("g.plies >= ?", c.plies.Min)
		}
		if c.plies.Max >= 0 {
			b.add("g.plies <= ?", c.plies.Max)
		}
	}
	if c.text != "" {
		// The words, in the game's language of the index or in all
		// (text.go).
		// A game with no language has no game stored, and so none with
		// the words.
		m := textMatch{query: c.text, langs: sortedLanguages(c.langs)}
		if c.game != nil {
			m.langs = nil
			if l, ok := c.langs[c.game.Name()]; ok {
				m.langs = []int{l}
			}
		}
		if len(m.langs) == 0 {
			b.add("0")
		} else {
			sub, args := m.idsSQL()
			b.text = &textCond{match: m, cond: len(b.conds), argAt: len(b.args), nargs: len(args)}
			b.add("g.id IN ("+sub+")", args...)
		}
	}
	if c.hasPosition {
		b.add("g.id IN (SELECT value FROM json_each(?))", idList(c.positionIDs))
	}
	if len(c.moves) > 0 {
		movesCond(b, c.paths)
	}
	if c.blunder != "" {
		// The stored analysis (analysis.go): a seat of the player with a
		// blunder, through seats_player and the key of analysis_seats.
		b.add("g.id IN (SELECT s.game_id FROM seats s JOIN analysis_seats an ON an.game_id = s.game_id AND an.seat = s.seat WHERE s.player_id IN "+playerIDs+" AND an.blunders > 0)", c.blunder, c.blunder)
	}
	return b
}

// idList is game ids as a JSON array, for json_each.
func idList(ids []int64) string {
	buf := make([]byte, 0, 8*len(ids)+2)
	buf = append(buf, '[')
	for i, id := range ids {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = strconv.AppendInt(buf, id, 10)
	}
	return string(append(buf, ']'))
}

// seatCond: the player (in a seat), the opponent in another seat, the
// result of the player or seat.
func seatCond(b *builder, c *checkedQuery) {
	var sub strings.Builder
	var args []any
	sub.WriteString("g.id IN (SELECT sp.game_id FROM seats sp")
	anchored := c.player != "" || c.seat != 0
	if anchored && c.opponent != "" {
		sub.WriteString(" JOIN seats so ON so.game_id = sp.game_id AND so.seat <> sp.seat")
	}
	sub.WriteString(" WHERE 1")
	if c.player != "" {
		sub.WriteString(" AND sp.player_id IN " + playerIDs)
		args = append(args, c.player, c.player)
	}
	if c.seat != 0 {
		sub.WriteString(" AND sp.seat = ?")
		args = append(args, c.seat)
	}
	if c.outcome >= 0 {
		sub.WriteString(" AND sp.outcome = ?")
		args = append(args, c.outcome)
	}
	if c.opponent != "" {
		if anchored {
			sub.WriteString(" AND so.player_id IN " + playerIDs)
		} else {
			sub.WriteString(" AND sp.player_id IN " + playerIDs)
		}
		args = append(args, c.opponent, c.opponent)
	}
	sub.WriteString(")")
	b.add(sub.String(), args...)
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// tagColumns are the tags kept in a column of games of their own.
var tagColumns = map[string]string{"Event": "event", "Site": "site", "Date": "date", "Round": "round",
	"Result": "result", "Termination": "termination", "Score": "scores", "Setup": "setup",
	"Game": "game", "Board": "board", "Target": "target"}

func tagCond(b *builder, t checkedTag) {
	if col := tagColumns[t.name]; col != "" {
		b.add("g."+col+" = ?", t.value)
		return
	}
	if seat, ok := seatOf(t.name); ok {
		b.add("g.id IN (SELECT game_id FROM seats WHERE seat = ? AND player_id IN "+playerIDs+")", seat, t.value, t.value)
		return
	}
	b.add("g.id IN (SELECT game_id FROM tags WHERE name = ? AND value = ?)", t.name, t.value)
}

// ftsQuery makes a full-text query out of words typed by a person: every
// word must occur (a trailing * matches a prefix). Only letters and digits
// get through, each word quoted, so no text can be read as query syntax.
func ftsQuery(s string) (string, error) {
	var words []string
	for _, f := range strings.Fields(s) {
		prefix := strings.HasSuffix(f, "*")
		parts := strings.FieldsFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		for i, p := range parts {
			w := `"` + strings.ToLower(p) + `"`
			if prefix && i == len(parts)-1 {
				w = `"` + strings.ToLower(p) + `*"`
			}
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return "", queryErr("text %q: give words of letters or digits to look for", clip(s))
	}
	if len(words) > 32 {
		return "", queryErr("text: at most 32 words")
	}
	return strings.Join(words, " "), nil
}

// movePath is a search by moves in one kind of game: the positions
// after each move, and the games the index found that reached each at
// its ply.
type movePath struct {
	kind   kind
	hashes []uint64 // after move 1, 2, ...
	ids    []int64
}

// movePaths plays the moves in every kind of game stored where they are
// legal. When they are legal in no kind, the error is the first kind's
// reason; with no kinds at all, there are no paths and nothing matches.
func movePaths(toks []string, kinds []kind) ([]movePath, error) {
	var paths []movePath
	var firstErr error
	for _, k := range kinds {
		g, ok := games.Lookup(k.game)
		if !ok {
			continue
		}
		s, err := g.Start(rules.Options{Seats: k.seats, Board: k.board, Target: k.target})
		if err != nil {
			continue
		}
		p := movePath{kind: k}
		for i, t := range toks {
			next, _, err := rules.Play(s, t)
			if err != nil {
				if firstErr == nil {
					firstErr = queryErr("moves: %s move %d: %v", k.game, i+1, err)
				}
				p.hashes = nil
				break
			}
			s = next
			p.hashes = append(p.hashes, uint64(PositionHash(s)))
		}
		if p.hashes != nil {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 && firstErr != nil {
		return nil, firstErr
	}
	return paths, nil
}

// movesCond: the game is of a kind where the moves are legal, from the
// usual start, and among the games the index found for that kind.
func movesCond(b *builder, paths []movePath) {
	var alts []string
	var args []any
	for _, p := range paths {
		alts = append(alts, "(g.game = ? AND g.seats = ? AND g.board = ? AND g.target = ? AND g.setup IS NULL AND g.id IN (SELECT value FROM json_each(?)))")
		args = append(args, p.kind.game, p.kind.seats, p.kind.board, p.kind.target, idList(p.ids))
	}
	if len(alts) == 0 {
		b.add("0")
		return
	}
	b.add("("+strings.Join(alts, " OR ")+")", args...)
}

// limitClause is the LIMIT and OFFSET of a query, or "".
func limitClause(limit, offset int) (string, []any) {
	if limit == 0 && offset == 0 {
		return "", nil
	}
	if limit == 0 {
		limit = -1
	}
	return " LIMIT ? OFFSET ?", []any{limit, offset}
}

// selectSQL lists cols of the games b selects, oldest first, with the
// limit and offset.
func selectSQL(cols string, b *builder, limit, offset int) (string, []any) {
	lim, largs := limitClause(limit, offset)
	return "SELECT " + cols + " FROM games g" + b.where() + " ORDER BY g.id" + lim, joinArgs(b.args, largs)
}

// countSQL counts the games b selects, within the limit and offset.
func countSQL(b *builder, limit, offset int) (string, []any) {
	lim, largs := limitClause(limit, offset)
	return "SELECT count(*) FROM (SELECT 1 FROM games g" + b.where() + lim + ")", joinArgs(b.args, largs)
}

// joinArgs appends without writing into a's spare capacity.
func joinArgs(a, b []any) []any {
	out := make([]any, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}
