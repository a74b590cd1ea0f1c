package pikemen

import (
	"errors"
	"flag"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"icepost/rules"
	"icepost/rules/rulestest"
)

// Golden perft counts from the start.
//
// 2 seats: every piece starts upright, so seat 1 can only reorient: 15
// pieces x 8 other orientations = 120. Seat 2's pieces are still all
// upright after that, so depth 2 is 120 x 120 = 14400. At depth 3 seat 1
// has its 120 reorients again (14 upright pieces x 8, and the lying one
// has 7 other directions plus U) plus the charges of its lying piece, so
// the count is 14400 x 120 = 1728000 plus those charges; the total
// (1800216) and depth 4 come from the reference generator in ref_test.go
// (TestPerftReference).
//
// 3 seats: 12 pieces x 8 = 96 moves for each of the first three turns, as
// nobody has a lying piece before their own first move: 96, 96^2 = 9216,
// 96^3 = 884736. Depth 4 (seat 1 again, now with charges) is from the
// reference.
//
// 4 seats: 9 x 8 = 72 for each of the first four turns: 72, 5184, 373248,
// 72^4 = 26873856.
var (
	perft2 = []uint64{120, 14400, 1800216, 225128853}
	perft3 = []uint64{96, 9216, 884736, 88155648}
	perft4 = []uint64{72, 5184, 373248, 26873856}
)

func TestConformance(t *testing.T) {
	perft := func(counts []uint64) []uint64 {
		if testing.Short() {
			return counts[:3]
		}
		return counts
	}
	rulestest.Run(t, Game,
		rulestest.Case{Name: "2 seats", Options: rules.Options{}, Perft: perft(perft2)},
		rulestest.Case{Name: "3 seats", Options: rules.Options{Seats: 3}, Perft: perft(perft3)},
		rulestest.Case{Name: "4 seats", Options: rules.Options{Seats: 4}, Perft: perft(perft4)},
		rulestest.Case{Name: "2 seats target 15", Options: rules.Options{Target: 15}, Perft: perft2[:2], Playouts: 5},
		rulestest.Case{Name: "4 seats target 40", Options: rules.Options{Seats: 4, Target: 40}, Perft: perft4[:2], Playouts: 5},
	)
}

// deep makes TestPerftReference check the depth-4 counts too (a few
// minutes): go test -run TestPerftReference ./rules/pikemen/ -args -deep
var deep = flag.Bool("deep", false, "check the depth-4 perft counts against the slow reference")

// TestPerftReference checks the golden counts against the slow reference:
// depths 1-3 always, depth 4 with -deep.
func TestPerftReference(t *testing.T) {
	for _, c := range []struct {
		seats  int
		counts []uint64
	}{{2, perft2}, {3, perft3}, {4, perft4}} {
		p, err := StartPosition(rules.Options{Seats: c.seats})
		if err != nil {
			t.Fatal(err)
		}
		rp := refFrom(p)
		for i, want := range c.counts {
			depth := i + 1
			if depth > 3 && !*deep {
				break
			}
			if got := rp.perft(depth); got != want {
				t.Errorf("%d seats: reference perft(%d) = %d, golden %d", c.seats, depth, got, want)
			}
		}
	}
}

// TestAgainstReference plays random games and compares every position's
// legal moves, turn and scores with the reference implementation.
func TestAgainstReference(t *testing.T) {
	for _, seats := range []int{2, 3, 4} {
		for _, target := range []int{12, 40} {
			start, _ := StartPosition(rules.Options{Seats: seats, Target: target})
			rng := rand.New(rand.NewPCG(uint64(seats), uint64(target)))
			for game := range 10 {
				p, rp := start, refFrom(start)
				for ply := 0; ply < 3000 && !p.over; ply++ {
					want := rp.moves()
					var got []string
					for _, m := range p.Moves(nil) {
						got = append(got, p.FormatMove(m))
					}
					sort.Strings(got)
					if !slices.Equal(got, want) {
						t.Fatalf("%d seats game %d ply %d at %s:\nfast %d moves, reference %d", seats, game, ply, p.Code(), len(got), len(want))
					}
					// Prefer charges so that games reach captures and ends.
					tok := want[rng.IntN(len(want))]
					if rng.IntN(2) == 0 {
						for range 20 {
							if !strings.Contains(tok, ":") || strings.ContainsAny(tok, "-x") {
								break
							}
							tok = want[rng.IntN(len(want))]
						}
					}
					next, _, err := rules.Play(p, tok)
					if err != nil {
						t.Fatalf("%s: %s: %v", p.Code(), tok, err)
					}
					p, rp = next.(Position), rp.play(tok)
					if p.ToMove() != rp.toMove || !slices.Equal(p.Scores(), rp.scores) {
						t.Fatalf("after %s: to move %d scores %v, reference %d %v", tok, p.ToMove(), p.Scores(), rp.toMove, rp.scores)
					}
					if o := p.Outcome(); o.Over && o.Winner != rp.winner() {
						t.Fatalf("after %s: winner %d, reference %d", tok, o.Winner, rp.winner())
					}
				}
			}
		}
	}
}

