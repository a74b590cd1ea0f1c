package icefrogs_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"icepost/rules"
	"icepost/rules/icefrogs"
	"icepost/rules/rulestest"
)

// The perft counts from the start, by hand. Nothing interacts in the
// first two plies: each player enters one of 3 sizes and steps to one of
// the start space's empty neighbours (the star's tips have 2, the
// hexagon's corners 3), so depth 1 is 6 (star) or 9 (hex) and depth 2 its
// square.
//
// Depth 3, 2 seats: seat 1's piece of size s sits next to a1. Its own
// moves are steps to its empty neighbours other than a1 (star: b1 and b2
// have 3 each; hex: a2 and b1 have 3, b2 has 5). Each of the 3 entry
// sizes e steps to a1's other empty neighbours (star 1, hex 2), steps
// onto the piece if e <= s, hops over it to the empty cell beyond if
// s <= e, and if e == s steps back onto it after that hop. Summed over
// e that is 2*3 + ... = 3 + 3 + 2 (star: 8 per piece), 11 (hex). So
//
//	star: 36 * (3 + 8)                         = 396
//	hex:  9 * 3 sizes * ((3+11) + (3+11) + (5+11)) = 1188
//
// Depth 3, 3 seats: the third seat's start is far from both pieces, so it
// has 6 (star) or 9 (hex) moves again: 6^3 = 216 and 9^3 = 729. The
// reference model in reference_test.go agrees, also at depth 4.
func TestConformance(t *testing.T) {
	// Random games end quickly (a few hundred plies at most in thousands
	// tried), although nothing in the rules forces an end.
	rulestest.Run(t, icefrogs.Game,
		rulestest.Case{Name: "star 2 seats", Options: rules.Options{}, Perft: []uint64{6, 36, 396}, MaxPlies: 20000},
		rulestest.Case{Name: "star 3 seats", Options: rules.Options{Seats: 3}, Perft: []uint64{6, 36, 216}, MaxPlies: 20000},
		rulestest.Case{Name: "hex 2 seats", Options: rules.Options{Board: "hex"}, Perft: []uint64{9, 81, 1188}, MaxPlies: 20000},
		rulestest.Case{Name: "hex 3 seats", Options: rules.Options{Board: "hex", Seats: 3}, Perft: []uint64{9, 81, 729}, MaxPlies: 20000},
	)
}

func TestPerftDeeper(t *testing.T) {
	// Checked against the reference model (TestReferencePerft, depth 5
	// unless -short).
	want := map[string][]uint64{
		"star 2 seats": {4356, 56892},
		"star 3 seats": {2376, 26136},
		"hex 2 seats":  {17424, 306932},
		"hex 3 seats":  {10692, 156816},
	}
	for _, c := range refCases {
		p, err := icefrogs.Start(c.o)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range want[c.name] {
			if got := p.Perft(4 + i); got != w {
				t.Errorf("%s: perft(%d) = %d, want %d", c.name, 4+i, got, w)
			}
		}
	}
}

var rowLens = map[string][]int{
	"star": {1, 2, 7, 6, 5, 6, 7, 2, 1},
	"hex":  {4, 5, 6, 7, 6, 5, 4},
}

// setup builds a position from a list of cells and stacks ("c3=1M
// e4=2M1L", stacks top first) with every piece not on the board in its
// owner's supply.
func setup(t *testing.T, o rules.Options, toMove, cells string) icefrogs.Position {
	t.Helper()
	board := o.Board
	if board == "" {
		board = "star"
	}
	seats := max(o.Seats, 2)
	stacks := map[string]string{}
	var used [4][4]int
	for _, f := range strings.Fields(cells) {
		name, stack, _ := strings.Cut(f, "=")
		stacks[name] = stack
		for i := 0; i < len(stack); i += 2 {
			size, _ := rules.ParseSize(stack[i+1])
			used[stack[i]-'0'][size]++
		}
	}
	var rows []string
	for r, n := range rowLens[board] {
		var b strings.Builder
		for i := range n {
			switch s := stacks[fmt.Sprintf("%c%d", 'a'+r, i+1)]; len(s) {
			case 0:
				b.WriteByte('.')
			case 2:
				b.WriteString(s)
			default:
				b.WriteString("(" + s + ")")
			}
		}
		rows = append(rows, b.String())
	}
	var sup []string
	for s := 1; s <= seats; s++ {
		sup = append(sup, fmt.Sprintf("%d%d%d", 5-used[s][1], 5-used[s][2], 5-used[s][3]))
	}
	code := fmt.Sprintf("IceFrogs %s %d %s %s %s", board, seats, strings.Join(rows, "/"), strings.Join(sup, "/"), toMove)
	p, err := icefrogs.ParsePosition(code)
	if err != nil {
		t.Fatalf("%s: %v", code, err)
	}
	if p.Code() != code {
		t.Fatalf("Code() = %q, want %q", p.Code(), code)
	}
	return p
}

