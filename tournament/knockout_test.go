package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func TestBracketOrder(t *testing.T) {
	for p, want := range map[int]string{
		2:  "[1 2]",
		4:  "[1 4 2 3]",
		8:  "[1 8 4 5 2 7 3 6]",
		16: "[1 16 8 9 4 13 5 12 2 15 7 10 3 14 6 11]",
	} {
		if got := fmt.Sprint(bracketOrder(p)); got != want {
			t.Errorf("%d: %s, want %s", p, got, want)
		}
	}
}

// record sets a result and fails the test on an error.
func record(t *testing.T, tr *Tournament, round, board int, r Result) {
	t.Helper()
	if err := tr.Record(round, board, r); err != nil {
		t.Fatal(err)
	}
}

// TestKnockoutOfEight: a bracket of eight with a drawn match (one won in
// the decider, one whose decider is drawn too) runs to its final; a
// second-round match starts as soon as its two players are known.
func TestKnockoutOfEight(t *testing.T) {
	tr := field(t, Knockout, 2, 8, Options{})
	due, err := tr.Pair()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"[p1 p8]", "[p8 p1]", "[p4 p5]", "[p5 p4]", "[p2 p7]", "[p7 p2]", "[p3 p6]", "[p6 p3]"}
	if len(due) != 8 {
		t.Fatalf("%d games", len(due))
	}
	for i, g := range due {
		if fmt.Sprint(g.Players) != want[i] || g.Round != 1 {
			t.Errorf("game %d: %v round %d, want %s", i, g.Players, g.Round, want[i])
		}
	}
	win, loss, draw := ResultOf(1, 0), ResultOf(0, 1), ResultOf(1, 1)
	// Match 1: p1 wins both. Match 2: each wins in seat 1: a decider.
	record(t, tr, 1, 1, win)
	record(t, tr, 1, 2, loss)
	record(t, tr, 1, 4, win)
	record(t, tr, 1, 5, win)
	due, _ = tr.Pair()
	if len(due) != 1 || due[0].Board != 6 || fmt.Sprint(due[0].Players) != "[p5 p4]" {
		t.Fatalf("decider %+v, want board 6, p5 in seat 1", due)
	}
	// The decider drawn: the higher seed, p4, goes through; match 1 of
	// round 2 starts while the rest of round 1 is under way.
	record(t, tr, 1, 6, draw)
	due, _ = tr.Pair()
	if len(due) != 2 || due[0].Round != 2 || fmt.Sprint(due[0].Players) != "[p1 p4]" {
		t.Fatalf("round 2 %+v", due)
	}
	// Match 3: two draws, then p7 wins the decider. Match 4: p6 1½-½.
	record(t, tr, 1, 7, draw)
	record(t, tr, 1, 8, draw)
	record(t, tr, 1, 10, draw)
	record(t, tr, 1, 11, win)
	due, _ = tr.Pair()
	if len(due) != 1 || fmt.Sprint(due[0].Players) != "[p7 p2]" {
		t.Fatalf("decider of match 3 %+v", due)
	}
	record(t, tr, 1, 9, win)
	due, _ = tr.Pair()
	if len(due) != 2 || fmt.Sprint(due[0].Players) != "[p6 p7]" || due[0].Match != 2 {
		t.Fatalf("round 2 match 2 %+v", due)
	}
	b := tr.Bracket()
	if len(b) != 3 || b[0].Matches[1].Winner != "p4" || b[0].Matches[2].Winner != "p7" || b[0].Matches[3].Winner != "p6" {
		t.Fatalf("bracket %+v", b[0])
	}
	if m := b[0].Matches[1]; m.Points[0] != Unit+Unit/2 || m.Points[1] != Unit+Unit/2 || len(m.Games) != 3 {
		t.Errorf("match 2 %+v", m)
	}
	run(t, tr, rand.New(rand.NewPCG(8, 8)))
	b = tr.Bracket()
	final := b[2].Matches[0]
	if final.Winner == "" || !tr.Done() {
		t.Fatalf("final %+v", final)
	}
	rows := tr.Standings()[0].Rows
	if rows[0].Player != final.Winner || rows[0].Rank != 1 || rows[1].Rank != 2 || rows[1].Out != 3 {
		t.Errorf("standings %+v", rows[:2])
	}
	for _, r := range rows[2:4] {
		if r.Rank != 3 || r.Out != 2 {
			t.Errorf("semi-finalist %+v", r)
		}
	}
	for _, r := range rows[4:] {
		if r.Rank != 5 || r.Out != 1 {
			t.Errorf("quarter-finalist %+v", r)
		}
	}
}

// TestKnockoutByes: six players in a bracket of eight: seeds 1 and 2 go
// through the first round without playing.
func TestKnockoutByes(t *testing.T) {
	tr := field(t, Knockout, 2, 6, Options{})
	due, _ := tr.Pair()
	if len(due) != 4 {
		t.Fatalf("%d games, want two matches", len(due))
	}
	b := tr.Bracket()
	if !b[0].Matches[0].Bye || b[0].Matches[0].Winner != "p1" || !b[0].Matches[2].Bye || b[0].Matches[2].Winner != "p2" {
		t.Fatalf("byes %+v", b[0].Matches)
	}
	run(t, tr, rand.New(rand.NewPCG(6, 6)))
	if !tr.Done() {
		t.Error("not done")
	}
	for _, n := range []int{2, 3, 5, 9, 13} {
		tr := field(t, Knockout, 2, n, Options{})
		run(t, tr, rand.New(rand.NewPCG(uint64(n), 1)))
		if !tr.Done() {
			t.Errorf("%d players: not done", n)
		}
	}
}

// TestKnockoutWithdrawal: a player who withdraws in a match loses its
// games left; one who withdraws before the next match gives a walkover.
func TestKnockoutWithdrawal(t *testing.T) {
	tr := field(t, Knockout, 2, 4, Options{})
	if _, err := tr.Pair(); err != nil {
		t.Fatal(err)
	}
	record(t, tr, 1, 1, ResultOf(1, 0)) // p1 beats p4
	stop, err := tr.Withdraw("p4")
	if err != nil {
		t.Fatal(err)
	}
	if len(stop) != 1 || stop[0].Board != 2 || stop[0].Result.String() != "0-1 forfeit" {
		t.Fatalf("stopped %+v", stop)
	}
	// p2 v p3: p3 wins, then p1 withdraws before the final.
	record(t, tr, 1, 4, ResultOf(0, 1))
	record(t, tr, 1, 5, ResultOf(1, 0))
	if _, err := tr.Withdraw("p1"); err != nil {
		t.Fatal(err)
	}
	due, _ := tr.Pair()
	if len(due) != 0 {
		t.Fatalf("games against a withdrawn player: %+v", due)
	}
	final := tr.Bracket()[1].Matches[0]
	if !final.Walkover || final.Winner != "p3" || !tr.Done() {
		t.Fatalf("final %+v", final)
	}
}
