package tournament

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// played makes a started tournament of these players from games written
// out by hand: "p1 p2 1-0" is round r's board b.
func played(t *testing.T, f Format, players int, rounds ...[]string) *Tournament {
	t.Helper()
	o := Options{}
	if f == Swiss {
		o.Rounds = len(rounds)
	}
	tr := field(t, f, 2, players, o)
	if err := tr.start(); err != nil {
		t.Fatal(err)
	}
	for r, games := range rounds {
		for b, s := range games {
			var a, c, res string
			if n, _ := fmt.Sscan(s, &a, &c, &res); n == 2 && c == "bye" {
				tr.Games = append(tr.Games, Game{Round: r + 1, Board: b + 1, Players: []string{a}, Bye: true})
				continue
			}
			result, err := ParseResult(res)
			if err != nil {
				t.Fatal(err)
			}
			tr.Games = append(tr.Games, Game{Round: r + 1, Board: b + 1, Players: []string{a, c}, Result: &result})
		}
	}
	return tr
}

// pts is a score in points and fractions: pts(2, 3, 4) is 2¾.
func pts(whole, num, den int) Points {
	return Points(whole*Unit + num*Unit/den)
}

// TestRoundRobinTieBreaksByHand: four players, results chosen so that
// Sonneborn-Berger ties two players and the direct encounter parts them;
// every value worked out by hand.
//
//	     p1  p2  p3  p4  points  SB
//	p1    ×   ½   1   0   1½     2.5×½ + 0.5×1        = 1¾
//	p2    ½   ×   1   1   2½     1.5×½ + 0.5×1 + 1.5×1 = 2¾
//	p3    0   0   ×   ½   ½      1.5×½                = ¾
//	p4    1   0   ½   ×   1½     1.5×1 + 0.5×½        = 1¾
//
// p1 and p4 tie on points and SB; p4 beat p1, so p4 is second.
func TestRoundRobinTieBreaksByHand(t *testing.T) {
	tr := played(t, RoundRobin, 4,
		[]string{"p1 p2 1/2-1/2", "p3 p4 1/2-1/2"},
		[]string{"p1 p3 1-0", "p2 p4 1-0"},
		[]string{"p4 p1 1-0", "p2 p3 1-0"},
	)
	g := tr.Standings()[0]
	want := []struct {
		player     string
		rank       int
		points, sb Points
		direct     Points
		wins       int
	}{
		{"p2", 1, pts(2, 1, 2), pts(2, 3, 4), 0, 2},
		{"p4", 2, pts(1, 1, 2), pts(1, 3, 4), Unit, 1},
		{"p1", 3, pts(1, 1, 2), pts(1, 3, 4), 0, 1},
		{"p3", 4, pts(0, 1, 2), pts(0, 3, 4), 0, 0},
	}
	for i, w := range want {
		r := g.Rows[i]
		if r.Player != w.player || r.Rank != w.rank || r.Points != w.points || r.SonnebornBerger != w.sb || r.Direct != w.direct || r.Wins != w.wins {
			t.Errorf("row %d: %s rank %d, %s points, SB %s, direct %s, %d wins; want %+v",
				i+1, r.Player, r.Rank, r.Points, r.SonnebornBerger, r.Direct, r.Wins, w)
		}
	}
	if fmt.Sprint(g.TieBreaks) != "[sonnebornBerger direct wins]" {
		t.Errorf("tie-breaks %v", g.TieBreaks)
	}
	// The crosstable, rows as ranked: p2, p4, p1, p3.
	wantCross := [][]string{
		{"", "1", "½", "1"},
		{"0", "", "1", "½"},
		{"½", "0", "", "1"},
		{"0", "½", "0", ""},
	}
	if fmt.Sprint(g.Cross) != fmt.Sprint(wantCross) {
		t.Errorf("crosstable %q, want %q", g.Cross, wantCross)
	}
}