// movesWith returns the sorted legal tokens that start with prefix.
func movesWith(p icefrogs.Position, prefix string) []string {
	var out []string
	for _, tok := range tokensOf(p) {
		if strings.HasPrefix(tok, prefix) {
			out = append(out, tok)
		}
	}
	return out
}

func TestMoves(t *testing.T) {
	tests := []struct {
		name, cells, prefix string
		o                   rules.Options
		want                []string
	}{
		{
			// Seat 1's medium on e3 steps to the empty e2 and f4, onto the
			// medium on d3 (same size), the large on d4 and the stack on
			// f3 topped by a large, but not onto the small on e4. It hops
			// over the small on e4 to e5 (no way on: back over e4 is its
			// start, and a step after a hop must go onto a piece the same
			// size or larger) and over the medium on d3 to c3, from where
			// it may step back onto d3. It cannot hop over the large on
			// d4 or the stack topped by a large on f3, nor over the empty
			// e2 or f4.
			name:   "step and hop sizes",
			cells:  "e3=1M e4=2S d3=2M d4=1L f3=2L1S",
			prefix: "e3-",
			want:   []string{"e3-c3", "e3-c3-d3", "e3-d3", "e3-d4", "e3-e2", "e3-e5", "e3-f3", "e3-f4"},
		},
		{
			// NOTATION.md's examples: the medium on c3 hops over the small
			// on d3 to e3, and may stop there, step onto the stack on e4
			// (topped by a medium), or hop on over it to e5 and stop or
			// step back onto e4. It may not step onto the small on d3.
			name:   "hop chain with stops and a final step onto a stack",
			cells:  "c3=1M d3=2S e4=2M1L",
			prefix: "c3-",
			want:   []string{"c3-b1", "c3-c2", "c3-c4", "c3-d2", "c3-e3", "c3-e3-e4", "c3-e3-e5", "c3-e3-e5-e4"},
		},
		{
			// Landing on the large on e3 ends the chain (the small on e4
			// beyond is not hopped); the small on c5 cannot be landed on
			// by a medium, so the hop over c4 is out; the large on c2 is
			// too big to hop over but can be stepped onto.
			name:   "landing on a piece ends the move",
			cells:  "c3=1M d3=2S e3=2L e4=2S c4=2S c5=1S c2=2L",
			prefix: "c3-",
			want:   []string{"c3-b1", "c3-c2", "c3-d2", "c3-e3"},
		},
		{
			// The large on c2 hops over c3 to c4, then over c5 to c6 or over
			// d4 to e4, and between c6 and e4 over d5 in either order; every
			// way back lands on a cell already landed on.
			name:   "no cell landed on twice",
			cells:  "c2=1L c3=2S c5=2S d4=2S d5=2S",
			prefix: "c2-",
			want:   []string{"c2-c1", "c2-c4", "c2-c4-c6", "c2-c4-c6-e4", "c2-c4-e4", "c2-c4-e4-c6", "c2-d1", "c2-d2"},
		},
		{
			// Seat 1's large under seat 2's small on d3 cannot move: seat 1
			// can only enter, stepping to b1 or b2 with any size.
			name:   "trapped under a stack",
			cells:  "d3=2S1L",
			prefix: "",
			want:   []string{"L@a1-b1", "L@a1-b2", "M@a1-b1", "M@a1-b2", "S@a1-b1", "S@a1-b2"},
		},
		{
			// NOTATION.md's L@a1-c3-c5: entering pieces hop over the small
			// on b1 to c3, and the small and the medium go on from there as
			// any piece: steps back onto b1 (small only) or onto c4 (small
			// and medium), a hop over the medium on c4 (medium and large)
			// and then a step back onto it (medium).
			name:   "entering",
			cells:  "b1=2S c4=2M",
			prefix: "",
			want: []string{
				"L@a1-b2", "L@a1-c3", "L@a1-c3-c5",
				"M@a1-b2", "M@a1-c3", "M@a1-c3-c4", "M@a1-c3-c5", "M@a1-c3-c5-c4",
				"S@a1-b1", "S@a1-b2", "S@a1-c3", "S@a1-c3-b1", "S@a1-c3-c4",
			},
		},
		{
			// Seat 2's small on g3 steps to its empty neighbours and onto
			// the small on h1. It may pass through its own start i1 (over
			// h1) but not stop there: from i1 it hops on over h2 to g5
			// (and may step back onto h2) or steps onto h1 or h2.
			name:   "through the own start space",
			cells:  "g3=2S h1=1S h2=1S",
			prefix: "g3-",
			want:   []string{"g3-f2", "g3-f3", "g3-g2", "g3-g4", "g3-h1", "g3-i1-g5", "g3-i1-g5-h2", "g3-i1-h1", "g3-i1-h2"},
		},
		{
			// On the hexagon seat 2 (start g4) enters a medium: it steps
			// to g3 and f5 but not onto the small on f4, hops over f4 to
			// e4, then over the stack on d4 (topped by a medium) to c3,
			// and may step onto that stack from e4 or c3.
			name:   "hex board entering",
			o:      rules.Options{Board: "hex"},
			cells:  "f4=1S d4=1M2L",
			prefix: "M@",
			want:   []string{"M@g4-e4", "M@g4-e4-c3", "M@g4-e4-c3-d4", "M@g4-e4-d4", "M@g4-f5", "M@g4-g3"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toMove := "1"
			if strings.HasPrefix(tt.name, "through") || strings.HasPrefix(tt.name, "hex") {
				toMove = "2"
			}
			p := setup(t, tt.o, toMove, tt.cells)
			if got := movesWith(p, tt.prefix); !slices.Equal(got, tt.want) {
				t.Errorf("moves %q...:\n got %q\nwant %q", tt.prefix, got, tt.want)
			}
		})
	}
}

