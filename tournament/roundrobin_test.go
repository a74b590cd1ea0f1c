package tournament

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBergerIsFIDEs: the tables for six are FIDE's, seat 1 first.
func TestBergerIsFIDEs(t *testing.T) {
	want := [][][2]int{
		{{1, 6}, {2, 5}, {3, 4}},
		{{6, 4}, {5, 3}, {1, 2}},
		{{2, 6}, {3, 1}, {4, 5}},
		{{6, 5}, {1, 4}, {2, 3}},
		{{3, 6}, {4, 2}, {5, 1}},
	}
	got := berger(6)
	for r := range want {
		for i := range want[r] {
			g := got[r][i]
			if g[0]+1 != want[r][i][0] || g[1]+1 != want[r][i][1] {
				t.Errorf("round %d table %d: %d-%d, want %d-%d", r+1, i+1, g[0]+1, g[1]+1, want[r][i][0], want[r][i][1])
			}
		}
	}
}

// TestRoundRobinDoubleOfFour: every pair meets twice, once in each seat;
// everyone sits three times in each seat; all twelve games start at once.
func TestRoundRobinDoubleOfFour(t *testing.T) {
	tr := field(t, RoundRobin, 2, 4, Options{Double: true})
	due, err := tr.Pair()
	if err != nil {
		t.Fatal(err)
	}
	if len(due) != 12 {
		t.Fatalf("%d games at once, want 12", len(due))
	}
	if again, _ := tr.Pair(); len(again) != 0 {
		t.Fatalf("paired again: %v", again)
	}
	first := map[[2]string]int{}
	for _, g := range due {
		first[[2]string{g.Players[0], g.Players[1]}]++
	}
	for i := 1; i <= 4; i++ {
		for j := 1; j <= 4; j++ {
			if i != j && first[[2]string{fmt.Sprintf("p%d", i), fmt.Sprintf("p%d", j)}] != 1 {
				t.Errorf("p%d in seat 1 against p%d: %d times", i, j, first[[2]string{fmt.Sprintf("p%d", i), fmt.Sprintf("p%d", j)}])
			}
		}
	}
	for id, s := range seatsOf(due, 2) {
		if s[0] != 3 || s[1] != 3 {
			t.Errorf("%s sat %v", id, s)
		}
	}
	tags := map[string]bool{}
	for _, g := range due {
		tags[g.Tag()] = true
	}
	if len(tags) != 12 {
		t.Errorf("%d distinct Round tags for 12 games", len(tags))
	}
	run(t, tr, rand.New(rand.NewPCG(4, 4)))
	if !tr.Done() {
		t.Error("not done")
	}
	if got := totalPoints(tr.Standings()); got != 12*Unit {
		t.Errorf("points add up to %s", got)
	}
}

// TestRoundRobinOddWithByes: five, seven and nine players: each round
// one bye, every player one bye and one game against each other, seats
// within one.
func TestRoundRobinOddWithByes(t *testing.T) {
	for _, n := range []int{5, 7, 9} {
		tr := field(t, RoundRobin, 2, n, Options{ByRounds: true})
		r := rand.New(rand.NewPCG(uint64(n), 5))
		calls := run(t, tr, r)
		if calls != n {
			t.Errorf("n=%d: %d rounds released, want %d", n, calls, n)
		}
		byes := map[string]int{}
		for round := 1; round <= n; round++ {
			games := tr.Round(round)
			count := 0
			for _, g := range games {
				if g.Bye {
					count++
					byes[g.Players[0]]++
				}
			}
			if count != 1 || len(games) != (n+1)/2 {
				t.Errorf("n=%d round %d: %d byes in %d boards", n, round, count, len(games))
			}
		}
		for i := 1; i <= n; i++ {
			if b := byes[fmt.Sprintf("p%d", i)]; b != 1 {
				t.Errorf("n=%d: p%d has %d byes", n, i, b)
			}
		}
		m := meetings(tr.Games)
		for i := 1; i <= n; i++ {
			for j := i + 1; j <= n; j++ {
				if c := m[[2]string{fmt.Sprintf("p%d", i), fmt.Sprintf("p%d", j)}]; c != 1 {
					t.Errorf("n=%d: p%d and p%d meet %d times", n, i, j, c)
				}
			}
		}
		for id, s := range seatsOf(tr.Games, 2) {
			if abs(s[0]-s[1]) > 1 {
				t.Errorf("n=%d: %s sat %v", n, id, s)
			}
		}
		row := tr.Standings()[0].Rows[0]
		if row.Byes != 1 || row.Played != n-1 {
			t.Errorf("n=%d: a row %+v", n, row)
		}
		if got := totalPoints(tr.Standings()); got != Points(n*(n-1)/2)*Unit {
			t.Errorf("n=%d: byes are worth something: points add up to %s", n, got)
		}
	}
}

