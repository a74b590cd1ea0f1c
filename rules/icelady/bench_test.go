package icelady_test

import (
	"testing"
	"time"

	"icepost/rules/icelady"
)

// A middle game with kings, a tree and captures about.
const midGame = "IceLady 2l+m5/3m1m2/1s1s4/2S1s3/1S1L4/2M2S2/4M3/8 3 3 1"

func benchPerft(b *testing.B, p icelady.Position, depth int) {
	var nodes uint64
	start := time.Now()
	for b.Loop() {
		nodes += p.Perft(depth)
	}
	b.ReportMetric(float64(nodes)/time.Since(start).Seconds(), "nodes/s")
}

func BenchmarkPerftStart(b *testing.B) { benchPerft(b, icelady.Start(), 5) }

func BenchmarkPerftMidGame(b *testing.B) {
	p, err := icelady.ParsePosition(midGame)
	if err != nil {
		b.Fatal(err)
	}
	benchPerft(b, p, 4)
}
