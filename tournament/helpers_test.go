package tournament

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
)

// field makes a tournament of n players "p1".."pn", p1 rated highest.
func field(t testing.TB, f Format, seats, n int, o Options) *Tournament {
	t.Helper()
	tr, err := New("test", f, seats, o)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		if err := tr.Join(Player{ID: fmt.Sprintf("p%d", i), Rating: float64(2000 - 10*i)}); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

// randomResult is a result of a game of k seats: for two seats 1-0 and
// 0-1 two in five each, a draw one in five; for more, random scores of 0
// to 2 (ties likely).
func randomResult(r *rand.Rand, k int) Result {
	if k == 2 {
		switch x := r.IntN(5); {
		case x < 2:
			return ResultOf(1, 0)
		case x < 4:
			return ResultOf(0, 1)
		}
		return ResultOf(1, 1)
	}
	scores := make([]float64, k)
	for i := range scores {
		scores[i] = float64(r.IntN(3))
	}
	return ResultOf(scores...)
}

// finish records a random result for every playable game, and says how
// many.
func finish(t testing.TB, tr *Tournament, r *rand.Rand) int {
	t.Helper()
	n := 0
	for _, g := range tr.Games {
		if g.Playable() {
			if err := tr.Record(g.Round, g.Board, randomResult(r, len(g.Players))); err != nil {
				t.Fatal(err)
			}
			n++
		}
	}
	return n
}

// run pairs and finishes games until nothing is due, returning the
// number of Pair calls that gave games.
func run(t *testing.T, tr *Tournament, r *rand.Rand) int {
	t.Helper()
	calls := 0
	for range 1000 {
		due, err := tr.Pair()
		if err != nil {
			t.Fatal(err)
		}
		if finish(t, tr, r) == 0 && len(due) == 0 {
			if !tr.Done() {
				t.Fatalf("nothing due and not done: %s", dump(tr))
			}
			return calls
		}
		calls++
	}
	t.Fatal("no end")
	return calls
}

func dump(tr *Tournament) string {
	b, _ := json.MarshalIndent(tr, "", " ")
	return string(b)
}

// seatsOf counts each player's games in each seat (byes not).
func seatsOf(games []Game, seats int) map[string][]int {
	out := map[string][]int{}
	for _, g := range games {
		if g.Bye || g.Annulled {
			continue
		}
		for s, id := range g.Players {
			if out[id] == nil {
				out[id] = make([]int, seats)
			}
			out[id][s]++
		}
	}
	return out
}

// meetings counts the games each two players share.
func meetings(games []Game) map[[2]string]int {
	out := map[[2]string]int{}
	for _, g := range games {
		if g.Bye {
			continue
		}
		for _, a := range g.Players {
			for _, b := range g.Players {
				if a != b {
					out[[2]string{a, b}]++
				}
			}
		}
	}
	return out
}

// totalPoints is the sum of every row's points.
func totalPoints(groups []Group) Points {
	var sum Points
	for _, g := range groups {
		for _, r := range g.Rows {
			sum += r.Points
		}
	}
	return sum
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