// TestRoundRobinByRounds: a round starts only when the one before has
// ended, in each section on its own.
func TestRoundRobinByRounds(t *testing.T) {
	tr := field(t, RoundRobin, 2, 8, Options{ByRounds: true, Sections: 2})
	due, err := tr.Pair()
	if err != nil {
		t.Fatal(err)
	}
	if len(due) != 4 {
		t.Fatalf("round 1: %d games, want 4", len(due))
	}
	// Section 1's games end; section 2's do not.
	for _, g := range due {
		if g.Section == 1 {
			if err := tr.Record(g.Round, g.Board, ResultOf(1, 0)); err != nil {
				t.Fatal(err)
			}
		}
	}
	next, _ := tr.Pair()
	if len(next) != 2 {
		t.Fatalf("after section 1's round: %d games", len(next))
	}
	for _, g := range next {
		if g.Section != 1 || g.Round != 2 {
			t.Errorf("released %+v", g)
		}
	}
	if again, _ := tr.Pair(); len(again) != 0 {
		t.Errorf("released again: %v", again)
	}
}

// TestRoundRobinAtTables: at tables of three and four, for every field
// size up to the limit, every two players meet, everyone plays as many
// games, and sits in every seat exactly as often.
func TestRoundRobinAtTables(t *testing.T) {
	for _, k := range []int{3, 4} {
		for m := k; m <= maxTableSection; m++ {
			ids := make([]string, m)
			for i := range ids {
				ids[i] = fmt.Sprintf("p%d", i+1)
			}
			plan := tablePlan(ids, k)
			var games []Game
			for _, p := range plan {
				games = append(games, Game{Round: p.round, Players: p.players})
			}
			met := meetings(games)
			for i := range ids {
				for j := range ids {
					if i != j && met[[2]string{ids[i], ids[j]}] == 0 {
						t.Fatalf("k=%d m=%d: %s never meets %s", k, m, ids[i], ids[j])
					}
				}
			}
			seats := seatsOf(games, k)
			per := seats[ids[0]][0]
			for _, id := range ids {
				for s, c := range seats[id] {
					if c != per {
						t.Fatalf("k=%d m=%d: %s sits %v (seat %d)", k, m, id, seats[id], s+1)
					}
				}
			}
			for r := 1; r <= rounds(plan); r++ {
				seen := map[string]bool{}
				for _, p := range plan {
					if p.round == r {
						for _, id := range p.players {
							if seen[id] {
								t.Fatalf("k=%d m=%d: %s twice in round %d", k, m, id, r)
							}
							seen[id] = true
						}
					}
				}
			}
			if testing.Verbose() && (m <= 13 || m%9 == 0) {
				t.Logf("k=%d, %2d players: %3d tables, %2d games each (%d in each seat), %2d rounds", k, m, len(plan), per*k, per, rounds(plan))
			}
		}
	}
}

// TestRoundRobinOfFourAtFourSeats: four players at one four-seat table
// play four games, each player once in each seat.
func TestRoundRobinOfFourAtFourSeats(t *testing.T) {
	tr := field(t, RoundRobin, 4, 4, Options{})
	due, err := tr.Pair()
	if err != nil {
		t.Fatal(err)
	}
	if len(due) != 4 {
		t.Fatalf("%d games", len(due))
	}
	for id, s := range seatsOf(due, 4) {
		if !slices.Equal(s, []int{1, 1, 1, 1}) {
			t.Errorf("%s sat %v", id, s)
		}
	}
	for pair, c := range meetings(due) {
		if c != 4 {
			t.Errorf("%v meet %d times", pair, c)
		}
	}
	// Results by placing: seat 1 wins, seats 2 and 3 level, seat 4 last.
	for _, g := range due {
		if err := tr.Record(g.Round, g.Board, ResultOf(3, 2, 2, 1)); err != nil {
			t.Fatal(err)
		}
	}
	rows := tr.Standings()[0].Rows
	for _, r := range rows {
		// Each player once in each seat: 1 + ½ + ½ + 0.
		if r.Points != 2*Unit || r.Wins != 1 {
			t.Errorf("%s: %s points, %d wins", r.Player, r.Points, r.Wins)
		}
	}
	if !tr.Done() {
		t.Error("not done")
	}
}

