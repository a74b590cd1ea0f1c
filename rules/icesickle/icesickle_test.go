package icesickle_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"icepost/rules"
	"icepost/rules/icesickle"
	"icepost/rules/rulestest"
)

// The perft counts from the start follow by hand from the placement rules:
// every empty square takes any size with pieces left, and in the first
// three plies no size runs out (5 of each).
//
//	depth 1: 25 squares x 3 sizes                = 75
//	depth 2: 75 x (24 squares x 3 sizes)         = 5,400
//	depth 3: 5,400 x (23 squares x 3 sizes)      = 372,600
func TestConformance(t *testing.T) {
	rulestest.Run(t, icesickle.Game, rulestest.Case{
		Name:     "2 seats",
		Options:  rules.Options{},
		Perft:    []uint64{75, 5400, 372600},
		Playouts: 30,
	})
}

func TestPerftDepth4(t *testing.T) {
	if testing.Short() {
		t.Skip("perft depth 4 in -short mode")
	}
	// 372,600 x (22 squares x 3 sizes): after three placements every size
	// still has at least two pieces left.
	if got, want := icesickle.Start().Perft(4), uint64(372600*22*3); got != want {
		t.Errorf("perft(4) = %d, want %d", got, want)
	}
}

func mustPos(t *testing.T, code string) icesickle.Position {
	t.Helper()
	p, err := icesickle.ParsePosition(code)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// tokens lists the package's legal moves of p as sorted tokens.
func tokens(p rules.State) []string {
	var out []string
	for _, m := range p.Moves(nil) {
		out = append(out, p.FormatMove(m))
	}
	slices.Sort(out)
	return out
}

func TestJumps(t *testing.T) {
	tests := []struct {
		name, code string
		want       []string
	}{
		{
			// The large on a1 jumps north-east over b2 and may land on c3,
			// d4 or e5 (passing empty squares after b2 is allowed). Every
			// other line from a1 passes only empty squares; the small on b2
			// could only jump over a1, landing off the board.
			name: "distance and empty squares passed",
			code: "IceSickle ...../...../...../.S.../L.... S0M0L0 0:0 1 jump 2",
			want: []string{"a1xc3", "a1xd4", "a1xe5"},
		},
		{
			// A small passes one square only: b1 over c1 to d1, and c1 over
			// b1 to a1. The medium on e3 passes only empty squares (e2 and
			// e1, or d2 and c1, would land off the board).
			name: "small pieces jump one square",
			code: "IceSickle ...../...../....M/...../.SS.. S0M0L0 0:0 1 jump 1",
			want: []string{"b1xd1", "c1xa1"},
		},
		{
			// Mediums on a3 and c3, a small on d3. c3 east over d3 lands
			// on e3; c3 west over b3 lands on a3 (taken), over b3 and a3
			// off the board. a3 east over b3, c3 would land on d3 (taken).
			// d3 west over c3 lands on b3. Adjacent squares are no jumps.
			name: "medium over two squares",
			code: "IceSickle ...../...../M.MS./...../..... S0M0L0 0:0 1 jump 1",
			want: []string{"c3xe3", "d3xb3"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustPos(t, tt.code)
			if got := tokens(p); !slices.Equal(got, tt.want) {
				t.Errorf("moves = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRoundChangeAndEnd(t *testing.T) {
	// Seat 2 captures the small on b2 (1 pip); no jump is left, so round 1
	// ends and seat 2 places first in round 2: the same seat moves twice.
	p := mustPos(t, "IceSickle ...../...../...../.S.../L.... S0M0L0 0:0 1 jump 2")
	s, _, err := rules.Play(p, "a1xc3")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.Code(), "IceSickle ...../...../...../...../..... S5M5L5 0:1 2 place 2"; got != want {
		t.Errorf("after the last jump: %s, want %s", got, want)
	}
	// In round 2 the same capture by seat 1 ends the game level: a draw.
	p = mustPos(t, "IceSickle ...../...../...../.S.../L.... S0M0L0 0:1 2 jump 1")
	s, _, err = rules.Play(p, "A1-C3")
	if err != nil {
		t.Fatal(err)
	}
	if o := s.Outcome(); !o.Over || o.Winner != 0 || s.ToMove() != 0 {
		t.Errorf("outcome %v, to move %d; want a draw", o, s.ToMove())
	}
	// The last placement with no jump possible ends the round at once.
	p = mustPos(t, "IceSickle ...../...../...../...../..... S0M0L1 0:0 2 place 2")
	s, _, err = rules.Play(p, "L@c3")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Outcome().Over {
		t.Errorf("a lone piece has no jump: the game should be over, got %s", s.Code())
	}
}

func TestPlacementCounts(t *testing.T) {
	// Seat 1 places 8 pieces and seat 2 places 7 in round 1; then seat 2
	// jumps first.
	var s rules.State = icesickle.Start()
	count := [3]int{}
	sizes := "SSSSSMMMMMLLLLL"
	for i := range 15 {
		count[s.ToMove()]++
		var err error
		s, _, err = rules.Play(s, fmt.Sprintf("%c@%c%c", sizes[i], 'a'+i%5, '1'+i/5))
		if err != nil {
			t.Fatal(err)
		}
	}
	if count[1] != 8 || count[2] != 7 || s.ToMove() != 2 {
		t.Errorf("placements %v, then seat %d to move; want 8 and 7, then seat 2", count[1:], s.ToMove())
	}
}

func TestRejections(t *testing.T) {
	jump := "IceSickle ...../...../...../.S.../L.... S0M0L0 0:0 1 jump 2"
	place := "IceSickle ...../...../...../...../L.... S5M5L4 0:0 1 place 2"
	noLarge := "IceSickle ...../...../...../...../L.... S5M5L0 0:0 1 place 2"
	tests := []struct {
		code, tok string
		kind      error
		reason    string
	}{
		{place, "L@a1", rules.ErrIllegal, "a1 is occupied"},
		{noLarge, "L@b1", rules.ErrIllegal, "no large pieces are left"},
		{place, "a1xc3", rules.ErrIllegal, "still being placed (14 left)"},
		{place, "Q@a1", rules.ErrSyntax, "placement is a size and a square"},
		{place, "L@f1", rules.ErrSyntax, "placement is a size and a square"},
		{place, "hello", rules.ErrSyntax, "not an IceSickle move"},
		{jump, "L@c3", rules.ErrIllegal, "all pieces are placed"},
		{jump, "c3xe5", rules.ErrIllegal, "no piece on c3"},
		{jump, "a1xb3", rules.ErrIllegal, "not a straight line"},
		{jump, "a1xa3", rules.ErrIllegal, "passes over none"},
		{jump, "b2xb5", rules.ErrIllegal, "at most 1 square(s), not 2"},
		{jump, "b2xb4", rules.ErrIllegal, "passes over none"},
		{jump, "a1xb2", rules.ErrIllegal, "next to"},
		{"IceSickle ...../...../..S../.S.../L.... S0M0L0 0:0 1 jump 2", "a1xc3", rules.ErrIllegal, "landing square c3 is occupied"},
	}
	for _, tt := range tests {
		t.Run(tt.tok, func(t *testing.T) {
			_, err := mustPos(t, tt.code).ParseMove(tt.tok)
			if !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.reason) {
				t.Errorf("ParseMove(%q) = %v, want %v containing %q", tt.tok, err, tt.kind, tt.reason)
			}
		})
	}
}

func TestBadPositionCodes(t *testing.T) {
	for _, code := range []string{
		"",
		"IceSickle",
		"Pikemen ...../...../...../...../..... S5M5L5 0:0 1 place 1",
		"IceSickle ...../...../...../..... S5M5L5 0:0 1 place 1",
		"IceSickle ...../...../...../...../...X. S5M5L5 0:0 1 place 1",
		"IceSickle ...../...../...../...../..... S5M5L9 0:0 1 place 1",
		"IceSickle ...../...../...../...../..... S5M5L5 0:x 1 place 1",
		"IceSickle ...../...../...../...../..... S5M5L5 0:0 3 place 1",
		"IceSickle ...../...../...../...../..... S0M0L0 0:0 1 jump 1",
		"IceSickle ...../...../...../...../..... S5M5L5 0:0 1 end -",
		"IceSickle ...../...../...../...../..... S5M5L5 0:0 1 place 3",
	} {
		if _, err := icesickle.ParsePosition(code); !errors.Is(err, rules.ErrPosition) {
			t.Errorf("ParsePosition(%q) = %v, want ErrPosition", code, err)
		}
	}
}

func BenchmarkPerft(b *testing.B) {
	mid := "IceSickle LMS.L/S.M.L/.SML./M.S.L/SM.LM S0M0L0 0:0 1 jump 2"
	for _, bc := range []struct{ name, code string }{
		{"start", "IceSickle ...../...../...../...../..... S5M5L5 0:0 1 place 1"},
		{"jumping", mid},
	} {
		b.Run(bc.name, func(b *testing.B) {
			p, err := icesickle.ParsePosition(bc.code)
			if err != nil {
				b.Fatal(err)
			}
			var nodes uint64
			for b.Loop() {
				nodes += p.Perft(3)
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}

func ExampleGame() {
	s, _ := icesickle.Game.Start(rules.Options{})
	s, _, _ = rules.Play(s, "L@c3")
	fmt.Println(s.Code())
	fmt.Print(s.Board(0))
	// Output:
	// IceSickle ...../...../..L../...../..... S5M5L4 0:0 1 place 2
	//       a   b   c   d   e
	//     +---+---+---+---+---+
	//   5 |   |   |   |   |   | 5
	//     +---+---+---+---+---+
	//   4 |   |   |   |   |   | 4
	//     +---+---+---+---+---+
	//   3 |   |   | L |   |   | 3
	//     +---+---+---+---+---+
	//   2 |   |   |   |   |   | 2
	//     +---+---+---+---+---+
	//   1 |   |   |   |   |   | 1
	//     +---+---+---+---+---+
	//       a   b   c   d   e
	//
	// Round 1 of 2, placing.
	// Pieces are neutral: S small (1), M medium (2), L large (3).
	// To place: S 5  M 5  L 4
	// Score: seat 1 0, seat 2 0
	// Seat 2 to move: place a piece (like L@c3)
}
