package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestSwissSixThreeRounds: a Swiss of six over three rounds, under many
// random results: nobody meets anyone twice, everyone plays once a round,
// seats balance within one, and the points add up to the games played.
func TestSwissSixThreeRounds(t *testing.T) {
	for seed := range 300 {
		r := rand.New(rand.NewPCG(uint64(seed), 6))
		tr := field(t, Swiss, 2, 6, Options{Rounds: 3})
		run(t, tr, r)
		if !tr.Done() || tr.Ended || tr.Rounds() != 3 {
			t.Fatalf("seed %d: done %v, ended %v, %d rounds", seed, tr.Done(), tr.Ended, tr.Rounds())
		}
		for pair, n := range meetings(tr.Games) {
			if n > 1 {
				t.Fatalf("seed %d: %v met %d times", seed, pair, n)
			}
		}
		for round := 1; round <= 3; round++ {
			seen := map[string]int{}
			for _, g := range tr.Round(round) {
				for _, id := range g.Players {
					seen[id]++
				}
			}
			if len(seen) != 6 {
				t.Fatalf("seed %d round %d: %d players", seed, round, len(seen))
			}
			for id, n := range seen {
				if n != 1 {
					t.Fatalf("seed %d round %d: %s plays %d times", seed, round, id, n)
				}
			}
		}
		for id, s := range seatsOf(tr.Games, 2) {
			if abs(s[0]-s[1]) > 1 {
				t.Fatalf("seed %d: %s sat %v", seed, id, s)
			}
		}
		if got := totalPoints(tr.Standings()); got != Points(len(tr.Games))*Unit {
			t.Fatalf("seed %d: points add up to %s for %d games", seed, got, len(tr.Games))
		}
	}
}

// TestSwissByes: with an odd number, one bye a round, worth a win, and
// nobody gets a second while another player has none.
func TestSwissByes(t *testing.T) {
	for _, n := range []int{3, 5, 7, 9} {
		for seed := range 40 {
			r := rand.New(rand.NewPCG(uint64(seed), uint64(n)))
			rounds := min(n, 6)
			tr := field(t, Swiss, 2, n, Options{Rounds: rounds})
			byes := map[string]int{}
			for {
				due, err := tr.Pair()
				if err != nil {
					t.Fatal(err)
				}
				if len(due) == 0 {
					break
				}
				count := 0
				for _, g := range due {
					if g.Bye {
						count++
						byes[g.Players[0]]++
					}
				}
				if count != 1 {
					t.Fatalf("n=%d seed %d: %d byes in a round", n, seed, count)
				}
				lo, hi := 1<<30, 0
				for i := 1; i <= n; i++ {
					b := byes[fmt.Sprintf("p%d", i)]
					lo, hi = min(lo, b), max(hi, b)
				}
				if hi-lo > 1 {
					t.Fatalf("n=%d seed %d: byes %v", n, seed, byes)
				}
				finish(t, tr, r)
			}
			want := Points(len(tr.Games)) * Unit
			if got := totalPoints(tr.Standings()); got != want {
				t.Fatalf("n=%d seed %d: points %s, want %s (a game or a bye each)", n, seed, got, want)
			}
		}
	}
}

// TestSwissFirstRound: the first round pairs the top half against the
// bottom half, seed 1 v 4, 2 v 5, 3 v 6, seat 1 alternating.
func TestSwissFirstRound(t *testing.T) {
	tr := field(t, Swiss, 2, 6, Options{Rounds: 3})
	due, err := tr.Pair()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"p1", "p4"}, {"p5", "p2"}, {"p3", "p6"}}
	if len(due) != 3 {
		t.Fatalf("%d games", len(due))
	}
	for i, g := range due {
		if fmt.Sprint(g.Players) != fmt.Sprint(want[i]) || g.Board != i+1 || g.Round != 1 {
			t.Errorf("board %d: %v (%d.%d), want %v", i+1, g.Players, g.Round, g.Board, want[i])
		}
	}
}

// pairingCost is the summed cost of the field's pairing mate.
func pairingCost(f *swissField, mate []int) pairCost {
	var sum pairCost
	for i, j := range mate {
		if i < j {
			c, ok := f.cost(i, j)
			if !ok {
				panic("a pair not allowed")
			}
			for l := range sum {
				sum[l] += c[l]
			}
		}
	}
	return sum
}

// bruteSwiss is the least summed cost, level by level, over every
// pairing of the field that takes in everyone, found by trying them all;
// false if there is none.
func bruteSwiss(f *swissField) (pairCost, bool) {
	v := f.vertices()
	used := make([]bool, v)
	var best, cur pairCost
	found := false
	var rec func()
	rec = func() {
		i := 0
		for i < v && used[i] {
			i++
		}
		if i == v {
			if !found || less(cur, best) {
				best, found = cur, true
			}
			return
		}
		used[i] = true
		for j := i + 1; j < v; j++ {
			if used[j] {
				continue
			}
			c, ok := f.cost(i, j)
			if !ok {
				continue
			}
			used[j] = true
			for l := range cur {
				cur[l] += c[l]
			}
			rec()
			for l := range cur {
				cur[l] -= c[l]
			}
			used[j] = false
		}
		used[i] = false
	}
	rec()
	return best, found
}

