package analysis

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"icepost/rules"
	"icepost/rules/games"
	"icepost/solve"
)

// forcedWins are positions of two seats, one a game kind at least, where
// the seat to move forces a win in two or three of its moves: those of
// solve's TestKnownPositions, which checks each against a brute force.
var forcedWins = []struct {
	why, code string
	in        int
}{
	{"Pikemen: aim, then take", "Pikemen 2 12 8/8/8/8/8/2S2U5/8/L1U7 11:0 1", 2},
	{"Pikemen: three", "Pikemen 2 12 3L1W4/8/8/8/8/5M2NW2/6S2NE1/6M1N1 10:11 1", 3},
	{"Pikemen: two, sparse", "Pikemen 2 12 8/8/6S1S1/8/7S1S/8/4S1S3/3S2U4 10:9 1", 2},
	{"IceSickle: three", "IceSickle ...../...MS/..M.L/...MS/.L..S S0M0L0 17:19 2 jump 2", 3},
	{"IceSickle: two", "IceSickle ...../....S/....L/..S../ML..S S0M0L0 19:21 2 jump 2", 2},
	{"IceLady: three", "IceLady 4L3/2mmm3/3s1s2/1s6/8/2S1SS2/2MMMM2/8 3 4 1", 3},
	{"IceLady: two", "IceLady 3S4/8/8/8/5S2/1L3S2/4M3/6l1 3 3 1", 2},
	{"IceFrogs star: two", "IceFrogs star 2 ./.1L/1M(1M1M)..2S../....1M1L/.(2S1S2S2S)1S1L./..1S(1M2M)2M./...(2S2M2M1L2L2L2L)1S(1S1L2L2L)./2M./. 000/000 1", 2},
	{"IceFrogs hex: three", "IceFrogs hex 2 ..1S(2M1M)/..(1L2L1L2L)1S./.1S(2L1L1L)1S(2M2M)1S/2S..(1M1M2L)2S(2M2L)./(2S1L)2S..1M./.(1M2M).../..2S. 000/000 2", 3},
}

// TestMissedForcedWin: in each position of forcedWins, a move that
// keeps no forced win is a blunder (??) whose better move begins a
// forced win, said so ([%wins N], its line in the record); the move
// played, which the other seat can defend against, is not shown as
// 1.00. And a move that keeps the win is not marked at all.
func TestMissedForcedWin(t *testing.T) {
	ctx := context.Background()
	for _, tc := range forcedWins {
		t.Run(tc.why, func(t *testing.T) {
			g, ok := games.Lookup(strings.Fields(tc.code)[0])
			if !ok {
				t.Fatalf("no game for %q", tc.code)
			}
			s, err := g.ParsePosition(tc.code)
			if err != nil {
				t.Fatal(err)
			}
			var missed, kept rules.Move
			var haveMissed, haveKept bool
			for _, m := range s.Moves(nil) {
				r, err := solve.WinWith(ctx, s, m, solve.MaxMoves, 0)
				if err != nil || r.Exhausted {
					t.Fatalf("%s: %+v, %v", s.FormatMove(m), r, err)
				}
				if r.In == 0 && !haveMissed {
					missed, haveMissed = m, true
				}
				if r.In > 0 && !haveKept {
					kept, haveKept = m, true
				}
			}
			if !haveMissed || !haveKept {
				t.Fatalf("no move that misses the win (%v) or keeps it (%v)", haveMissed, haveKept)
			}

			rec := recordFrom(t, s, missed)
			a := analyse(t, rec, 1).Moves[0]
			if a.Mark != Blunder || a.WinIn != tc.in || a.Before != 1 || len(a.Line) < 2 {
				t.Fatalf("%s misses a win in %d: %+v\n%s", s.FormatMove(missed), tc.in, a, rec)
			}
			if a.After == 1 {
				t.Errorf("%s, which a defence holds, is shown 1.00: %+v", s.FormatMove(missed), a)
			}
			first, err := s.ParseMove(a.Line[0])
			if err != nil {
				t.Fatal(err)
			}
			if r, err := solve.WinWith(ctx, s, first, solve.MaxMoves, 0); err != nil || r.In != tc.in {
				t.Errorf("the better move %s wins in %d, not %d (%v)", a.Line[0], r.In, tc.in, err)
			}
			if text := oneLine(rec.String()); !strings.Contains(text, "[%wins "+strconv.Itoa(tc.in)+"]") {
				t.Errorf("the record does not say the win in %d:\n%s", tc.in, text)
			}
			if !strings.Contains(WinText(a), "wins in ") {
				t.Errorf("WinText says %q", WinText(a))
			}

			rec = recordFrom(t, s, kept)
			if a := analyse(t, rec, 1).Moves[0]; a.Mark != Good {
				t.Errorf("%s keeps the win in %d, marked: %+v\n%s", s.FormatMove(kept), tc.in, a, rec)
			}
		})
	}
}

// TestDefendedNotOne: where the other seat has a defence against every
// win in up to three moves (solve's "the small takes first", checked by
// its brute force), no move is shown as 1.00, though every reorient
// looks good to the playouts.
func TestDefendedNotOne(t *testing.T) {
	g, _ := games.Lookup("Pikemen")
	s, err := g.ParsePosition("Pikemen 2 12 8/8/8/8/8/2S2SW5/8/L1U7 11:10 1")
	if err != nil {
		t.Fatal(err)
	}
	if r, err := solve.Win(context.Background(), s, solve.MaxMoves, 0); err != nil || r.In != 0 || r.Exhausted {
		t.Fatalf("the solver finds %+v, %v", r, err)
	}
	for _, m := range s.Moves(nil) {
		next, _ := s.Play(m)
		if next.Outcome().Over {
			continue
		}
		a := analyse(t, recordFrom(t, s, m), 1).Moves[0]
		if a.Before == 1 || a.After == 1 || a.WinIn != 0 {
			t.Errorf("%s, defended, is shown as a win: %+v", s.FormatMove(m), a)
		}
	}
}
