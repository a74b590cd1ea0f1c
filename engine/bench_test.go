package engine_test

import (
	"context"
	"testing"

	"icepost/engine"
	"icepost/rules"
	"icepost/rules/games"
)

// BenchmarkSearch searches a midgame position of each game at level 2 on
// one core and reports playouts per second: speed is strength.
//
//	go test -run XXX -bench Search ./engine/
func BenchmarkSearch(b *testing.B) {
	for _, g := range games.All() {
		b.Run(g.Name(), func(b *testing.B) {
			s := midgame(b, g, rules.Options{}, 20)
			playouts := 0
			for b.Loop() {
				p, _ := engine.New(engine.Config{Level: 2, Seed: 1, Workers: 1})
				c, err := p.Move(context.Background(), s)
				if err != nil {
					b.Fatal(err)
				}
				playouts += c.Playouts
			}
			b.ReportMetric(float64(playouts)/b.Elapsed().Seconds(), "playouts/s")
		})
	}
}