func TestParseMoveErrors(t *testing.T) {
	// The position of "hop chain with stops": seat 1's medium on c3, seat
	// 2's small on d3, seat 2's medium on seat 1's large on e4.
	const cells = "c3=1M d3=2S e4=2M1L"
	tests := []struct {
		tok  string
		kind error
		want string // the reason, or a part of it
	}{
		{"c3", rules.ErrSyntax, "a move names the cell it starts from"},
		{"c3-", rules.ErrSyntax, "joined by single '-'"},
		{"c3--e3", rules.ErrSyntax, "joined by single '-'"},
		{"j1-c3", rules.ErrSyntax, `"j1" is not a cell of the star board`},
		{"c8-c7", rules.ErrSyntax, `"c8" is not a cell`},
		{"c3xe3", rules.ErrSyntax, `"c3xe3" is not a cell`},
		{"Q@a1-b1", rules.ErrSyntax, "an entry starts with the size S, M or L"},
		{"", rules.ErrSyntax, "no move given"},
		{"b2-c4", rules.ErrIllegal, "there is no piece on b2"},
		{"a1-b1", rules.ErrIllegal, "there is no piece on a1; to enter one from your supply write it like M@a1-..."},
		{"e4-e5", rules.ErrIllegal, "the top piece on e4 is seat 2's: only the top piece of a stack moves, and only by its owner"},
		{"d3-d2", rules.ErrIllegal, "the top piece on d3 is seat 2's"},
		{"c3-d3", rules.ErrIllegal, "the medium cannot step onto the small on d3: a piece lands only on one the same size or larger"},
		{"c3-c4-c5", rules.ErrIllegal, "a step ends the move: nothing may follow c3-c4"},
		{"c3-e3-f3", rules.ErrIllegal, "after a hop a step must go onto a piece, and f3 is empty"},
		{"c3-e3-e5-e4-e3", rules.ErrIllegal, "a step ends the move: nothing may follow e5-e4"},
		{"c3-e3-e4-e5", rules.ErrIllegal, "a step ends the move"},
		{"c3-c5", rules.ErrIllegal, "there is nothing on c4 to hop over"},
		{"c3-e5", rules.ErrIllegal, "c3 to e5 is neither a step to a neighbouring cell nor a hop over one along a line"},
		{"c3-c3", rules.ErrIllegal, "the move may not come back to c3, where it began"},
		{"c3-e3-c3", rules.ErrIllegal, "the move may not come back to c3, where it began"},
		{"M@c3-d3", rules.ErrIllegal, "pieces enter on your start space a1, not c3"},
		{"M@a1", rules.ErrIllegal, "an entering piece moves on at once, like M@a1-b2"},
		{"M@a1-b1-c3", rules.ErrIllegal, "a step ends the move: nothing may follow a1-b1"},
		{"pass", rules.ErrIllegal, "a player may pass only when there is no other legal turn"},
	}
	p := setup(t, rules.Options{}, "1", cells)
	for _, tt := range tests {
		t.Run(tt.tok, func(t *testing.T) {
			_, err := p.ParseMove(tt.tok)
			var me *rules.MoveError
			if !errors.As(err, &me) {
				t.Fatalf("ParseMove(%q) = %v, want a *rules.MoveError", tt.tok, err)
			}
			if !errors.Is(err, tt.kind) || !strings.Contains(me.Reason, tt.want) {
				t.Errorf("ParseMove(%q) = %v (%v), want %v with %q", tt.tok, err, me.Kind, tt.kind, tt.want)
			}
		})
	}
}

