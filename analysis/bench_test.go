//go:build unix

package analysis

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"icepost/engine"
	"icepost/notation"
	"icepost/rules"
	"icepost/rules/pikemen"
)

// BenchmarkAnalyze100 analyses a 100-ply Pikemen game (level-1 bots to
// 30 points, cut at 100 plies: a Pikemen game to 12 between good players
// is shorter) at levels 2 and 3 (the default) on all cores, and reports the seconds
// per game and per move, and the CPU seconds per game (on a machine
// others share, the wall time says little; docs/engine.md, "Analysis",
// has the figures):
//
//	go test -run XXX -bench Analyze100 -benchtime 1x ./analysis/
func BenchmarkAnalyze100(b *testing.B) {
	ctx := context.Background()
	start, err := pikemen.Game.Start(rules.Options{Target: 30})
	if err != nil {
		b.Fatal(err)
	}
	movers := make([]engine.Mover, 2)
	for i := range movers {
		if movers[i], err = engine.New(engine.Config{Level: 1, Seed: uint64(i) + 1, Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
	moves, _, err := engine.PlayGame(ctx, start, movers, 100)
	if err != nil || len(moves) != 100 {
		b.Fatalf("the game: %d plies, %v", len(moves), err)
	}
	g := notation.NewGame(start, nil)
	for _, m := range moves {
		if err := g.Play(m, ""); err != nil {
			b.Fatal(err)
		}
	}
	text := g.Record.String()
	for _, level := range []int{2, DefaultLevel} {
		b.Run(fmt.Sprintf("level%d", level), func(b *testing.B) {
			cpu0 := cpuTime()
			for b.Loop() {
				recs, errs := notation.Parse("bench", []byte(text))
				if len(errs) > 0 {
					b.Fatal(errs)
				}
				if _, err := Analyze(ctx, recs[0], Options{Level: level, Seed: 1}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/game")
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/game")
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/100, "s/move")
		})
	}
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