// pos builds a position from a code, failing the test if it does not read.
func pos(t *testing.T, code string) Position {
	t.Helper()
	p, err := ParsePosition(code)
	if err != nil {
		t.Fatalf("ParsePosition(%q): %v", code, err)
	}
	return p
}

// board writes a board field from a list like "a1 S1N, a3 L2E".
func board(pieces string) string {
	var cells [64]string
	for _, item := range strings.Split(pieces, ",") {
		f := strings.Fields(item)
		sq, _ := parseSquare(f[0])
		cells[sq] = f[1]
	}
	var ranks []string
	for r := 7; r >= 0; r-- {
		s, empty := "", 0
		for f := range 8 {
			if c := cells[r*8+f]; c != "" {
				if empty > 0 {
					s += string(rune('0' + empty))
				}
				s, empty = s+c, 0
			} else {
				empty++
			}
		}
		if empty > 0 {
			s += string(rune('0' + empty))
		}
		ranks = append(ranks, s)
	}
	return strings.Join(ranks, "/")
}

// charges lists the charges that keep the piece's orientation, sorted:
// one token per square a charge can stop on.
func charges(p Position) []string {
	var out []string
	for _, m := range p.Moves(nil) {
		if tok := p.FormatMove(m); !strings.Contains(tok, ":") {
			out = append(out, tok)
		}
	}
	sort.Strings(out)
	return out
}

func TestCaptureRules(t *testing.T) {
	for _, c := range []struct {
		name, pieces string
		want         []string
	}{
		{"lying large taken by a small", "a1 S1N, a3 L2E", []string{"a1-a2", "a1xa3"}},
		{"lying small taken by a large", "a1 L1N, a3 S2W", []string{"a1-a2", "a1xa3"}},
		{"lying same size", "a1 M1N, a3 M2S", []string{"a1-a2", "a1xa3"}},
		{"upright smaller taken", "a1 M1N, a4 S2U", []string{"a1-a2", "a1-a3", "a1xa4"}},
		{"upright medium taken by a large", "a1 L1N, a4 M2U", []string{"a1-a2", "a1-a3", "a1xa4"}},
		{"upright same size blocks", "a1 M1N, a4 M2U", []string{"a1-a2", "a1-a3"}},
		{"upright larger blocks", "a1 S1N, a4 M2U", []string{"a1-a2", "a1-a3"}},
		{"upright large never taken", "a1 L1N, a4 L2U", []string{"a1-a2", "a1-a3"}},
		{"own piece blocks", "a1 L1N, a3 S1N, h8 S2U", []string{"a1-a2", "a3-a4", "a3-a5", "a3-a6", "a3-a7", "a3-a8"}},
		{"only the first piece counts", "a1 L1N, a3 L2U, a5 S2N", []string{"a1-a2"}},
		{"runs to the edge", "a1 L1E, h8 S2U", []string{"a1-b1", "a1-c1", "a1-d1", "a1-e1", "a1-f1", "a1-g1", "a1-h1"}},
		{"diagonal", "a1 S1NE, d4 L2SW", []string{"a1-b2", "a1-c3", "a1xd4"}},
		{"pointing off the board", "a1 L1S, h8 S2U", nil},
		{"upright cannot charge", "a1 L1U, a3 S2N", nil},
		{"4 seats: any enemy", "c3 M1SE, e1 S4N, h8 S2U, a8 S3U", []string{"c3-d2", "c3xe1"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			seats := "2 12"
			scores := "0:0"
			if strings.HasPrefix(c.name, "4 seats") {
				seats, scores = "4 12", "0:0:0:0"
			}
			p := pos(t, "Pikemen "+seats+" "+board(c.pieces)+" "+scores+" 1")
			if got := charges(p); !slices.Equal(got, c.want) {
				t.Errorf("charges = %v, want %v", got, c.want)
			}
			// Each own piece: 8 reorients; each charge square: 9 moves.
			own := 0
			for sq := range 64 {
				if p.owner(sq) == 1 {
					own++
				}
			}
			if n := len(p.Moves(nil)); n != own*8+9*len(c.want) {
				t.Errorf("%d moves, want %d", n, own*8+9*len(c.want))
			}
		})
	}
}