// TestPlay plays one token in a position and checks the result: an error
// that names the rule, or the outcome and the player to move after it.
func TestPlay(t *testing.T) {
	tests := []struct {
		name, cells, toMove, tok string
		o                        rules.Options
		err                      string // the reason when the move is refused
		over                     bool
		winner, next             int
	}{
		{
			// Seat 1's medium on g3 hops over seat 2's small on h1 onto
			// seat 2's start i1 and wins.
			name: "win by hop", cells: "g3=1M h1=2S", toMove: "1", tok: "g3-i1",
			over: true, winner: 1,
		},
		{
			// Passing through the opponent's start space wins nothing.
			name: "through the opponent's start", cells: "g3=1M h1=2S h2=2S", toMove: "1", tok: "g3-i1-g5",
			next: 2,
		},
		{
			name: "win by step", cells: "h2=1L", toMove: "1", tok: "h2-i1",
			over: true, winner: 1,
		},
		{
			// Seat 2 may pass through its own start but not stop there.
			name: "end on the own start", cells: "g3=2M h1=1S", toMove: "2", tok: "g3-i1",
			err: "no move may end on your own start space i1",
		},
		{
			// In a 3-seat game seat 1 wins on seat 3's start g7 just as
			// on seat 2's.
			name: "win on any opponent's start", o: rules.Options{Seats: 3}, cells: "g6=1S", toMove: "1", tok: "g6-g7",
			over: true, winner: 1,
		},
		{
			// Seat 3's large hops over seat 1's medium on f1 onto seat
			// 2's start g1.
			name: "win on the hexagon", o: rules.Options{Board: "hex", Seats: 3}, cells: "e1=3L f1=1M", toMove: "3", tok: "e1-g1",
			over: true, winner: 3,
		},
		{
			// Seat 1 has all 15 pieces under seat 2's small on e3 and
			// nothing in the supply: its only move is pass, and then seat
			// 2 moves.
			name: "pass", cells: "e3=2S1S1S1S1S1S1M1M1M1M1M1L1L1L1L1L", toMove: "1", tok: "pass",
			next: 2,
		},
		{
			name: "must pass", cells: "e3=2S1S1S1S1S1S1M1M1M1M1M1L1L1L1L1L", toMove: "1", tok: "e3-e4",
			err: "you have no legal turn and must pass (the top piece on e3 is seat 2's",
		},
		{
			name: "empty supply", cells: "c1=1S c2=1S c3=1S c4=1S c5=1S", toMove: "1", tok: "S@a1-b1",
			err: "you have no small piece left in your supply",
		},
		{
			// After a move, the next seat is to move even if it will have
			// to pass.
			name: "next seat must pass", cells: "e3=1S2S2S2S2S2S2M2M2M2M2M2L2L2L2L2L e5=1M", toMove: "1", tok: "e5-e4",
			next: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := setup(t, tt.o, tt.toMove, tt.cells)
			code := p.Code()
			s, _, err := rules.Play(p, tt.tok)
			if p.Code() != code {
				t.Fatalf("playing changed the position it was called on")
			}
			if tt.err != "" {
				if !errors.Is(err, rules.ErrIllegal) || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("Play(%s) = %v, want an illegal move error with %q", tt.tok, err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Play(%s): %v", tt.tok, err)
			}
			want := rules.Outcome{Over: tt.over, Winner: tt.winner}
			if s.Outcome() != want || s.ToMove() != tt.next {
				t.Errorf("after %s: outcome %v, to move %d; want %v, %d", tt.tok, s.Outcome(), s.ToMove(), want, tt.next)
			}
			if tt.over {
				if _, err := s.ParseMove("pass"); !errors.Is(err, rules.ErrGameOver) {
					t.Errorf("ParseMove after the end = %v, want ErrGameOver", err)
				}
				if !strings.Contains(s.Board(0), fmt.Sprintf("Game over: seat %d wins\n", tt.winner)) {
					t.Errorf("the board does not tell the winner:\n%s", s.Board(0))
				}
			}
			if tt.name == "next seat must pass" {
				if got := tokensOf(s); !slices.Equal(got, []string{"pass"}) {
					t.Errorf("seat 2's moves = %v, want only pass", got)
				}
			}
		})
	}
}

