package icelady_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"icepost/rules"
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

// playoutTokens plays seeded random games from the start and returns each
// position with the canonical token of the move played there: the work of
// replaying a record.
func playoutTokens(games int) ([]icelady.Position, []string) {
	rng := rand.New(rand.NewPCG(19, 1))
	var ps []icelady.Position
	var toks []string
	for range games {
		p := icelady.Start()
		for ply := 0; ply < 1000; ply++ {
			moves := p.Moves(nil)
			if len(moves) == 0 {
				break
			}
			m := moves[rng.IntN(len(moves))]
			ps = append(ps, p)
			toks = append(toks, p.FormatMove(m))
			p = p.Apply(m)
		}
	}
	return ps, toks
}

// BenchmarkParseMove decodes the tokens of random playouts against their
// positions, as a replay does: one op is one token.
func BenchmarkParseMove(b *testing.B) {
	ps, toks := playoutTokens(50)
	i := 0
	for b.Loop() {
		if _, err := ps[i].ParseMove(toks[i]); err != nil {
			b.Fatal(err)
		}
		if i++; i == len(ps) {
			i = 0
		}
	}
}

// BenchmarkCode and BenchmarkAppendCode write the position codes of the
// same playouts, as a string and into a reused buffer: one op is one
// position.
func BenchmarkCode(b *testing.B) {
	ps, _ := playoutTokens(50)
	i := 0
	for b.Loop() {
		codeSink = ps[i].Code()
		if i++; i == len(ps) {
			i = 0
		}
	}
}

var codeSink string

func BenchmarkAppendCode(b *testing.B) {
	ps, _ := playoutTokens(50)
	// As the archive holds them: States, boxed once, outside the loop.
	states := make([]rules.State, len(ps))
	for i, p := range ps {
		states[i] = p
	}
	var buf []byte
	i := 0
	for b.Loop() {
		buf = rules.AppendCode(buf[:0], states[i])
		if i++; i == len(states) {
			i = 0
		}
	}
}