func TestParseMove(t *testing.T) {
	start, _ := StartPosition(rules.Options{})
	// g4 lies pointing NW, h3 lies pointing NW with a clear line to c8
	// (upright large: cannot be taken) - see each case.
	mid := pos(t, "Pikemen 2 12 "+board("c8 M2U, e6 S2NE, h3 L1NW, g4 S1NW, b8 L2U, a4 S2U, a1 M1U, d1 L1E")+" 0:0 1")
	for _, c := range []struct {
		name string
		p    Position
		tok  string
		want string // canonical token, or the error text
		kind error  // nil when accepted
	}{
		{"reorient", start, "h1:NW", "h1:NW", nil},
		{"any case", start, "H1:nw", "h1:NW", nil},
		{"abstract play reorient", start, "h1(NW)", "h1:NW", nil},
		{"reorient to the current", start, "h1:U", "h1:U: the large on h1 already stands upright; a reorient must change the orientation", rules.ErrIllegal},
		{"reorient lying to current", mid, "g4:NW", "g4:NW: the small on g4 already points NW; a reorient must change the orientation", rules.ErrIllegal},
		{"stand up", mid, "g4:U", "g4:U", nil},
		{"upright cannot charge", start, "g4-f5", "g4-f5: the small on g4 stands upright and cannot charge; only a lying piece charges (turn it first, like g4:NE)", rules.ErrIllegal},
		{"charge", mid, "g4-f5", "g4-f5", nil},
		{"charge keeping the orientation said", mid, "g4-f5:NW", "g4-f5", nil},
		{"charge and stand up", mid, "g4-f5:U", "g4-f5:U", nil},
		{"abstract play charge", mid, "g4-f5(U)", "g4-f5:U", nil},
		{"capture", mid, "g4xe6", "g4xe6", nil},
		{"capture and turn", mid, "G4XE6:s", "g4xe6:S", nil},
		{"abstract play capture", mid, "g4xe6(S)", "g4xe6:S", nil},
		{"dash on a capture", mid, "g4-e6", "g4-e6: use g4xe6: the charge captures the small on e6", rules.ErrIllegal},
		{"dash on a capture with turn", mid, "g4-e6:S", "g4-e6:S: use g4xe6:S: the charge captures the small on e6", rules.ErrIllegal},
		{"x on a plain charge", mid, "g4xf5:U", "g4xf5:U: use g4-f5:U: there is nothing to capture on f5", rules.ErrIllegal},
		{"past the first piece", mid, "g4-d7", "g4-d7: the charge from g4 to d7 is blocked by the small on e6; a charge never jumps", rules.ErrIllegal},
		{"off the line", mid, "g4-g5", "g4-g5: the small on g4 points NW, so it can only charge that way; g5 is not on that line", rules.ErrIllegal},
		{"upright same size", pos(t, "Pikemen 2 12 "+board("c8 M2U, h3 M1NW")+" 0:0 1"), "h3xc8", "h3xc8: the upright medium on c8 can only be captured by a larger piece, not by the medium on h3", rules.ErrIllegal},
		{"upright medium by large", pos(t, "Pikemen 2 12 "+board("c8 M2U, h3 L1NW")+" 0:0 1"), "h3xc8:S", "h3xc8:S", nil},
		{"upright large never", pos(t, "Pikemen 2 12 "+board("c8 L2U, h3 L1NW")+" 0:0 1"), "h3xc8", "h3xc8: the upright large on c8 can never be captured", rules.ErrIllegal},
		{"own piece", pos(t, "Pikemen 2 12 "+board("c8 L1U, h3 L1NW, a1 S2U")+" 0:0 1"), "h3xc8", "h3xc8: c8 holds your own piece; you never capture your own pieces", rules.ErrIllegal},
		{"no piece", start, "c3:N", "c3:N: there is no piece on c3", rules.ErrIllegal},
		{"not yours", start, "a8:S", "a8:S: a8 is not your piece: it belongs to seat 2, and seat 1 is to move", rules.ErrIllegal},
		{"charge of no squares", mid, "g4-g4", "g4-g4: a charge moves at least one square", rules.ErrIllegal},
		{"edge", mid, "d1-h1", "d1-h1", nil},
		{"bad square", start, "i1:N", "i1:N: a Pikemen move starts with the square of a piece, as in h1:NW, g4-e6 or h3xc8", rules.ErrSyntax},
		{"bad target square", start, "h1-j3", "h1-j3: a charge names the square where it stops after \"-\", as in g4-e6", rules.ErrSyntax},
		{"no orientation", start, "h1", "h1: say what the piece on h1 does: turn to a new orientation (h1:NW) or charge (h1-e6)", rules.ErrSyntax},
		{"bad orientation", start, "h1:NNW", "h1:NNW: \":NNW\" is not an orientation: use :N, :NE, :E, :SE, :S, :SW, :W, :NW or :U", rules.ErrSyntax},
		{"space before bracket", start, "h1 (NW)", "h1 (NW): \" (NW)\" is not an orientation: use :N, :NE, :E, :SE, :S, :SW, :W, :NW or :U", rules.ErrSyntax},
		{"game over", pos(t, "Pikemen 2 12 "+board("a1 L1U")+" 3:0 -"), "a1:N", "a1:N: the game is over", rules.ErrGameOver},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := c.p.ParseMove(c.tok)
			if c.kind == nil {
				if err != nil {
					t.Fatalf("ParseMove(%q): %v", c.tok, err)
				}
				if got := c.p.FormatMove(m); got != c.want {
					t.Errorf("ParseMove(%q) formats as %q, want %q", c.tok, got, c.want)
				}
				if _, err := c.p.Play(m); err != nil {
					t.Errorf("Play: %v", err)
				}
				return
			}
			var me *rules.MoveError
			if !errors.As(err, &me) || !errors.Is(err, c.kind) {
				t.Fatalf("ParseMove(%q) = %v, want a MoveError of kind %v", c.tok, err, c.kind)
			}
			if err.Error() != c.want {
				t.Errorf("ParseMove(%q) error\n got %q\nwant %q", c.tok, err.Error(), c.want)
			}
		})
	}
}