func TestOptions(t *testing.T) {
	tests := []struct {
		o    rules.Options
		want string // the error, or the options filled in
	}{
		{rules.Options{}, "{Seats:2 Board:star Target:0}"},
		{rules.Options{Board: "star", Seats: 3}, "{Seats:3 Board:star Target:0}"},
		{rules.Options{Board: "hex"}, "{Seats:2 Board:hex Target:0}"},
		{rules.Options{Board: "square"}, `IceFrogs is played on the star or hex board, not "square"`},
		{rules.Options{Board: "Hex"}, `not "Hex"`},
		{rules.Options{Seats: 4}, "IceFrogs is played by 2 or 3 players, not 4"},
		{rules.Options{Target: 12}, "IceFrogs has no target score"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%+v", tt.o), func(t *testing.T) {
			s, err := icefrogs.Game.Start(tt.o)
			if err != nil {
				if !errors.Is(err, rules.ErrOptions) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("Start = %v, want ErrOptions with %q", err, tt.want)
				}
				return
			}
			if got := fmt.Sprintf("%+v", s.Options()); got != tt.want {
				t.Errorf("Options() = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestParsePosition(t *testing.T) {
	const empty = "./../......./....../...../....../......./../."
	tests := []struct {
		name, code, want string // want: part of the error, or "" when the code is good
	}{
		{"start", "IceFrogs star 2 " + empty + " 555/555 1", ""},
		{"stack", "IceFrogs star 2 ./../......./....../..(2M1L)../....../......./../. 554/545 2", ""},
		{"lower case game", "icefrogs hex 3 ..../...../....../......./....../...../.... 555/555/555 3", ""},
		{"won", "IceFrogs star 2 ./../......./....../...../....../......./../1S 455/555 -", ""},
		{"fields", "IceFrogs star 2 " + empty + " 555/555", "want 6 fields"},
		{"board", "IceFrogs round 2 " + empty + " 555/555 1", "the board is star or hex"},
		{"seats", "IceFrogs star 4 " + empty + " 555/555/555/555 1", "2 or 3 players"},
		{"rows", "IceFrogs star 2 ./../......./....../...../....../......./.. 555/555 1", "needs 9 rows"},
		{"short row", "IceFrogs star 2 ./../....../....../...../....../......./../. 555/555 1", "row c has 7 cells"},
		{"long row", "IceFrogs star 2 ./.../......./....../...../....../......./../. 555/555 1", "row b has 2 cells"},
		{"piece", "IceFrogs star 2 ./../..3S..../....../...../....../......./../. 555/555 1", `cell c3: "3S" is not a piece`},
		{"paren", "IceFrogs star 2 ./../..(1S2M..../....../...../....../......./../. 555/555 1", "without its ')'"},
		{"count", "IceFrogs star 2 ./../..1S..../....../...../....../......./../. 555/555 1", "seat 1 has more than 5 small pieces"},
		{"missing", "IceFrogs star 2 " + empty + " 455/555 1", "seat 1 has 0 small pieces on the board and 4 in the supply"},
		{"supply", "IceFrogs star 2 " + empty + " 556/555 1", "must be 0 to 5"},
		{"supplies", "IceFrogs star 2 " + empty + " 555 1", "the supplies need 2 seats"},
		{"to move", "IceFrogs star 2 " + empty + " 555/555 3", "seat 3 to move, but there are 2 seats"},
		{"turn", "IceFrogs star 2 " + empty + " 555/555 x", "the seat to move or -"},
		{"not won", "IceFrogs star 2 ./../......./....../...../....../......./../1S 455/555 1", "so the game is over"},
		{"own start", "IceFrogs star 2 1S/../......./....../...../....../......./../. 455/555 2", "the pieces on a1 cannot be there"},
		{"not over", "IceFrogs star 2 " + empty + " 555/555 -", "nobody has won and a player can still move"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := icefrogs.Game.ParsePosition(tt.code)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				want := tt.code
				if strings.HasPrefix(want, "icefrogs") {
					want = "IceFrogs" + want[len("icefrogs"):]
				}
				if s.Code() != want {
					t.Errorf("Code() = %q, want %q", s.Code(), want)
				}
				return
			}
			if !errors.Is(err, rules.ErrPosition) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParsePosition = %v, want ErrPosition with %q", err, tt.want)
			}
		})
	}
}