// TestSwissTieBreaksByHand: Buchholz and median Buchholz of four players
// over three rounds, and of three with byes (a bye counts as an opponent
// with the player's own points), worked out by hand.
func TestSwissTieBreaksByHand(t *testing.T) {
	// p1 2½, p2 1, p3 2, p4 ½.
	tr := played(t, Swiss, 4,
		[]string{"p1 p2 1-0", "p3 p4 1/2-1/2"},
		[]string{"p1 p3 1/2-1/2", "p2 p4 1-0"},
		[]string{"p1 p4 1-0", "p2 p3 0-1"},
	)
	want := map[string][3]Points{ // points, Buchholz, median Buchholz
		"p1": {pts(2, 1, 2), pts(3, 1, 2), pts(1, 0, 1)}, // 1 + 2 + ½; the middle one, 1
		"p2": {pts(1, 0, 1), pts(5, 0, 1), pts(2, 0, 1)}, // 2½ + ½ + 2
		"p3": {pts(2, 0, 1), pts(4, 0, 1), pts(1, 0, 1)}, // ½ + 2½ + 1
		"p4": {pts(0, 1, 2), pts(5, 1, 2), pts(2, 0, 1)}, // 2 + 1 + 2½
	}
	for _, r := range tr.Standings()[0].Rows {
		w := want[r.Player]
		if r.Points != w[0] || r.Buchholz != w[1] || r.MedianBuchholz != w[2] {
			t.Errorf("%s: %s, Buchholz %s, median %s; want %v", r.Player, r.Points, r.Buchholz, r.MedianBuchholz, w)
		}
	}
	// p1 2, p2 1, p3 1. p2 and p3 tie on everything and have not met:
	// they share the rank, p2 first by seed.
	tr = played(t, Swiss, 3,
		[]string{"p1 p2 1-0", "p3 bye"},
		[]string{"p3 p1 0-1", "p2 bye"},
	)
	rows := tr.Standings()[0].Rows
	got := fmt.Sprintf("%s %s %s %d %s %s %d %s", rows[0].Player, rows[0].Buchholz, rows[1].Player, rows[1].Rank, rows[1].Buchholz, rows[2].Player, rows[2].Rank, rows[2].Buchholz)
	if got != "p1 2 p2 2 3 p3 2 3" {
		t.Errorf("got %s", got)
	}
	if rows[1].Direct != 0 || rows[1].Byes != 1 || rows[1].Played != 1 {
		t.Errorf("p2's row %+v", rows[1])
	}
}

// TestWithdrawalBeforeHalf: in a round robin of five (four games each),
// a player who has finished one game withdraws: all their games are
// annulled, the finished one too, and they stand last.
func TestWithdrawalBeforeHalf(t *testing.T) {
	tr := field(t, RoundRobin, 2, 5, Options{})
	tr.Pair()
	var mine []Game
	for _, g := range tr.Games {
		if g.seat("p5") >= 0 && !g.Bye {
			mine = append(mine, g)
		}
	}
	record(t, tr, mine[0].Round, mine[0].Board, ResultOf(0, 1))
	other := mine[0].Players[0]
	if other == "p5" {
		other = mine[0].Players[1]
	}
	stop, err := tr.Withdraw("p5")
	if err != nil {
		t.Fatal(err)
	}
	if len(stop) != 3 {
		t.Fatalf("stopped %d games, want 3", len(stop))
	}
	for _, g := range stop {
		if !g.Annulled || g.Result != nil {
			t.Errorf("stopped %+v", g)
		}
	}
	if err := tr.Record(stop[0].Round, stop[0].Board, ResultOf(1, 0)); !errors.Is(err, ErrAnnulled) {
		t.Errorf("a result for an annulled game: %v", err)
	}
	if p, _ := tr.Player("p5"); !p.Withdrawn || !p.Annulled {
		t.Errorf("p5 %+v", p)
	}
	rows := tr.Standings()[0].Rows
	last := rows[len(rows)-1]
	if last.Player != "p5" || !last.Annulled || last.Points != 0 || last.Played != 0 {
		t.Errorf("last row %+v", last)
	}
	for _, r := range rows {
		if r.Player == other && r.Played != 0 {
			t.Errorf("%s's game against p5 counts: %+v", other, r)
		}
	}
}

