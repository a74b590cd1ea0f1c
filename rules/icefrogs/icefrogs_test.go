package icefrogs_test

import (
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

func TestPerftDepth4(t *testing.T) {
	// Checked against the reference model (TestReferencePerft).
	want := map[string]uint64{"star 2 seats": 4356, "star 3 seats": 2376, "hex 2 seats": 17424, "hex 3 seats": 10692}
	for _, c := range refCases {
		p, err := icefrogs.Start(c.o)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Perft(4); got != want[c.name] {
			t.Errorf("%s: perft(4) = %d, want %d", c.name, got, want[c.name])
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
