package solve

import (
	"context"
	"os"
	"strconv"
	"testing"

	"icepost/engine"
	"icepost/rules"
	"icepost/rules/games"
)

// gamePositions plays a game of level-1 bots (seeded) and returns the
// positions before plies from..to, every step: real positions of a game,
// not random ones.
func gamePositions(b *testing.B, name string, opt rules.Options, seed uint64, from, to, step int) []rules.State {
	b.Helper()
	g, ok := games.Lookup(name)
	if !ok {
		b.Fatalf("no game %s", name)
	}
	s, err := g.Start(opt)
	if err != nil {
		b.Fatal(err)
	}
	movers := make([]engine.Mover, 2)
	for i := range movers {
		if movers[i], err = engine.New(engine.Config{Level: 1, Seed: 2*seed + uint64(i), Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
	moves, _, err := engine.PlayGame(context.Background(), s, movers, to)
	if err != nil {
		b.Fatal(err)
	}
	var out []rules.State
	for ply, m := range moves {
		if ply >= from && (ply-from)%step == 0 && !s.Outcome().Over {
			out = append(out, s)
		}
		if s, err = s.Play(m); err != nil {
			b.Fatal(err)
		}
	}
	return out
}

// BenchmarkWin3 asks Win for a win within three moves, with the default
// budget (or ICEPOST_SOLVE_BUDGET), in positions of three games between
// level-1 bots (plies 20 to 60, every 4th, of each game), and reports
// the time and the positions visited a call (the mean and the most), and
// the share of calls that found a win or ran out
// (docs/engine.md, "Exact search", has the figures):
//
//	go test -run XXX -bench Win3 -benchtime 10x ./solve/
func BenchmarkWin3(b *testing.B) {
	for _, v := range []struct {
		name string
		opt  rules.Options
	}{{"Pikemen", rules.Options{}}, {"IceSickle", rules.Options{}}, {"IceLady", rules.Options{}}, {"IceFrogs", rules.Options{Board: "star"}}, {"IceFrogs", rules.Options{Board: "hex"}}} {
		b.Run(v.name+v.opt.Board, func(b *testing.B) {
			var ps []rules.State
			for seed := range uint64(3) {
				ps = append(ps, gamePositions(b, v.name, v.opt, seed, 20, 60, 4)...)
			}
			if len(ps) == 0 {
				b.Skip("the game ended before ply 20")
			}
			budget := DefaultBudget
			if v := os.Getenv("ICEPOST_SOLVE_BUDGET"); v != "" {
				budget, _ = strconv.Atoi(v)
			}
			var visited, most, wins, exhausted, calls int
			for b.Loop() {
				for _, s := range ps {
					x := newSearcher(context.Background(), s, budget)
					r, err := x.win(s, 3)
					if err != nil {
						b.Fatal(err)
					}
					calls++
					visited += x.visited
					most = max(most, x.visited)
					if r.In > 0 {
						wins++
					}
					if r.Exhausted {
						exhausted++
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Seconds())/float64(calls), "s/call")
			b.ReportMetric(float64(visited)/float64(calls), "positions/call")
			b.ReportMetric(float64(most), "most-positions")
			b.ReportMetric(float64(wins)/float64(calls), "won")
			b.ReportMetric(float64(exhausted)/float64(calls), "exhausted")
		})
	}
}