// TestSectionsAndFinal: ten players in two sections, by rating in snake
// order; the winners play a final once both sections have ended.
func TestSectionsAndFinal(t *testing.T) {
	tr := field(t, RoundRobin, 2, 10, Options{Sections: 2, Final: true})
	due, err := tr.Pair()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"p1": 1, "p2": 2, "p3": 2, "p4": 1, "p5": 1, "p6": 2, "p7": 2, "p8": 1, "p9": 1, "p10": 2}
	for id, s := range want {
		if p, _ := tr.Player(id); p.Section != s {
			t.Errorf("%s in section %d, want %d", id, p.Section, s)
		}
	}
	due = filter(due, Game.Playable)
	if len(due) != 20 {
		t.Fatalf("%d games, want 2×10", len(due))
	}
	for _, g := range due {
		a, _ := tr.Player(g.Players[0])
		b, _ := tr.Player(g.Players[1])
		if a.Section != g.Section || b.Section != g.Section {
			t.Errorf("game %s across sections: %v", g.Tag(), g.Players)
		}
	}
	// The higher seed wins every game: p1 and p2 win their sections.
	for _, g := range due {
		a, _ := tr.Player(g.Players[0])
		b, _ := tr.Player(g.Players[1])
		res := ResultOf(1, 0)
		if b.Seed < a.Seed {
			res = ResultOf(0, 1)
		}
		if err := tr.Record(g.Round, g.Board, res); err != nil {
			t.Fatal(err)
		}
	}
	if tr.Done() {
		t.Fatal("done before the final")
	}
	final, err := tr.Pair()
	if err != nil {
		t.Fatal(err)
	}
	if len(final) != 1 || !final[0].Final || fmt.Sprint(final[0].Players) != "[p1 p2]" || final[0].Round != 6 {
		t.Fatalf("final %+v", final)
	}
	if err := tr.Record(final[0].Round, final[0].Board, ResultOf(1, 1)); err != nil {
		t.Fatal(err)
	}
	if !tr.Done() {
		t.Error("not done after the final")
	}
	groups := tr.Standings()
	if len(groups) != 3 || groups[2].Name != "Final" || groups[0].Name != "Section 1" {
		t.Fatalf("groups %v", groups)
	}
	if groups[2].Rows[0].Points != Unit/2 {
		t.Errorf("final %+v", groups[2].Rows)
	}
}

// TestRoundRobinValidation: settings a round robin refuses.
func TestRoundRobinValidation(t *testing.T) {
	for _, c := range []struct {
		seats int
		o     Options
	}{
		{5, Options{}},
		{3, Options{Double: true}},
		{2, Options{Final: true}},
		{4, Options{Sections: 3, Final: true}},
		{2, Options{Rounds: 3}},
		{2, Options{Reach: 2}},
	} {
		if _, err := New("x", RoundRobin, c.seats, c.o); err == nil {
			t.Errorf("%d seats, %+v: no error", c.seats, c.o)
		}
	}
	tr := field(t, RoundRobin, 4, 3, Options{})
	if _, err := tr.Pair(); err == nil {
		t.Error("three players at four seats: no error")
	}
	tr = field(t, RoundRobin, 2, 5, Options{Sections: 3})
	if _, err := tr.Pair(); err == nil {
		t.Error("five players in three sections: no error")
	}
}

// TestBergerSeats: in a single round robin of 2 to 16 players, every
// pair meets once and everyone's seats differ by one at most.
func TestBergerSeats(t *testing.T) {
	for n := 2; n <= 16; n++ {
		ids := make([]string, n)
		for i := range ids {
			ids[i] = fmt.Sprintf("p%d", i+1)
		}
		tr := &Tournament{Seats: 2}
		var games []Game
		for _, p := range tr.stagePlan(ids) {
			games = append(games, Game{Round: p.round, Players: p.players, Bye: p.bye})
		}
		for id, s := range seatsOf(games, 2) {
			if abs(s[0]-s[1]) > 1 {
				t.Errorf("n=%d: %s sat %v", n, id, s)
			}
		}
		if m := meetings(games); len(m) != n*(n-1) {
			t.Errorf("n=%d: %d ordered pairs meet", n, len(m))
		}
	}
}
