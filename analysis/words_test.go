package analysis

import (
	"fmt"
	"strings"
	"testing"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// MoveNumber numbers a move as the canonical record does, for 2, 3 and
// 4 seats: each number covers a turn of every seat, "N." before the
// first of a group, "N..." before the others. The record's own text is
// the reference: an analysed record writes a number before every move
// (after each move's comment), so "N. token" or "N... token" is in it
// for every ply.
func TestMoveNumber(t *testing.T) {
	for _, c := range []struct {
		ply, seats int
		want       string
	}{
		{1, 2, "1."}, {2, 2, "1..."}, {19, 2, "10."}, {20, 2, "10..."},
		{1, 3, "1."}, {3, 3, "1..."}, {4, 3, "2."}, {5, 3, "2..."},
		{4, 4, "1..."}, {5, 4, "2."}, {1, 0, "1."}, {3, 0, "2."},
	} {
		if got := MoveNumber(c.ply, c.seats); got != c.want {
			t.Errorf("MoveNumber(%d, %d) = %q, want %q", c.ply, c.seats, got, c.want)
		}
	}
	g, _ := games.Lookup("Pikemen")
	for _, seats := range []int{2, 3, 4} {
		t.Run(fmt.Sprintf("%d seats", seats), func(t *testing.T) {
			s, err := g.Start(rules.Options{Seats: seats})
			if err != nil {
				t.Fatal(err)
			}
			var moves []rules.Move
			for range 2*seats + 1 {
				m := s.Moves(nil)[0]
				moves = append(moves, m)
				s, _ = s.Play(m)
			}
			start, _ := g.Start(rules.Options{Seats: seats})
			rec, err := notation.FromMoves(nil, start, moves)
			if err != nil {
				t.Fatal(err)
			}
			for i := range rec.Main.Moves {
				rec.Main.Moves[i].After = append(rec.Main.Moves[i].After, "c")
			}
			text := strings.Join(strings.Fields(rec.String()), " ") // lines joined
			for i, m := range rec.Main.Moves {
				if want := MoveNumber(i+1, seats) + " " + m.Token + " "; !strings.Contains(text, want) {
					t.Errorf("ply %d: %q is not in the record:\n%s", i+1, want, text)
				}
			}
		})
	}
}

// The marks named and counted: the article, the plural, lists.
func TestMarkWords(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Inaccuracy.WithArticle(), "an inaccuracy"},
		{Mistake.WithArticle(), "a mistake"},
		{Blunder.WithArticle(), "a blunder"},
		{Good.WithArticle(), ""},
		{Inaccuracy.Count(1), "1 inaccuracy"},
		{Inaccuracy.Count(3), "3 inaccuracies"},
		{Inaccuracy.Count(0), "0 inaccuracies"},
		{Mistake.Count(2), "2 mistakes"},
		{Blunder.Count(1), "1 blunder"},
		{MarkCounts(nil), ""},
		{MarkCounts([]Move{{Mark: Inaccuracy}}), "1 inaccuracy"},
		{MarkCounts([]Move{{Mark: Inaccuracy}, {}, {Mark: Inaccuracy}, {Mark: Inaccuracy}}), "3 inaccuracies"},
		{MarkCounts([]Move{{Mark: Inaccuracy}, {Mark: Blunder}, {Mark: Inaccuracy}}), "1 blunder and 2 inaccuracies"},
		{MarkCounts([]Move{{Mark: Mistake}, {Mark: Blunder}, {Mark: Inaccuracy}, {Mark: Mistake}}), "1 blunder, 2 mistakes and 1 inaccuracy"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

func TestLineWords(t *testing.T) {
	m := Move{Better: "h5-h6", Line: []string{"h5-h6", "h7-g7", "g6-g7"}, WinIn: 2}
	if got, want := WinText(m), "wins in 2: h5-h6, then h7-g7, then g6-g7"; got != want {
		t.Errorf("WinText = %q, want %q", got, want)
	}
	if got := WinText(Move{Better: "a1", Line: []string{"a1"}, WinIn: 1}); got != "wins at once: a1" {
		t.Errorf("WinText of a win in one = %q", got)
	}
	if got := LineText(Move{Better: "a1"}); got != "a1" {
		t.Errorf("LineText of a record without lines = %q", got)
	}
	if got := WinText(Move{Better: "a1", Line: []string{"a1", "b2"}}); got != "" {
		t.Errorf("WinText of no forced win = %q", got)
	}
}
