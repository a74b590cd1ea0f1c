package pikemen

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"icepost/rules"
)

// midGame is a 2-seat position after 40 random moves, with many pieces
// lying down.
const midGame = "Pikemen 2 12 L2SWL2UL2SEM2U4/L2NEM2UM2NW4S2U/L2SM2SS2SW5/M2US2NW2S2SW2S1W/3S1N3M1W/5S1UM1SL1SE/2S2SW1S1UM1WM1WL1NE/3S1WM1UL1NWL1UL1U 0:0 1"

// TestSetups checks each start against RULES.md's lists, written out again
// here, and against the symmetry the seats' corners have.
func TestSetups(t *testing.T) {
	lists := map[int][]string{ // per seat: "L ... ; M ... ; S ..."
		2: {"h1 g1 f1 h2 h3; e1 g2 f2 g3 h4; d1 e2 f3 g4 h5", "a8 b8 c8 a7 a6; d8 b7 c7 b6 a5; e8 d7 c6 b5 a4"},
		3: {"a1 b1 a2 b2; c1 c2 a3 b3; d1 d2 c3 d3", "a8 b8 a7 b7; c8 c7 a6 b6; d8 d7 c6 d6", "g4 h4 g5 h5; g3 h3 g6 h6; f3 f4 f5 f6"},
		4: {"a1 b1 a2; c1 b2 a3; c2 b3 c3", "a8 b8 a7; c8 b7 a6; c7 b6 c6", "h8 g8 h7; f8 g7 h6; f7 g6 f6", "h1 g1 h2; f1 g2 h3; f2 g3 f3"},
	}
	mirror := map[int]map[int]func(int) int{ // seat -> square of seat 1's matching piece
		2: {2: func(sq int) int { return 63 - sq }},
		3: {2: func(sq int) int { return (7-sq/8)*8 + sq%8 }},
		4: {
			2: func(sq int) int { return (7-sq/8)*8 + sq%8 },
			3: func(sq int) int { return 63 - sq },
			4: func(sq int) int { return sq/8*8 + 7 - sq%8 },
		},
	}
	for seats, perSeat := range lists {
		t.Run(fmt.Sprintf("%d seats", seats), func(t *testing.T) {
			p, err := StartPosition(rules.Options{Seats: seats})
			if err != nil {
				t.Fatal(err)
			}
			want := map[int][2]int{}
			for i, s := range perSeat {
				for j, group := range strings.Split(s, ";") {
					for _, name := range strings.Fields(group) {
						sq, _ := parseSquare(name)
						want[sq] = [2]int{i + 1, rules.Large - j}
					}
				}
			}
			if len(want) != seats*(21-3*seats)+0 && len(want) != 15*seats/seats*seats {
				t.Logf("%d pieces", len(want))
			}
			for sq := range 64 {
				owner, size, o := p.pieceAt(sq)
				if w, ok := want[sq]; ok != (owner != 0) || ok && (w != [2]int{owner, size} || o != U) {
					t.Errorf("%s: seat %d size %d %v, want %v", squareName(sq), owner, size, o, w)
				}
			}
			for seat, f := range mirror[seats] {
				for sq := range 64 {
					o1, s1, _ := p.pieceAt(sq)
					o2, s2, _ := p.pieceAt(f(sq))
					if (o1 == 1) != (o2 == seat) || o1 == 1 && s1 != s2 {
						t.Errorf("seat %d's %s does not mirror seat 1's %s", seat, squareName(f(sq)), squareName(sq))
					}
				}
			}
			if p.ToMove() != 1 || p.Outcome().Over || !slices.Equal(p.Scores(), make([]int, seats)) {
				t.Errorf("start: to move %d, %v, scores %v", p.ToMove(), p.Outcome(), p.Scores())
			}
		})
	}
}