// A charge written without its final orientation stands for the charge
// ending in any (for conditional moves by mail); with one, only that.
func TestMatches(t *testing.T) {
	pos, err := StartPosition(rules.Options{Seats: 2})
	if err != nil {
		t.Fatal(err)
	}
	// Play on until a charge that turns its piece is legal.
	var s rules.State = pos
	var charge rules.Move
	found := false
	for ply := 0; ply < 40 && !found; ply++ {
		cur := s.(Position)
		moves := s.Moves(nil)
		for _, m := range moves {
			if m.Kind == KindCharge && Orientation(m.Arg) != cur.orient[m.Path[0]] {
				charge, found = m, true
				break
			}
		}
		if !found {
			next, err := s.Play(moves[(ply*7)%len(moves)])
			if err != nil {
				t.Fatal(err)
			}
			s = next
		}
	}
	if !found {
		t.Fatal("no charge that turns its piece in 40 plies")
	}
	tok := s.FormatMove(charge) // like g4-e6:U
	bare, _, _ := strings.Cut(tok, ":")
	if !rules.Matches(s, bare, charge) {
		t.Errorf("%s does not stand for %s", bare, tok)
	}
	if !rules.Matches(s, tok, charge) {
		t.Errorf("%s does not stand for itself", tok)
	}
	for _, m := range s.Moves(nil) {
		other := s.FormatMove(m)
		if m == charge {
			continue
		}
		sameCharge := m.Kind == charge.Kind && m.Path == charge.Path
		if got := rules.Matches(s, bare, m); got != sameCharge {
			t.Errorf("Matches(%s, %s) = %v", bare, other, got)
		}
		if rules.Matches(s, tok, m) {
			t.Errorf("%s stands for %s", tok, other)
		}
	}
}
