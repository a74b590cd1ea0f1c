package icefrogs_test

import (
	"math/rand/v2"
	"testing"

	"icepost/rules"
	"icepost/rules/icefrogs"
)

// ply is one position of a playout with the token of the move played
// from it.
type ply struct {
	pos icefrogs.Position
	tok string
}

// playouts plays random games on each board and seat count, with a fixed
// seed, and returns every position with the token of its move: what
// notation.Check decodes when it replays a record.
func playouts(tb testing.TB, games int) []ply {
	tb.Helper()
	rng := rand.New(rand.NewPCG(19, 4))
	var plies []ply
	var buf []rules.Move
	for i := range games {
		o := []rules.Options{{}, {Seats: 3}, {Board: "hex"}, {Board: "hex", Seats: 3}}[i%4]
		p, err := icefrogs.Start(o)
		if err != nil {
			tb.Fatal(err)
		}
		for p.ToMove() != 0 {
			buf = p.Moves(buf)
			m := buf[rng.IntN(len(buf))]
			plies = append(plies, ply{p, p.FormatMove(m)})
			p = p.Apply(m)
		}
	}
	return plies
}

// BenchmarkParseMove decodes the tokens of random playouts against their
// positions: one op is one token.
func BenchmarkParseMove(b *testing.B) {
	plies := playouts(b, 40)
	i := 0
	for b.Loop() {
		pl := &plies[i]
		if _, err := pl.pos.ParseMove(pl.tok); err != nil {
			b.Fatal(err)
		}
		if i++; i == len(plies) {
			i = 0
		}
	}
}

// BenchmarkCode compares the position code as a string with the code
// appended to a reused buffer (what the archive hashes): one op is one
// position.
func BenchmarkCode(b *testing.B) {
	plies := playouts(b, 40)
	b.Run("Code", func(b *testing.B) {
		i, n := 0, 0
		for b.Loop() {
			n += len(plies[i].pos.Code())
			if i++; i == len(plies) {
				i = 0
			}
		}
	})
	// The archive holds its positions as rules.State already.
	states := make([]rules.State, len(plies))
	for i := range plies {
		states[i] = plies[i].pos
	}
	b.Run("AppendCode", func(b *testing.B) {
		i := 0
		var buf []byte
		for b.Loop() {
			buf = rules.AppendCode(buf[:0], states[i])
			if i++; i == len(states) {
				i = 0
			}
		}
	})
}
