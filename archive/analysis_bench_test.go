//go:build unix

package archive

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// BenchmarkAnalyze is archive analyze's cost a game: each iteration
// stores one game of random moves, cut at 100 plies (IceSickle and
// IceLady games end sooner), in a new archive and analyses it with
// Analyze at level ICEPOST_BENCH_LEVEL (default 3), one worker. It
// reports the process's CPU seconds a game (the machine is shared: wall
// time is not the analysis's), the plies, and the games an hour a core
// that rate gives for 100-ply games (the aim: 200 or more).
//
//	go test -run XXX -bench Analyze -benchtime 3x ./archive/
func BenchmarkAnalyze(b *testing.B) {
	level := 3
	if v, err := strconv.Atoi(os.Getenv("ICEPOST_BENCH_LEVEL")); err == nil && v > 0 {
		level = v
	}
	kinds := []struct {
		name string
		opt  rules.Options
	}{
		{"IceSickle", rules.Options{}},
		{"Pikemen", rules.Options{}},
		{"IceLady", rules.Options{}},
		{"IceFrogs", rules.Options{}},
	}
	for _, k := range kinds {
		b.Run(k.name, func(b *testing.B) {
			g, _ := games.Lookup(k.name)
			start, err := g.Start(k.opt)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			var cpu time.Duration
			plies := 0
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				moves := notation.RandomGame(start, rand.New(rand.NewPCG(uint64(i), 9)), 100)
				rec, err := notation.FromMoves(nil, start, moves)
				if err != nil {
					b.Fatal(err)
				}
				a, err := Open(ctx, filepath.Join(b.TempDir(), "a.db"))
				if err != nil {
					b.Fatal(err)
				}
				importText(b, a, rec.String())
				b.StartTimer()
				before := processCPU()
				st, err := a.Analyze(ctx, Query{}, AnalyzeOptions{Level: level, Workers: 1, Seed: 1})
				cpu += processCPU() - before
				b.StopTimer()
				if err != nil || st.Analysed != 1 {
					b.Fatalf("%+v %v", st, err)
				}
				plies += len(moves)
				a.Close()
				b.StartTimer()
			}
			perGame := cpu.Seconds() / float64(b.N)
			perPly := cpu.Seconds() / float64(plies)
			b.ReportMetric(perGame, "cpu-s/game")
			b.ReportMetric(float64(plies)/float64(b.N), "plies/game")
			b.ReportMetric(3600/(100*perPly), "games/h/core@100plies")
		})
	}
}

// processCPU is the CPU time the process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