func TestBoard(t *testing.T) {
	// The 2-high stack on e3 makes every cell 4 characters wide.
	p := setup(t, rules.Options{}, "2", "b1=1S e3=2M1L h2=2L")
	want := `i                     i1                     i
h                  h1    2L                  h
g   g1    g2    g3    g4    g5    g6    g7   g
f      f1    f2    f3    f4    f5    f6      f
e         e1    e2   2M1L   e4    e5         e
d      d1    d2    d3    d4    d5    d6      d
c   c1    c2    c3    c4    c5    c6    c7   c
b                  1S    b2                  b
a                     a1                     a

An empty cell shows its name; a stack shows its pieces top first,
as seat and size: 2M1S is seat 2's medium on seat 1's small.
Seat 1: start a1, supply 4 S, 5 M, 4 L
Seat 2: start i1, supply 5 S, 4 M, 4 L
Seat 2 to move
`
	if got := p.Board(1); got != want {
		t.Errorf("Board(1) =\n%s\nwant\n%s", got, want)
	}
	if p.Board(0) != p.Board(1) {
		t.Errorf("Board(0) differs from Board(1)")
	}
	// Seat 2 sees the board turned half round.
	turned := p.Board(2)
	lines := strings.Split(turned, "\n")
	if lines[0] != "a                     a1                     a" || lines[1] != "b                  b2    1S                  b" ||
		lines[2] != "c   c7    c6    c5    c4    c3    c2    c1   c" {
		t.Errorf("Board(2) =\n%s", turned)
	}
}

func benchPerft(b *testing.B, p icefrogs.Position, depth int) {
	var nodes uint64
	for b.Loop() {
		nodes += p.Perft(depth)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

func BenchmarkPerft(b *testing.B) {
	start, err := icefrogs.Start(rules.Options{})
	if err != nil {
		b.Fatal(err)
	}
	// A position from a random game, 40 plies in: 59 moves, stacks up to
	// three high.
	mid, err := icefrogs.ParsePosition("IceFrogs star 2 ./(1S1L)(1S1S)/....1M../.1S(1S1M)1M../...2M./....../..2L..../(2S2L)2L/. 024/442 1")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("start", func(b *testing.B) { benchPerft(b, start, 5) })
	b.Run("midgame", func(b *testing.B) { benchPerft(b, mid, 3) })
}
