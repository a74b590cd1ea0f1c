package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkSwissRound: pairing one round of a Swiss of n players in its
// fifth round.
func BenchmarkSwissRound(b *testing.B) {
	for _, n := range []int{16, 64, 256} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 1))
			tr := field(b, Swiss, 2, n, Options{Rounds: 9})
			for range 4 {
				tr.Pair()
				finish(b, tr, r)
			}
			data := dump(tr)
			b.ResetTimer()
			for b.Loop() {
				var c Tournament
				if err := jsonUnmarshal(data, &c); err != nil {
					b.Fatal(err)
				}
				if due, err := c.Pair(); err != nil || len(due) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRoundRobinRelease: Pair in the middle of a double round robin
// of 30 by rounds (870 games planned).
func BenchmarkRoundRobinRelease(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	tr := field(b, RoundRobin, 2, 30, Options{Double: true, ByRounds: true})
	for range 20 {
		tr.Pair()
		finish(b, tr, r)
	}
	for b.Loop() {
		tr.Pair()
	}
}
