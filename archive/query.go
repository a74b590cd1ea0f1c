package archive

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"icepost/rules"
	"icepost/rules/games"
)

// Query selects games. Every field that is set narrows the search; the
// zero Query matches every game. All values reach SQL as bound
// parameters.
type Query struct {
	Game     string      // game name, any case
	Player   string      // a player in any seat (or in Seat, when set)
	Seat     int         // 1 to 4; with Player: that player in this seat; alone: results are this seat's
	Opponent string      // a player in another seat than Player's
	Result   string      // win, loss or draw, for Player (or Seat); or undecided
	Since    string      // date from, YYYY[.MM[.DD]] (also with - or /)
	Until    string      // date to, inclusive, same form
	Event    string      // words in the Event tag (case-insensitive substring)
	Tags     []TagFilter // tags with exact values
	Plies    *Range      // main-line length
	Text     string      // words in comments, names, event and site (all of them)
	Position string      // a position code the game reached
	Moves    string      // move tokens the game began with, from the usual start
	Blunder  string      // a player who made a blunder in the game, by its stored analysis (Analyze)
	Limit    int         // at most this many games; 0 means all
	Offset   int         // skip this many first
}

// TagFilter asks for a tag with a value.
type TagFilter struct{ Name, Value string }

// Range is an inclusive range; Max < 0 means no upper bound.
type Range struct{ Min, Max int }

// ErrQuery: a search was given a value it cannot use. The message says
// which and why, in terms of the Query's fields, so that any program can
// show it; a program may say it again in terms of its own options.
var ErrQuery = errors.New("bad search")

func queryErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrQuery, fmt.Sprintf(format, args...))
}

// maxFilter bounds any one search value, so that a hostile value costs
// nothing much.
const maxFilter = 4096

// maxSeats is the most seats any of the games has.
const maxSeats = 4

// maxMoves bounds a search by opening moves.
const maxMoves = 200

// ParseRange reads "20-40", "-30", "50-" or "35".
func ParseRange(s string) (Range, error) {
	bad := queryErr("plies %q: write a range like 20-40, -30, 50- or 35", s)
	num := func(t string) (int, bool) {
		n, err := strconv.Atoi(t)
		return n, err == nil && n >= 0 && len(t) < 10
	}
	lo, hi, dash := strings.Cut(strings.TrimSpace(s), "-")
	r := Range{Max: -1}
	if lo != "" {
		n, ok := num(lo)
		if !ok {
			return r, bad
		}
		r.Min = n
	}
	switch {
	case !dash:
		if lo == "" {
			return r, bad
		}
		r.Max = r.Min
	case hi != "":
		n, ok := num(hi)
		if !ok || n < r.Min {
			return r, bad
		}
		r.Max = n
	case lo == "":
		return r, bad
	}
	return r, nil
}

// ParseTagFilter reads Name=value.
func ParseTagFilter(s string) (TagFilter, error) {
	name, value, ok := strings.Cut(s, "=")
	if !ok || !validTagName(name) {
		return TagFilter{}, queryErr("tag %q: write Name=value, the name of letters, digits and _", clip(s))
	}
	return TagFilter{name, value}, nil
}

