package archive

import (
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"icepost/rules"
	"icepost/rules/games"
)

// These tests build SQL from queries without a database: what a query
// needs from one (the kinds of game stored) is given to the builder.

// startKind is the kind of a game's default start, and that start.
func startKind(t *testing.T, name string) (kind, rules.State) {
	t.Helper()
	g, ok := games.Lookup(name)
	if !ok {
		t.Fatalf("no game %s", name)
	}
	s, err := g.Start(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := s.Options()
	return kind{game: g.Name(), seats: o.Seats, board: o.Board, target: o.Target}, s
}

func play(t *testing.T, s rules.State, toks ...string) []rules.State {
	t.Helper()
	var out []rules.State
	for _, tok := range toks {
		next, _, err := rules.Play(s, tok)
		if err != nil {
			t.Fatalf("%s: %v", tok, err)
		}
		out = append(out, next)
		s = next
	}
	return out
}

func TestBuildSQL(t *testing.T) {
	sickle, sickleStart := startKind(t, "IceSickle")
	pike, pikeStart := startKind(t, "Pikemen")
	if _, _, err := rules.Play(pikeStart, "L@c3"); err == nil {
		t.Fatal("L@c3 is legal in Pikemen; the moves case needs a move that is not")
	}
	after := play(t, sickleStart, "L@c3", "M@b2")
	const seatsIn = "g.id IN (SELECT sp.game_id FROM seats sp"
	const eventIn = `g.event IN (SELECT name FROM events WHERE name LIKE ? ESCAPE '\')`
	cases := []struct {
		name  string
		q     Query
		kinds []kind
		where string
		args  []any
	}{
		{"all", Query{}, nil, "", nil},
		{"game any case", Query{Game: "icesickle"}, nil, " WHERE g.game = ?", []any{"IceSickle"}},
		{"player as key", Query{Player: "  Alice  Smith <alice@example.org>"}, nil,
			" WHERE " + seatsIn + " WHERE 1 AND sp.player_id IN " + playerIDs + ")", []any{"alice smith", "alice smith"}},
		{"player seat result", Query{Player: "alice", Seat: 2, Result: "Won"}, nil,
			" WHERE " + seatsIn + " WHERE 1 AND sp.player_id IN " + playerIDs + " AND sp.seat = ? AND sp.outcome = ?)",
			[]any{"alice", "alice", 2, 2}},
		{"seat result alone", Query{Seat: 4, Result: "l"}, nil,
			" WHERE " + seatsIn + " WHERE 1 AND sp.seat = ? AND sp.outcome = ?)", []any{4, 0}},
		{"player draw", Query{Player: "carol", Result: "draw"}, nil,
			" WHERE " + seatsIn + " WHERE 1 AND sp.player_id IN " + playerIDs + " AND sp.outcome = ?)", []any{"carol", "carol", 1}},
		{"player and opponent", Query{Player: "Bob", Opponent: "Carol"}, nil,
			" WHERE " + seatsIn + " JOIN seats so ON so.game_id = sp.game_id AND so.seat <> sp.seat WHERE 1 AND sp.player_id IN " + playerIDs +
				" AND so.player_id IN " + playerIDs + ")", []any{"bob", "bob", "carol", "carol"}},
		{"opponent alone", Query{Opponent: "Dave"}, nil,
			" WHERE " + seatsIn + " WHERE 1 AND sp.player_id IN " + playerIDs + ")", []any{"dave", "dave"}},
		{"undecided", Query{Result: "*"}, nil, " WHERE g.winner IS NULL", nil},
		{"since", Query{Since: "2021-07"}, nil, " WHERE " + dateKey + " >= ?", []any{"2021.07"}},
		{"until", Query{Until: "2021/07/15"}, nil, " WHERE " + dateKey + " < ?", []any{"2021.07.16"}},
		{"until a year", Query{Until: "2019"}, nil, " WHERE " + dateKey + " < ?", []any{"201:"}},
		{"a leap day", Query{Since: "2024.02.29"}, nil, " WHERE " + dateKey + " >= ?", []any{"2024.02.29"}},
		{"event like characters", Query{Event: `50%_off\`}, nil, ` WHERE ` + eventIn, []any{`%50\%\_off\\%`}},
		{"tags", Query{Tags: []TagFilter{{"Opening", "Quiet"}, {"Event", "Summer Cup"}, {"Player2", " CAROL "}, {"Target", "12"}, {"Game", "pikemen"}, {"Board", "STAR"}, {"Game", "Chess"}}}, nil,
			" WHERE g.id IN (SELECT game_id FROM tags WHERE name = ? AND value = ?)" +
				" AND g.event = ?" +
				" AND g.id IN (SELECT game_id FROM seats WHERE seat = ? AND player_id IN " + playerIDs + ")" +
				" AND g.target = ? AND g.game = ? AND g.board = ? AND g.game = ?",
			[]any{"Opening", "Quiet", "Summer Cup", 2, "carol", "carol", 12, "Pikemen", "star", "Chess"}},
		{"plies range", Query{Plies: &Range{5, 20}}, nil, " WHERE g.plies >= ? AND g.plies <= ?", []any{5, 20}},
		{"plies up to", Query{Plies: &Range{0, 15}}, nil, " WHERE g.plies <= ?", []any{15}},
		{"plies from", Query{Plies: &Range{21, -1}}, nil, " WHERE g.plies >= ?", []any{21}},
		{"plies any", Query{Plies: &Range{0, -1}}, nil, "", nil},
		{"text quoted", Query{Text: `Brilliant endg* NEAR "x" OR`}, nil,
			" WHERE g.id IN (SELECT docid & 34359738367 FROM game_text WHERE game_text MATCH ? AND lang IN (?,?,?,?))",
			[]any{`"brilliant" "endg*" "near" "x" "or"`, 1, 2, 3, 4}},
		{"position", Query{Position: "  " + after[0].Code()}, nil,
			" WHERE g.id IN (SELECT value FROM json_each(?))", []any{"[]"}},
		{"moves in the kinds where they are legal", Query{Moves: " L@c3   M@b2 "}, []kind{pike, sickle, {game: "Chess", seats: 2}},
			" WHERE ((g.game = ? AND g.seats = ? AND g.board = ? AND g.target = ? AND g.setup IS NULL" +
				" AND g.id IN (SELECT value FROM json_each(?))))",
			[]any{sickle.game, sickle.seats, sickle.board, sickle.target, "[]"}},
		{"moves in two kinds", Query{Moves: "L@c3"}, []kind{sickle, sickle},
			" WHERE ((g.game = ? AND g.seats = ? AND g.board = ? AND g.target = ? AND g.setup IS NULL AND g.id IN (SELECT value FROM json_each(?)))" +
				" OR (g.game = ? AND g.seats = ? AND g.board = ? AND g.target = ? AND g.setup IS NULL AND g.id IN (SELECT value FROM json_each(?))))",
			[]any{sickle.game, sickle.seats, sickle.board, sickle.target, "[]",
				sickle.game, sickle.seats, sickle.board, sickle.target, "[]"}},
		{"moves with no kinds stored", Query{Moves: "L@c3"}, nil, " WHERE 0", nil},
		{"moves with only unknown kinds", Query{Moves: "L@c3"}, []kind{{game: "Chess", seats: 2}}, " WHERE 0", nil},
		{"combined, in a fixed order", Query{Game: "IceSickle", Result: "undecided", Player: "ada", Since: "2020", Event: "open", Text: "x", Plies: &Range{1, -1}}, nil,
			" WHERE g.game = ? AND g.winner IS NULL AND " + seatsIn + " WHERE 1 AND sp.player_id IN " + playerIDs + ")" +
				" AND " + dateKey + " >= ? AND " + eventIn + " AND g.plies >= ?" +
				" AND g.id IN (SELECT docid & 34359738367 FROM game_text WHERE game_text MATCH ? AND lang = ?)",
			[]any{"IceSickle", "ada", "ada", "2020", "%open%", 1, `"x"`, 1}},
		{"hostile values stay arguments", Query{Event: "'; DROP TABLE games; --", Player: "x' OR '1'='1"}, nil,
			" WHERE " + seatsIn + " WHERE 1 AND sp.player_id IN " + playerIDs + ") AND " + eventIn,
			[]any{"x' or '1'='1", "x' or '1'='1", "%'; DROP TABLE games; --%"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := buildQuery(c.q, c.kinds, firstLanguages)
			if err != nil {
				t.Fatal(err)
			}
			if got := b.where(); got != c.where {
				t.Errorf("where\n got %s\nwant %s", got, c.where)
			}
			if !reflect.DeepEqual(b.args, c.args) {
				t.Errorf("args\n got %#v\nwant %#v", b.args, c.args)
			}
			if n := strings.Count(b.where(), "?") - strings.Count(b.where(), "'?'"); n != len(b.args) {
				t.Errorf("%d placeholders, %d arguments", n, len(b.args))
			}
		})
	}
}

func TestSelectAndCountSQL(t *testing.T) {
	b, err := buildQuery(Query{Game: "IceSickle"}, nil, firstLanguages)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		limit, offset int
		clause        string
		largs         []any
	}{
		{0, 0, "", nil},
		{20, 0, " LIMIT ? OFFSET ?", []any{20, 0}},
		{0, 5, " LIMIT ? OFFSET ?", []any{-1, 5}},
		{1, 1, " LIMIT ? OFFSET ?", []any{1, 1}},
	}
	for _, c := range cases {
		want := append([]any{"IceSickle"}, c.largs...)
		text, args := selectSQL("g.id", b, c.limit, c.offset)
		if text != "SELECT g.id FROM games g WHERE g.game = ? ORDER BY g.id"+c.clause || !reflect.DeepEqual(args, want) {
			t.Errorf("select, limit %d offset %d: %s %v", c.limit, c.offset, text, args)
		}
		text, args = countSQL(b, c.limit, c.offset)
		if text != "SELECT count(*) FROM (SELECT 1 FROM games g WHERE g.game = ?"+c.clause+")" || !reflect.DeepEqual(args, want) {
			t.Errorf("count, limit %d offset %d: %s %v", c.limit, c.offset, text, args)
		}
	}
	if len(b.args) != 1 {
		t.Errorf("building a statement changed the conditions' arguments: %v", b.args)
	}
	if empty := (&builder{}); empty.where() != "" || empty.and() != "" {
		t.Error("no conditions should make no WHERE")
	}
}

// flagName is what a command-line flag looks like in a message: the
// archive's errors speak of the Query, whatever program shows them.
var flagName = regexp.MustCompile(`(^|[\s(])-[a-z]`)

func TestBuildErrors(t *testing.T) {
	sickle, _ := startKind(t, "IceSickle")
	pike, pikeStart := startKind(t, "Pikemen")
	huge := strings.Repeat("x", maxFilter+1)
	cases := []struct {
		name  string
		q     Query
		kinds []kind
		msg   string
	}{
		{"unknown game", Query{Game: "chess'--"}, nil, "unknown game"},
		{"player without a name", Query{Player: "  <a@example.org>"}, nil, "a player search needs a name"},
		{"opponent without a name", Query{Opponent: " "}, nil, "an opponent search needs a name"},
		{"seat too high", Query{Seat: maxSeats + 1}, nil, "seat 5: seats go from 1 to 4"},
		{"seat 8", Query{Player: "a", Seat: 8}, nil, "seat 8: seats go from 1 to 4"},
		{"negative seat", Query{Seat: -1}, nil, "seat -1: seats go from 1 to 4"},
		{"result without whom", Query{Result: "win"}, nil, "a result (win) needs a player or a seat: whose result?"},
		{"bad result", Query{Player: "a", Result: "1=1"}, nil, "use win, loss, draw"},
		{"bad since", Query{Since: "2020'; --"}, nil, "write YYYY"},
		{"bad until", Query{Until: "2020.1.1"}, nil, "write YYYY"},
		{"no month 13", Query{Since: "2021.13.45"}, nil, "there is no month 13"},
		{"no month 0", Query{Until: "2021-00"}, nil, "there is no month 0"},
		{"no 30 February", Query{Since: "2021.02.30"}, nil, "2021.02 has days 01 to 28"},
		{"no day 0", Query{Until: "2024.02.00"}, nil, "2024.02 has days 01 to 29"},
		{"bad tag name", Query{Tags: []TagFilter{{"x' OR 1", "y"}}}, nil, "tag name"},
		{"bad tag value", Query{Tags: []TagFilter{{"Event", "\xff"}}}, nil, "not UTF-8"},
		{"bad target", Query{Tags: []TagFilter{{"Target", "ten"}}}, nil, "a whole number"},
		{"too many tags", Query{Tags: make([]TagFilter, 65)}, nil, "at most 64 tag filters"},
		{"no words", Query{Text: "'; --"}, nil, "give words"},
		{"too many words", Query{Text: strings.Repeat("w ", 33)}, nil, "at most 32 words"},
		{"position of no game", Query{Position: "Chess rnbqkbnr"}, nil, "starts with the game's name"},
		{"bad position", Query{Position: "IceSickle '; DROP TABLE games"}, nil, "position"},
		{"position of another game", Query{Game: "IceSickle", Position: pikeStart.Code()}, nil, "the position is of Pikemen, but the search is for IceSickle games"},
		{"no move tokens", Query{Moves: " \t"}, nil, "a search by moves needs move tokens"},
		{"too many moves", Query{Moves: strings.Repeat("L@c3 ", maxMoves+1)}, nil, "moves: at most 200 moves"},
		{"moves legal in no kind", Query{Moves: "Z@z9"}, []kind{sickle, pike}, "moves: IceSickle move 1"},
		{"huge value", Query{Event: huge}, nil, "bytes long"},
		{"invalid utf-8", Query{Player: "al\xffice"}, nil, "not valid UTF-8"},
		{"negative limit", Query{Limit: -1}, nil, "limit and offset are 0 or more"},
		{"negative offset", Query{Offset: -1}, nil, "limit and offset are 0 or more"},
		// Checks come in order: the value bounds first, then the fields.
		{"first error wins", Query{Game: "chess", Result: "win", Since: "x"}, nil, "unknown game"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := buildQuery(c.q, c.kinds, firstLanguages)
			if !errors.Is(err, ErrQuery) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("err = %v, want ErrQuery saying %q", err, c.msg)
			}
			if flagName.MatchString(err.Error()) {
				t.Errorf("%q names a command-line flag", err)
			}
		})
	}
	// Every seat a game has is accepted.
	for seat := 1; seat <= maxSeats; seat++ {
		if _, err := buildQuery(Query{Seat: seat}, nil, firstLanguages); err != nil {
			t.Errorf("seat %d: %v", seat, err)
		}
	}
}
