package icesickle_test

import (
	"math/rand/v2"
	"testing"

	"icepost/rules"
	"icepost/rules/icesickle"
)

// ply is one position of a playout and the canonical token of the move
// played from it.
type ply struct {
	s   rules.State
	tok string
}

// playouts plays n random games from the start with a fixed seed and
// returns every ply, so that benchmarks decode the tokens a record holds.
func playouts(tb testing.TB, n int) []ply {
	tb.Helper()
	rng := rand.New(rand.NewPCG(19, 5))
	var out []ply
	var buf []rules.Move
	for range n {
		var s rules.State = icesickle.Start()
		for s.ToMove() != 0 {
			buf = s.Moves(buf)
			m := buf[rng.IntN(len(buf))]
			out = append(out, ply{s, s.FormatMove(m)})
			next, err := s.Play(m)
			if err != nil {
				tb.Fatal(err)
			}
			s = next
		}
		out = append(out, ply{s, ""})
	}
	return out
}

// BenchmarkParseMove decodes every token of 20 random games against its
// position, through rules.State as a replay does: one op is one token.
func BenchmarkParseMove(b *testing.B) {
	var plies []ply
	for _, p := range playouts(b, 20) {
		if p.tok != "" {
			plies = append(plies, p)
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p := plies[i]
		if _, err := p.s.ParseMove(p.tok); err != nil {
			b.Fatal(err)
		}
		if i++; i == len(plies) {
			i = 0
		}
	}
}

// BenchmarkCode writes the code of every position of 20 random games,
// as a string (Code) and into a reused buffer (rules.AppendCode, as the
// archive hashes them): one op is one position.
func BenchmarkCode(b *testing.B) {
	plies := playouts(b, 20)
	b.Run("Code", func(b *testing.B) {
		b.ReportAllocs()
		i, n := 0, 0
		for b.Loop() {
			n += len(plies[i].s.Code())
			if i++; i == len(plies) {
				i = 0
			}
		}
		_ = n
	})
	b.Run("AppendCode", func(b *testing.B) {
		b.ReportAllocs()
		var buf []byte
		i := 0
		for b.Loop() {
			buf = rules.AppendCode(buf[:0], plies[i].s)
			if i++; i == len(plies) {
				i = 0
			}
		}
	})
}
