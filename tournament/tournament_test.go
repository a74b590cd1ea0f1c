package tournament

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
)

// kinds are the tournaments the property tests run.
var kinds = []struct {
	name   string
	format Format
	seats  int
	o      Options
	min    int // the fewest players it takes
}{
	{"round robin", RoundRobin, 2, Options{}, 2},
	{"double round robin by rounds", RoundRobin, 2, Options{Double: true, ByRounds: true}, 2},
	{"sections with a final", RoundRobin, 2, Options{Sections: 3, Final: true}, 6},
	{"three seats", RoundRobin, 3, Options{}, 3},
	{"four seats by rounds", RoundRobin, 4, Options{ByRounds: true}, 4},
	{"four seats in sections with a final", RoundRobin, 4, Options{Sections: 4, Final: true}, 16},
	{"swiss", Swiss, 2, Options{Rounds: 5}, 6},
	{"knockout", Knockout, 2, Options{}, 2},
}

// TestProperties: tournaments of every kind, of random sizes, random
// results and the odd withdrawal, run to the end by themselves: every
// game has its players in distinct seats, nobody plays twice in a round,
// the points add up to what the games gave, and running the same
// tournament twice, or through JSON between every call, gives the same
// bytes.
func TestProperties(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			for seed := range 30 {
				r := rand.New(rand.NewPCG(uint64(seed), 77))
				n := k.min + r.IntN(10)
				a := simulate(t, k.format, k.seats, n, k.o, uint64(seed), false)
				b := simulate(t, k.format, k.seats, n, k.o, uint64(seed), true)
				if !bytes.Equal(a, b) {
					t.Fatalf("seed %d: through JSON differs", seed)
				}
			}
		})
	}
}

// simulate runs a tournament of n players to its end, checking as it
// goes, and returns its JSON and its standings'. With viaJSON, the
// tournament is written and read back between every two calls.
func simulate(t *testing.T, f Format, seats, n int, o Options, seed uint64, viaJSON bool) []byte {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 1))
	tr := field(t, f, seats, n, o)
	for i := range tr.Players {
		tr.Players[i].Rating = float64(r.IntN(3))
	}
	reload := func() {
		if !viaJSON {
			return
		}
		b, err := json.Marshal(tr)
		if err != nil {
			t.Fatal(err)
		}
		tr = &Tournament{}
		if err := json.Unmarshal(b, tr); err != nil {
			t.Fatal(err)
		}
	}
	withdrawn := 0
	for step := 0; ; step++ {
		if step > 10000 {
			t.Fatal("no end")
		}
		reload()
		due, err := tr.Pair()
		if err != nil {
			t.Fatal(err)
		}
		reload()
		recorded := 0
		for _, g := range tr.Games {
			if g.Playable() && r.IntN(3) > 0 {
				if err := tr.Record(g.Round, g.Board, randomResult(r, len(g.Players))); err != nil {
					t.Fatal(err)
				}
				recorded++
			}
		}
		if withdrawn < 2 && r.IntN(40) == 0 {
			p := tr.Players[r.IntN(len(tr.Players))]
			if !p.Withdrawn {
				recorded++
				if _, err := tr.Withdraw(p.ID); err != nil {
					t.Fatal(err)
				}
				withdrawn++
			}
		}
		if len(due) == 0 && recorded == 0 && !hasPlayable(tr) {
			break
		}
	}
	if !tr.Done() {
		t.Fatalf("seed %d: not done: %s", seed, dump(tr))
	}
	check(t, tr)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	if err := enc.Encode(tr); err != nil {
		t.Fatal(err)
	}
	if err := enc.Encode(tr.Standings()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func hasPlayable(tr *Tournament) bool {
	for _, g := range tr.Games {
		if g.Playable() {
			return true
		}
	}
	return false
}

// check is what holds of any tournament.
func check(t *testing.T, tr *Tournament) {
	t.Helper()
	tags := map[string]bool{}
	perRound := map[string]bool{}
	for _, g := range tr.Games {
		if tags[g.Tag()] {
			t.Fatalf("two games %s", g.Tag())
		}
		tags[g.Tag()] = true
		seen := map[string]bool{}
		for _, id := range g.Players {
			if seen[id] {
				t.Fatalf("game %s seats %s twice", g.Tag(), id)
			}
			seen[id] = true
			if _, ok := tr.Player(id); !ok {
				t.Fatalf("game %s: %s is not a player", g.Tag(), id)
			}
			key := fmt.Sprint(g.Round, id, g.Final)
			if tr.Format != Knockout && perRound[key] {
				t.Fatalf("%s plays twice in round %d", id, g.Round)
			}
			perRound[key] = true
		}
		if len(g.Players) != tr.Seats && !g.Bye {
			t.Fatalf("game %s has %d players", g.Tag(), len(g.Players))
		}
	}
	// Every point comes from a counted game or a Swiss bye.
	var want Points
	for _, g := range tr.Games {
		if g.counted() {
			for _, p := range pointsOf(*g.Result) {
				want += p
			}
		}
		if g.Bye && tr.Format == Swiss {
			want += Unit
		}
	}
	if got := totalPoints(tr.Standings()); tr.Format != Knockout && got != want {
		t.Fatalf("standings add up to %s, the games to %s", got, want)
	}
}