func validTagName(n string) bool {
	if n == "" || len(n) > 64 {
		return false
	}
	for _, c := range n {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// ParsePosition reads a position code of any game: its first word names
// the game.
func ParsePosition(code string) (rules.State, error) {
	code = strings.TrimSpace(code)
	name, _, _ := strings.Cut(code, " ")
	g, ok := games.Lookup(name)
	if !ok {
		return nil, queryErr("position %q: a position code starts with the game's name (%s)", clip(code), strings.Join(games.Names(), ", "))
	}
	s, err := g.ParsePosition(code)
	if err != nil {
		return nil, queryErr("position: %v", err)
	}
	return s, nil
}

// clip shortens a value for an error message.
func clip(s string) string {
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

func lookupGameName(name string) (rules.Game, error) {
	g, ok := games.Lookup(name)
	if !ok {
		return nil, queryErr("unknown game %q: the games are %s", clip(name), strings.Join(games.Names(), ", "))
	}
	return g, nil
}

func normDate(s string) (string, error) {
	d := strings.NewReplacer("-", ".", "/", ".").Replace(strings.TrimSpace(s))
	ok := len(d) == 4 || len(d) == 7 || len(d) == 10
	for i := 0; ok && i < len(d); i++ {
		if i == 4 || i == 7 {
			ok = d[i] == '.'
		} else {
			ok = d[i] >= '0' && d[i] <= '9'
		}
	}
	if !ok {
		return "", queryErr("date %q: write YYYY, YYYY.MM or YYYY.MM.DD", clip(s))
	}
	// A month or a day that no calendar has (2021.13, 2021.02.30) is
	// refused rather than compared as text, which would match nothing or
	// everything after it.
	if len(d) >= 7 {
		y, _ := strconv.Atoi(d[:4])
		m, _ := strconv.Atoi(d[5:7])
		if m < 1 || m > 12 {
			return "", queryErr("date %q: there is no month %d (write YYYY.MM with a month from 01 to 12)", clip(s), m)
		}
		if len(d) == 10 {
			day, _ := strconv.Atoi(d[8:])
			last := time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
			if day < 1 || day > last {
				return "", queryErr("date %q: %s has days 01 to %d", clip(s), d[:7], last)
			}
		}
	}
	return d, nil
}

// checkedQuery is a Query that passed every check, its values in the form
// the database holds them: names as keys, dates as in records, a position
// as its hash, the words as a full-text query. Only whether the moves are
// legal is left to build: that depends on the kinds of game stored.
type checkedQuery struct {
	game             rules.Game // nil: any
	player, opponent string     // keys (normalizeName); "" for none
	seat             int        // 0 for none
	outcome          int        // of player or seat: 2 win, 1 draw, 0 loss; -1 any
	undecided        bool       // games without a result
	since, until     string     // YYYY[.MM[.DD]]; "" for none
	event            string
	tags             []checkedTag
	plies            *Range
	text             string // a full-text query (ftsQuery); "" for none
	position         int64  // PositionHash, when hasPosition
	hasPosition      bool
	moves            []string // move tokens
	// What the position index says, read by Archive.where before build:
	// the games that reached position, and for each kind of game where
	// the moves are legal, the games that began with them.
	positionIDs []int64
	paths       []movePath
	// The games' languages in the full-text index (game_languages), read
	// by Archive.where when the query has words.
	langs         map[string]int
	limit, offset int
	blunder       string // a player's key (normalizeName); "" for none
}

// checkedTag is a tag filter with its value in the stored form: a whole
// number for Target, the canonical name for Game, lower case for Board,
// a name key for PlayerN, else the value as given.
type checkedTag struct {
	name  string
	value any
}

// check validates q and puts its values in the stored form. Its errors
// wrap ErrQuery; they come in the order of the Query's fields, after the
// checks that bound every value.
func check(q Query) (*checkedQuery, error) {
	for _, v := range []string{q.Game, q.Player, q.Opponent, q.Result, q.Since, q.Until, q.Event, q.Text, q.Position, q.Moves, q.Blunder} {
		if len(v) > maxFilter {
			return nil, queryErr("a search value is %d bytes long; the most is %d", len(v), maxFilter)
		}
		if !utf8.ValidString(v) {
			return nil, queryErr("%q is not valid UTF-8 text", clip(v))
		}
	}
	if len(q.Tags) > 64 {
		return nil, queryErr("at most 64 tag filters")
	}
	if q.Limit < 0 || q.Offset < 0 {
		return nil, queryErr("limit and offset are 0 or more")
	}
	c := &checkedQuery{event: q.Event, plies: q.Plies, limit: q.Limit, offset: q.Offset, outcome: -1}
	if q.Game != "" {
		g, err := lookupGameName(q.Game)
		if err != nil {
			return nil, err
		}
		c.game = g
	}

	// Seats: the player (in a seat), the opponent, the result.
	c.player, c.opponent = normalizeName(q.Player), normalizeName(q.Opponent)
	if q.Player != "" && c.player == "" {
		return nil, queryErr("a player search needs a name")
	}
	if q.Opponent != "" && c.opponent == "" {
		return nil, queryErr("an opponent search needs a name")
	}
	if q.Seat < 0 || q.Seat > maxSeats {
		return nil, queryErr("seat %d: seats go from 1 to %d", q.Seat, maxSeats)
	}
	c.seat = q.Seat
	switch strings.ToLower(q.Result) {
	case "":
	case "win", "won", "w":
		c.outcome = 2
	case "draw", "drawn", "d":
		c.outcome = 1
	case "loss", "lost", "lose", "l":
		c.outcome = 0
	case "undecided", "unfinished", "*":
		c.undecided = true
	default:
		return nil, queryErr("result %q: use win, loss, draw or undecided", clip(q.Result))
	}
	if c.outcome >= 0 && c.player == "" && c.seat == 0 {
		return nil, queryErr("a result (%s) needs a player or a seat: whose result?", q.Result)
	}

	c.blunder = normalizeName(q.Blunder)
	if q.Blunder != "" && c.blunder == "" {
		return nil, queryErr("a search for a player's blunders needs a name")
	}

	if q.Since != "" {
		d, err := normDate(q.Since)
		if err != nil {
			return nil, err
		}
		c.since = d
	}
	if q.Until != "" {
		d, err := normDate(q.Until)
		if err != nil {
			return nil, err
		}
		c.until = d
	}
	for _, t := range q.Tags {
		ct, err := checkTag(t)
		if err != nil {
			return nil, err
		}
		c.tags = append(c.tags, ct)
	}
	if q.Text != "" {
		m, err := ftsQuery(q.Text)
		if err != nil {
			return nil, err
		}
		c.text = m
	}
	if q.Position != "" {
		s, err := ParsePosition(q.Position)
		if err != nil {
			return nil, err
		}
		if c.game != nil && s.Game().Name() != c.game.Name() {
			return nil, queryErr("the position is of %s, but the search is for %s games", s.Game().Name(), c.game.Name())
		}
		c.position, c.hasPosition = PositionHash(s), true
	}
	if q.Moves != "" {
		c.moves = strings.Fields(q.Moves)
		if len(c.moves) == 0 {
			return nil, queryErr("a search by moves needs move tokens, like \"L@c3 M@b2\"")
		}
		if len(c.moves) > maxMoves {
			return nil, queryErr("moves: at most %d moves", maxMoves)
		}
	}
	return c, nil
}

func checkTag(t TagFilter) (checkedTag, error) {
	if !validTagName(t.Name) {
		return checkedTag{}, queryErr("tag name %q: letters, digits and _", clip(t.Name))
	}
	if len(t.Value) > maxFilter || !utf8.ValidString(t.Value) {
		return checkedTag{}, queryErr("tag %s: the value is too long or not UTF-8", t.Name)
	}
	ct := checkedTag{name: t.Name, value: t.Value}
	switch t.Name {
	case "Game":
		if g, ok := games.Lookup(t.Value); ok {
			ct.value = g.Name()
		}
	case "Board":
		ct.value = strings.ToLower(t.Value)
	case "Target":
		n, err := strconv.Atoi(t.Value)
		if err != nil {
			return checkedTag{}, queryErr("tag Target=%q: a whole number", clip(t.Value))
		}
		ct.value = n
	default:
		if _, ok := seatOf(t.Name); ok {
			ct.value = normalizeName(t.Value)
		}
	}
	return ct, nil
}
