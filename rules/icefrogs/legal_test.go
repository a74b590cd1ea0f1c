package icefrogs

import (
	"math/rand/v2"
	"slices"
	"testing"

	"icepost/rules"
)

// TestLegalAgreesWithCheck: ParseMove's fast test (legal) accepts exactly
// the moves that check finds nothing wrong with and Moves lists, for
// every listed move and for many near misses and random paths, in the
// positions of random games on both boards with 2 and 3 seats.
func TestLegalAgreesWithCheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 37))
	var buf []rules.Move
	tried, accepted := 0, 0
	try := func(p *Position, moves []rules.Move, m rules.Move) {
		tried++
		// Keep the path as parsePath builds it: zero past N.
		for i := int(m.N); i < rules.MaxPath; i++ {
			m.Path[i] = 0
		}
		got := p.legal(&m)
		why := p.check(m)
		listed := slices.Contains(moves, m)
		if got != (why == "") || got != listed {
			t.Fatalf("%s: %s: legal %v, check %q, listed %v", p.Code(), p.FormatMove(m), got, why, listed)
		}
		if got {
			accepted++
		}
	}
	for i := range 100 {
		o := []rules.Options{{}, {Seats: 3}, {Board: "hex"}, {Board: "hex", Seats: 3}}[i%4]
		p, err := Start(o)
		if err != nil {
			t.Fatal(err)
		}
		for p.ToMove() != 0 {
			buf = p.Moves(buf)
			moves := slices.Clone(buf)
			g := p.geo()
			for _, m := range moves {
				if m.Kind == Pass {
					continue
				}
				try(&p, moves, m)
				// Near misses: one cell moved to a neighbour, one cell
				// fewer, one more, the other kind, another size.
				k := rng.IntN(int(m.N))
				if n := g.nb[m.Path[k]][rng.IntN(6)]; n != none {
					mm := m
					mm.Path[k] = n
					try(&p, moves, mm)
				}
				if m.N > 2 {
					mm := m
					mm.N--
					try(&p, moves, mm)
				}
				if m.N < rules.MaxPath {
					mm := m
					last := m.Path[m.N-1]
					if n := g.nb[last][rng.IntN(6)]; n != none {
						mm.Add(n)
						try(&p, moves, mm)
					}
					d := rng.IntN(6) // a hop along a line
					if n := g.nb[last][d]; n != none && g.nb[n][d] != none {
						mm = m
						mm.Add(g.nb[n][d])
						try(&p, moves, mm)
					}
				}
				mm := m
				if m.Kind == Enter {
					mm.Kind, mm.Size = Step, 0
				} else {
					mm.Kind, mm.Size = Enter, uint8(1+rng.IntN(3))
				}
				try(&p, moves, mm)
				if m.Kind == Enter {
					mm = m
					mm.Size = uint8(1 + rng.IntN(3))
					try(&p, moves, mm)
				}
			}
			// Random paths from random cells.
			for range 10 {
				m := rules.Move{Kind: Step}
				if rng.IntN(4) == 0 {
					m.Kind, m.Size = Enter, uint8(1+rng.IntN(3))
				}
				for range 2 + rng.IntN(3) {
					m.Add(uint8(rng.IntN(maxCells)))
				}
				try(&p, moves, m)
			}
			p = p.Apply(moves[rng.IntN(len(moves))])
		}
	}
	if accepted == 0 || accepted == tried {
		t.Fatalf("%d of %d tried accepted: the test tries nothing useful", accepted, tried)
	}
	t.Logf("%d moves tried, %d legal", tried, accepted)
}

// TestParseMoveAllocates: reading a legal token and writing a position
// code into a buffer with room allocate nothing (issue 19: validation
// allocates nothing per ply).
func TestParseMoveAllocates(t *testing.T) {
	p, err := ParsePosition("IceFrogs star 2 ./(1S1L)(1S1S)/....1M../.1S(1S1M)1M../...2M./....../..2L..../(2S2L)2L/. 024/442 1")
	if err != nil {
		t.Fatal(err)
	}
	moves := p.Moves(nil)
	var toks []string
	for _, m := range moves {
		toks = append(toks, p.FormatMove(m))
	}
	if n := testing.AllocsPerRun(10, func() {
		for i, tok := range toks {
			m, err := p.ParseMove(tok)
			if err != nil || m != moves[i] {
				t.Fatalf("ParseMove(%q) = %v, %v", tok, m, err)
			}
		}
	}); n != 0 {
		t.Errorf("ParseMove of %d tokens: %v allocations", len(toks), n)
	}
	buf := make([]byte, 0, 256)
	if n := testing.AllocsPerRun(10, func() { buf = p.AppendCode(buf[:0]) }); n != 0 {
		t.Errorf("AppendCode: %v allocations", n)
	}
	if string(buf) != p.Code() {
		t.Errorf("AppendCode %q, Code %q", buf, p.Code())
	}
}