// TestTurns plays moves from hand-made positions and checks whose turn it
// is, the scores and the end.
func TestTurns(t *testing.T) {
	for _, c := range []struct {
		name   string
		code   string
		moves  string
		toMove int // after the moves; 0 when over
		scores []int
		winner int
	}{
		{"2 seats alternate", "Pikemen 2 12 " + board("a1 S1U, h8 S2U") + " 0:0 1", "a1:N h8:S a1-a4", 2, []int{0, 0}, 0},
		{"3 seats clockwise", "Pikemen 3 12 " + board("a1 S1U, a8 S2U, h4 S3U") + " 0:0:0 1", "a1:N a8:S h4:W", 1, []int{0, 0, 0}, 0},
		{"4 seats clockwise", "Pikemen 4 12 " + board("a1 S1U, a8 S2U, h8 S3U, h1 S4U") + " 0:0:0:0 1", "a1:N a8:S h8:W h1:NW", 1, []int{0, 0, 0, 0}, 0},
		{"4 seats skip a seat with no pieces", "Pikemen 4 12 " + board("a1 S1U, h8 S3U, h1 S4U") + " 0:0:0:0 1", "a1:N", 3, []int{0, 0, 0, 0}, 0},
		{"4 seats skip two", "Pikemen 4 12 " + board("a1 S1U, h1 S4U") + " 0:0:0:0 4", "h1:N", 1, []int{0, 0, 0, 0}, 0},
		{"capture scores the pips", "Pikemen 2 12 " + board("a1 S1N, a5 L2E, h8 S2U") + " 0:0 1", "a1xa5", 2, []int{3, 0}, 0},
		{"capture of an upright smaller", "Pikemen 2 12 " + board("a1 M1N, a5 S2U, h8 S2U") + " 0:0 1", "a1xa5:U", 2, []int{1, 0}, 0},
		{"last piece of a seat: skipped from then on", "Pikemen 4 12 " + board("a1 S1N, a5 M2E, h8 S3U, h1 S4U") + " 0:0:0:0 1", "a1xa5", 3, []int{2, 0, 0, 0}, 0},
		{"target reached", "Pikemen 2 12 " + board("a1 S1N, a5 S2E, h8 S2U") + " 11:0 1", "a1xa5", 0, []int{12, 0}, 1},
		{"target passed", "Pikemen 2 12 " + board("a1 S1N, a5 L2E, h8 S2U") + " 11:0 1", "a1xa5", 0, []int{14, 0}, 1},
		{"target 15 not yet", "Pikemen 2 15 " + board("a1 S1N, a5 S2E, h8 S2U") + " 11:0 1", "a1xa5", 2, []int{12, 0}, 0},
		{"target 15 reached", "Pikemen 2 15 " + board("a1 S1N, a5 L2E, h8 S2U") + " 12:0 1", "a1xa5", 0, []int{15, 0}, 1},
		{"the target wins even when others have pieces", "Pikemen 3 12 " + board("a1 S1N, a5 S2E, h8 S2U, h1 S3U") + " 11:0:0 1", "a1xa5", 0, []int{12, 0, 0}, 1},
		{"last opponent gone: higher score wins", "Pikemen 2 12 " + board("a1 S1N, a5 S2E") + " 4:2 1", "a1xa5", 0, []int{5, 2}, 1},
		{"last opponent gone: the other seat leads", "Pikemen 2 12 " + board("a1 S1N, a5 S2E") + " 5:8 1", "a1xa5", 0, []int{6, 8}, 2},
		{"last opponent gone: equal scores draw", "Pikemen 2 12 " + board("a1 S1N, a5 S2E") + " 7:8 1", "a1xa5", 0, []int{8, 8}, 0},
		{"3 seats: one left, leader elsewhere", "Pikemen 3 12 " + board("a1 S1N, a5 S3E") + " 1:9:2 1", "a1xa5", 0, []int{2, 9, 2}, 2},
		{"3 seats: one left, tie for the lead", "Pikemen 3 40 " + board("a1 S1N, a5 S3E") + " 8:9:2 1", "a1xa5", 0, []int{9, 9, 2}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s rules.State = pos(t, c.code)
			for _, tok := range strings.Fields(c.moves) {
				var err error
				if s, _, err = rules.Play(s, tok); err != nil {
					t.Fatalf("%s: %v", tok, err)
				}
			}
			out := s.Outcome()
			if s.ToMove() != c.toMove || !slices.Equal(s.Scores(), c.scores) || out.Over != (c.toMove == 0) || out.Winner != c.winner {
				t.Errorf("to move %d, scores %v, %v; want %d, %v, winner %d", s.ToMove(), s.Scores(), out, c.toMove, c.scores, c.winner)
			}
			if out.Over && len(s.Moves(nil)) != 0 {
				t.Errorf("moves after the end")
			}
		})
	}
}