// TestWithdrawalAfterHalf: a player who has finished two of four games
// withdraws: those stand, the other two are lost; with rounds not yet
// started (ByRounds), their games come already lost.
func TestWithdrawalAfterHalf(t *testing.T) {
	for _, byRounds := range []bool{false, true} {
		tr := field(t, RoundRobin, 2, 5, Options{ByRounds: byRounds})
		tr.Pair()
		// p5 wins two games; the others' games, drawn, let the rounds go on.
		won := 0
		for range 10 {
			for _, g := range tr.Games {
				if s := g.seat("p5"); s >= 0 && g.Playable() && won < 2 {
					res := ResultOf(0, 1)
					if s == 0 {
						res = ResultOf(1, 0)
					}
					record(t, tr, g.Round, g.Board, res)
					won++
				}
			}
			if won == 2 {
				break
			}
			for _, g := range tr.Games {
				if g.Playable() && g.seat("p5") < 0 {
					record(t, tr, g.Round, g.Board, ResultOf(1, 1))
				}
			}
			tr.Pair()
		}
		stop, err := tr.Withdraw("p5")
		if err != nil {
			t.Fatal(err)
		}
		run(t, tr, rand.New(rand.NewPCG(5, 5)))
		if p, _ := tr.Player("p5"); !p.Withdrawn || p.Annulled {
			t.Errorf("by rounds %v: p5 %+v", byRounds, p)
		}
		var row Row
		for _, r := range tr.Standings()[0].Rows {
			if r.Player == "p5" {
				row = r
			}
		}
		if row.Points != 2*Unit || row.Played != 4 || row.Annulled {
			t.Errorf("by rounds %v: p5's row %+v (stopped %d)", byRounds, row, len(stop))
		}
		forfeits := 0
		for _, g := range tr.Games {
			if g.seat("p5") >= 0 && g.Result != nil && g.Result.Forfeit {
				forfeits++
			}
		}
		if forfeits != 2 {
			t.Errorf("by rounds %v: %d forfeits", byRounds, forfeits)
		}
	}
}

func TestRecordErrors(t *testing.T) {
	tr := field(t, RoundRobin, 2, 3, Options{})
	tr.Pair()
	g := filter(tr.Games, Game.Playable)[0]
	if err := tr.Record(9, 9, ResultOf(1, 0)); !errors.Is(err, ErrNoGame) {
		t.Errorf("no game: %v", err)
	}
	if err := tr.Record(g.Round, g.Board, ResultOf(1, 0, 0)); !errors.Is(err, ErrResult) {
		t.Errorf("three places: %v", err)
	}
	if err := tr.Record(g.Round, g.Board, Result{Places: []int{2, 2}}); !errors.Is(err, ErrResult) {
		t.Errorf("places 2, 2: %v", err)
	}
	record(t, tr, g.Round, g.Board, ResultOf(1, 0))
	record(t, tr, g.Round, g.Board, ResultOf(1, 0))
	if err := tr.Record(g.Round, g.Board, ResultOf(0, 1)); !errors.Is(err, ErrRecorded) {
		t.Errorf("another result: %v", err)
	}
	bye := filter(tr.Games, func(g Game) bool { return g.Bye })[0]
	if err := tr.Record(bye.Round, bye.Board, ResultOf(1, 0)); !errors.Is(err, ErrNoGame) {
		t.Errorf("a bye: %v", err)
	}
}

func TestJoinAndWithdrawBeforeTheStart(t *testing.T) {
	tr := field(t, Swiss, 2, 3, Options{Rounds: 2, MaxPlayers: 4})
	if err := tr.Join(Player{ID: "p1"}); !errors.Is(err, ErrJoined) {
		t.Errorf("joined twice: %v", err)
	}
	if err := tr.Join(Player{ID: "p4"}); err != nil {
		t.Fatal(err)
	}
	if err := tr.Join(Player{ID: "p5"}); !errors.Is(err, ErrFull) || !tr.Full() {
		t.Errorf("a fifth of four: %v", err)
	}
	if stop, err := tr.Withdraw("p4"); err != nil || stop != nil {
		t.Fatalf("withdraw: %v %v", stop, err)
	}
	if _, ok := tr.Player("p4"); ok || len(tr.Players) != 3 {
		t.Errorf("p4 still there: %v", tr.Players)
	}
	if _, err := tr.Withdraw("nobody"); !errors.Is(err, ErrNoPlayer) {
		t.Errorf("withdraw nobody: %v", err)
	}
	tr.Pair()
	if err := tr.Join(Player{ID: "p6"}); !errors.Is(err, ErrStarted) {
		t.Errorf("joined after the start: %v", err)
	}
}