func less(a, b pairCost) bool {
	for l := range a {
		if a[l] != b[l] {
			return a[l] < b[l]
		}
	}
	return false
}

// TestSwissAgainstBruteForce is the check of pairing quality: on
// every field of two to eight players, over four rounds of random
// results (and over all the rounds the field allows, half the time),
// 300 times each, each round's pairing
// is as good as the best of all pairings, compared level by level (no
// absolute seat imbalance, then score differences, then seat
// preferences, then the order in score groups); and when brute force
// finds no pairing without a rematch, the tournament ends there.
func TestSwissAgainstBruteForce(t *testing.T) {
	rounds, ended := 0, 0
	var levels pairCost // rounds whose best pairing costs something at each level
	for n := 2; n <= 8; n++ {
		for seed := range 300 {
			r := rand.New(rand.NewPCG(uint64(seed), uint64(100+n)))
			// The four rounds, and every second time as many as the
			// field allows, where seats run out of balance.
			most := n - 1 + n%2
			tr := field(t, Swiss, 2, n, Options{Rounds: min(4, most)})
			if seed%2 == 1 {
				tr.Options.Rounds = most
			}
			// Shuffle the ratings so that seeds and joining order differ.
			for i := range tr.Players {
				tr.Players[i].Rating = float64(r.IntN(5))
			}
			for {
				var f *swissField
				var want pairCost
				var possible bool
				if tr.Started && tr.Rounds() < tr.Options.Rounds && !tr.Ended {
					f = tr.swissField()
					want, possible = bruteSwiss(f)
				}
				due, err := tr.Pair()
				if err != nil {
					t.Fatal(err)
				}
				if f != nil {
					switch {
					case !possible && !tr.Ended:
						t.Fatalf("n=%d seed %d round %d: paired where brute force finds no pairing", n, seed, tr.Rounds())
					case possible && tr.Ended:
						t.Fatalf("n=%d seed %d: ended where brute force pairs, at cost %v", n, seed, want)
					case possible:
						mate, _, err := f.match()
						if err != nil {
							t.Fatal(err)
						}
						if got := pairingCost(f, mate); got != want {
							t.Fatalf("n=%d seed %d round %d: pairing costs %v, brute force %v", n, seed, tr.Rounds(), got, want)
						}
						rounds++
						for l := range want {
							if want[l] > 0 {
								levels[l]++
							}
						}
					default:
						ended++
					}
				}
				if len(due) == 0 {
					break
				}
				finish(t, tr, r)
			}
		}
	}
	t.Logf("%d rounds compared with brute force (costing something at each level: %v); %d ended early, as brute force agreed", rounds, levels, ended)
}

// TestSwissEndsEarly: four players over three rounds is a round robin;
// a fourth round cannot be asked for, and when results leave no pairing
// without a rematch the tournament ends (Done) rather than repeat a game.
func TestSwissEndsEarly(t *testing.T) {
	if _, err := field(t, Swiss, 2, 4, Options{Rounds: 4}).Pair(); err == nil {
		t.Error("four rounds for four players: no error")
	}
	tr := field(t, Swiss, 2, 4, Options{Rounds: 3})
	r := rand.New(rand.NewPCG(1, 2))
	run(t, tr, r)
	for pair, n := range meetings(tr.Games) {
		if n > 1 {
			t.Fatalf("%v met %d times", pair, n)
		}
	}
}

// TestSwissWithdrawal: a player who withdraws loses the game under way
// and is paired no more; their finished games stand.
func TestSwissWithdrawal(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	tr := field(t, Swiss, 2, 6, Options{Rounds: 4})
	if _, err := tr.Pair(); err != nil {
		t.Fatal(err)
	}
	finish(t, tr, r)
	due, _ := tr.Pair()
	stop, err := tr.Withdraw("p2")
	if err != nil {
		t.Fatal(err)
	}
	if len(stop) != 1 || stop[0].Result == nil || !stop[0].Result.Forfeit || stop[0].Round != 2 {
		t.Fatalf("stopped %+v", stop)
	}
	if _, err := tr.Withdraw("p2"); err == nil {
		t.Error("withdrew twice")
	}
	_ = due
	finish(t, tr, r)
	run(t, tr, r)
	for _, g := range tr.Games {
		if g.Round > 2 && g.seat("p2") >= 0 {
			t.Fatalf("p2 paired after withdrawing: %+v", g)
		}
	}
	for _, row := range tr.Standings()[0].Rows {
		if row.Player == "p2" && (!row.Withdrawn || row.Played != 2) {
			t.Errorf("p2's row: %+v", row)
		}
	}
}
