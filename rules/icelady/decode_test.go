package icelady_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"icepost/rules"
	"icepost/rules/icelady"
)

// decodePositions returns positions of random playouts and random codes
// (kings, trees and joins about) for the fast path's tests.
func decodePositions(t *testing.T, playouts, codes int) []icelady.Position {
	rng := rand.New(rand.NewPCG(19, 23))
	var ps []icelady.Position
	for range playouts {
		p := icelady.Start()
		for {
			ps = append(ps, p)
			moves := p.Moves(nil)
			if len(moves) == 0 {
				break
			}
			p = p.Apply(moves[rng.IntN(len(moves))])
		}
	}
	// Captures that end by joining a king, by a small and by a medium,
	// with more to capture beyond; and a join that is the only legal move.
	for _, code := range []string{
		"IceLady 3L+M4/2s1s3/1S6/8/8/8/8/8 3 4 1",
		"IceLady 3L4/3m4/3M1s2/8/8/8/8/8 3 4 1",
		"IceLady Lmm5/sS6/s7/8/8/8/8/8 3 4 1",
	} {
		p, err := icelady.ParsePosition(code)
		if err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		ps = append(ps, p)
	}
	for range codes {
		code := randomCode(rng)
		p, err := icelady.ParsePosition(code)
		if err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		ps = append(ps, p)
	}
	return ps
}

func sqName(sq int) string { return string([]byte{byte('a' + sq%8), byte('1' + sq/8)}) }

// TestDecodeAgreesWithMoves checks the targeted tests against move
// generation: the game is over exactly when Moves lists nothing; and
// ParseMove's fast path agrees with Moves both ways: every legal move, in every spelling, is decoded
// by the fast path to the very Move that Moves lists; and every token from
// a square to a square (both joiners, with and without =K), and every
// legal chain cut short, made longer or bent, is accepted by the fast path
// only when Moves lists it.
func TestDecodeAgreesWithMoves(t *testing.T) {
	playouts, codes := 30, 800
	if testing.Short() || raceEnabled {
		playouts, codes = 20, 200
	}
	rng := rand.New(rand.NewPCG(29, 31))
	var accepted, offered int
	for _, p := range decodePositions(t, playouts, codes) {
		code := p.Code()
		moves := p.Moves(nil)
		if over := p.Outcome().Over; over != (len(moves) == 0) || (p.ToMove() == 0) != over {
			t.Fatalf("%s: Outcome().Over = %v, ToMove %d, with %d legal moves", code, over, p.ToMove(), len(moves))
		}
		legal := map[rules.Move]bool{}
		for _, m := range moves {
			legal[m] = true
			tok := p.FormatMove(m)
			spellings := []string{tok, strings.ToUpper(tok), strings.ToLower(tok)}
			if m.Arg == 1 {
				spellings = append(spellings, strings.TrimSuffix(tok, "=K")+"=L", strings.TrimSuffix(tok, "=K")+"=l")
			}
			for _, s := range spellings {
				if got, ok := icelady.FastParse(p, s); !ok || got != m {
					t.Fatalf("%s: fast path on %q = %+v, %v; want %+v", code, s, got, ok, m)
				}
			}
		}
		check := func(tok string) {
			offered++
			got, ok := icelady.FastParse(p, tok)
			if !ok {
				return
			}
			accepted++
			if !legal[got] {
				t.Fatalf("%s: fast path accepted %q as %+v, not a legal move", code, tok, got)
			}
			if slow, err := p.ParseMove(tok); err != nil || slow != got {
				t.Fatalf("%s: %q: fast %+v, ParseMove %+v, %v", code, tok, got, slow, err)
			}
		}
		// Every two-square token: accepted exactly when legal.
		for from := 0; from < 64; from++ {
			for to := 0; to < 64; to++ {
				for _, sep := range []string{"-", "x"} {
					for _, prom := range []string{"", "=K"} {
						tok := sqName(from) + sep + sqName(to) + prom
						m := rules.Move{Kind: icelady.Step, N: 2}
						if sep == "x" {
							m.Kind = icelady.Capture
						}
						if prom != "" {
							m.Arg = 1
						}
						m.Path[0], m.Path[1] = uint8(from), uint8(to)
						got, ok := icelady.FastParse(p, tok)
						if ok != legal[m] || ok && got != m {
							t.Fatalf("%s: fast path on %q = %+v, %v; legal %v", code, tok, got, ok, legal[m])
						}
					}
				}
			}
		}
		// Chains cut short, made longer, bent, with =K toggled.
		for _, m := range moves {
			if m.Kind != icelady.Capture {
				continue
			}
			tok := strings.TrimSuffix(p.FormatMove(m), "=K")
			parts := strings.Split(tok, "x")
			check(tok)
			check(tok + "=K")
			for i := 2; i < len(parts); i++ {
				check(strings.Join(parts[:i], "x"))
				check(strings.Join(parts[:i], "x") + "=K")
			}
			for sq := 0; sq < 64; sq++ {
				check(tok + "x" + sqName(sq))
				check(tok + "x" + sqName(sq) + "=K")
				bent := append([]string(nil), parts...)
				bent[1+rng.IntN(len(parts)-1)] = sqName(sq)
				check(strings.Join(bent, "x"))
			}
		}
	}
	t.Logf("%d near-legal tokens offered, %d accepted", offered, accepted)
}

// TestParseMoveDoesNotAllocate: decoding a legal move allocates nothing.
func TestParseMoveDoesNotAllocate(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	ps, toks := playoutTokens(5)
	i := 0
	allocs := testing.AllocsPerRun(1000, func() {
		if _, err := ps[i].ParseMove(toks[i]); err != nil {
			t.Fatal(err)
		}
		i = (i + 1) % len(ps)
	})
	if allocs != 0 {
		t.Errorf("ParseMove allocates %v times per legal token, want 0", allocs)
	}
	var buf []byte
	for _, p := range ps {
		buf = p.AppendCode(buf[:0])
	}
	allocs = testing.AllocsPerRun(100, func() { buf = ps[i%len(ps)].AppendCode(buf[:0]); i++ })
	if allocs != 0 {
		t.Errorf("AppendCode into a buffer with room allocates %v times, want 0", allocs)
	}
	if allocs = testing.AllocsPerRun(100, func() { _ = ps[i%len(ps)].Code(); i++ }); allocs > 1 {
		t.Errorf("Code allocates %v times, want 1 (the string)", allocs)
	}
}