func TestOptions(t *testing.T) {
	for _, c := range []struct {
		o    rules.Options
		want rules.Options // zero: an ErrOptions error
	}{
		{rules.Options{}, rules.Options{Seats: 2, Target: 12}},
		{rules.Options{Seats: 3, Target: 15}, rules.Options{Seats: 3, Target: 15}},
		{rules.Options{Seats: 4}, rules.Options{Seats: 4, Target: 12}},
		{rules.Options{Seats: 1}, rules.Options{}},
		{rules.Options{Seats: 5}, rules.Options{}},
		{rules.Options{Board: "hex"}, rules.Options{}},
		{rules.Options{Target: -1}, rules.Options{}},
		{rules.Options{Target: 256}, rules.Options{}},
	} {
		t.Run(fmt.Sprintf("%+v", c.o), func(t *testing.T) {
			s, err := Game.Start(c.o)
			if c.want == (rules.Options{}) {
				if !errors.Is(err, rules.ErrOptions) {
					t.Errorf("Start = %v, want an ErrOptions error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Options() != c.want {
				t.Errorf("Options() = %+v, want %+v", s.Options(), c.want)
			}
		})
	}
}

func TestParsePositionErrors(t *testing.T) {
	ok := board("a1 S1U, h8 S2U")
	for _, c := range []struct{ code, want string }{
		{"", "starts with \"Pikemen\""},
		{"IceSickle 2 12 " + ok + " 0:0 1", "starts with \"Pikemen\""},
		{"Pikemen 2 12 " + ok + " 0:0", "want 6 fields"},
		{"Pikemen 5 12 " + ok + " 0:0 1", "seats \"5\""},
		{"Pikemen 2 0 " + ok + " 0:0 1", "target \"0\""},
		{"Pikemen 2 12 8/8 0:0 1", "want 8 ranks"},
		{"Pikemen 2 12 54/8/8/8/8/8/8/8 0:0 1", "more than 8 squares"},
		{"Pikemen 2 12 7/8/8/8/8/8/8/8 0:0 1", "has 7 squares"},
		{"Pikemen 2 12 S1N8/8/8/8/8/8/8/S2U7 0:0 1", "more than 8 squares"},
		{"Pikemen 2 12 X1N7/8/8/8/8/8/8/S2U7 0:0 1", "want a size letter"},
		{"Pikemen 2 12 S3N7/8/8/8/8/8/8/S2U7 0:0 1", "seat \"3\" is not 1..2"},
		{"Pikemen 2 12 S1X7/8/8/8/8/8/8/S2U7 0:0 1", "\"X\" is not an orientation"},
		{"Pikemen 2 12 S1n7/8/8/8/8/8/8/S2U7 0:0 1", "\"n\" is not an orientation"},
		{"Pikemen 4 12 L1UL1UL1UL1U4/8/8/8/8/8/8/S2U7 0:0:0:0 1", "seat 1 has more than 3 large pieces"},
		{"Pikemen 2 12 " + ok + " 0:0:0 1", "want 2 numbers"},
		{"Pikemen 2 12 " + ok + " 0:x 1", "score \"x\" of seat 2"},
		{"Pikemen 2 12 " + ok + " 12:13 -", "both have reached the target"},
		{"Pikemen 2 12 8/8/8/8/8/8/8/8 0:0 1", "no pieces on the board"},
		{"Pikemen 2 12 " + ok + " 12:0 1", "the game is over here"},
		{"Pikemen 2 12 " + board("a1 S1U") + " 0:0 1", "the game is over here"},
		{"Pikemen 2 12 " + ok + " 0:0 -", "to move \"-\""},
		{"Pikemen 2 12 " + ok + " 0:0 3", "to move \"3\""},
		{"Pikemen 3 12 " + ok + " 0:0:0 3", "seat 3 is to move but has no pieces"},
	} {
		t.Run(c.want, func(t *testing.T) {
			_, err := Game.ParsePosition(c.code)
			if !errors.Is(err, rules.ErrPosition) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("ParsePosition(%q) = %v, want an ErrPosition error saying %q", c.code, err, c.want)
			}
		})
	}
}

func TestBoardViews(t *testing.T) {
	p := pos(t, midGame)
	lines := func(s string) []string { return strings.Split(s, "\n") }
	b0, b1, b2 := p.Board(0), p.Board(1), p.Board(2)
	if b0 != b1 {
		t.Errorf("viewer 0 and 1 differ")
	}
	if got := lines(b0)[2]; got != " 8 | 2L SW 2L U  2L SE 2M U    .     .     .     .   | 8" {
		t.Errorf("viewer 1's top rank:\n%s", got)
	}
	if got := lines(b2)[2]; got != " 1 | 1L U  1L U  1L NW 1M U  1S W    .     .     .   | 1" {
		t.Errorf("viewer 2's top rank:\n%s", got)
	}
	if !strings.Contains(b2, "N points down the page (to rank 8),\nS up, E to the left") || !strings.HasPrefix(strings.TrimSpace(b2), "h     g") {
		t.Errorf("viewer 2's board:\n%s", b2)
	}
	if strings.Contains(b0, "cannot move") || !strings.Contains(b0, "N points up the page") {
		t.Errorf("viewer 1's legend:\n%s", b0)
	}
	for _, l := range lines(b0)[1:11] {
		if c := l[3]; len(l) < 54 || c != l[53] || c != '|' && c != '+' {
			t.Errorf("line %q does not line up with the frame", l)
		}
	}
	four, _ := StartPosition(rules.Options{Seats: 4})
	if four.Board(3) != four.Board(0) {
		t.Errorf("4 seats: viewer 3 sees a different board")
	}
	over := pos(t, "Pikemen 4 12 "+board("a1 S1U")+" 13:0:0:0 -")
	if b := over.Board(0); !strings.HasSuffix(b, "Seat 2 has no pieces left.\nSeat 3 has no pieces left.\nSeat 4 has no pieces left.\nGame over: seat 1 wins\n") {
		t.Errorf("board at the end:\n%s", b)
	}
}

// TestMoveOrder checks the documented order of Moves: square by square,
// reorients first, then charges nearest first, orientations N..U.
func TestMoveOrder(t *testing.T) {
	p := pos(t, "Pikemen 2 12 "+board("a1 S1N, h1 S1U, a3 M2U")+" 0:0 1")
	var toks []string
	for _, m := range p.Moves(nil) {
		toks = append(toks, p.FormatMove(m))
	}
	want := "a1:NE a1:E a1:SE a1:S a1:SW a1:W a1:NW a1:U " +
		"a1-a2 a1-a2:NE a1-a2:E a1-a2:SE a1-a2:S a1-a2:SW a1-a2:W a1-a2:NW a1-a2:U " +
		"h1:N h1:NE h1:E h1:SE h1:S h1:SW h1:W h1:NW"
	if got := strings.Join(toks, " "); got != want {
		t.Errorf("moves:\n%s\nwant\n%s", got, want)
	}
}

// TestPlayRejects checks that Play refuses moves that are not legal, even
// when they are close to legal ones.
func TestPlayRejects(t *testing.T) {
	p := pos(t, midGame)
	legal := map[rules.Move]bool{}
	for _, m := range p.Moves(nil) {
		legal[m] = true
	}
	n := 0
	for kind := uint8(0); kind <= 4; kind++ {
		for from := range 64 {
			for to := range 65 {
				for arg := uint8(0); arg <= 9; arg++ {
					m := rules.Move{Kind: kind, Arg: arg, N: 2}
					m.Path[0], m.Path[1] = uint8(from), uint8(to)
					if to == 64 {
						m.N, m.Path[1] = 1, 0
					}
					_, err := p.Play(m)
					if (err == nil) != legal[m] {
						t.Fatalf("Play(%+v) = %v, legal %v", m, err, legal[m])
					}
					if err == nil {
						n++
					} else if !errors.Is(err, rules.ErrIllegal) {
						t.Fatalf("Play: %v is not an ErrIllegal", err)
					}
				}
			}
		}
	}
	if n != len(legal) {
		t.Errorf("%d moves played, %d legal", n, len(legal))
	}
}

func BenchmarkPerft(b *testing.B) {
	start, _ := StartPosition(rules.Options{})
	mid := pos(&testing.T{}, midGame)
	for _, c := range []struct {
		name  string
		p     Position
		depth int
	}{{"start", start, 3}, {"midgame", mid, 3}} {
		b.Run(c.name, func(b *testing.B) {
			var nodes uint64
			for b.Loop() {
				nodes += c.p.Perft(c.depth)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

// FuzzParseMove: any token is either refused with a MoveError or names a
// legal move whose canonical token reads back to it.
func FuzzParseMove(f *testing.F) {
	for _, tok := range []string{"h1:NW", "g4-f5", "g4xe6:S", "g4-e6(U)", "a1", "h3xc8", "g4-g4", "c6:U", "x", ""} {
		f.Add(tok)
	}
	p := pos(&testing.T{}, midGame)
	f.Fuzz(func(t *testing.T, tok string) {
		m, err := p.ParseMove(tok)
		if err != nil {
			var me *rules.MoveError
			if !errors.As(err, &me) || !(errors.Is(err, rules.ErrSyntax) || errors.Is(err, rules.ErrIllegal)) {
				t.Fatalf("ParseMove(%q) = %v, not a MoveError", tok, err)
			}
			return
		}
		if !p.legal(m) {
			t.Fatalf("ParseMove(%q) gave an illegal move %+v", tok, m)
		}
		back, err := p.ParseMove(p.FormatMove(m))
		if err != nil || back != m {
			t.Fatalf("%q -> %q -> %v, %v", tok, p.FormatMove(m), back, err)
		}
	})
}

// FuzzParsePosition: any code is either refused with ErrPosition or reads
// to a position whose own code reads back to the same position.
func FuzzParsePosition(f *testing.F) {
	f.Add(midGame)
	f.Add("Pikemen 4 12 " + board("a1 S1U, h1 S4U") + " 0:0:0:0 4")
	f.Add("Pikemen 2 12 " + board("a1 S1U") + " 13:0 -")
	f.Fuzz(func(t *testing.T, code string) {
		p, err := ParsePosition(code)
		if err != nil {
			if !errors.Is(err, rules.ErrPosition) {
				t.Fatalf("ParsePosition(%q) = %v, not an ErrPosition", code, err)
			}
			return
		}
		back, err := ParsePosition(p.Code())
		if err != nil || back != p {
			t.Fatalf("%q -> %q -> %v", code, p.Code(), err)
		}
	})
}
