package main

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

func perft(p *position, depth int) int {
	moves := p.legal(nil)
	if depth == 1 {
		return len(moves)
	}
	n := 0
	for _, m := range moves {
		q := p.apply(m)
		n += perft(&q, depth-1)
	}
	return n
}

// The generator's moves are checked against the standard perft counts
// from the start (chessprogramming.org/Perft_Results).
func TestPerft(t *testing.T) {
	want := []int{20, 400, 8902, 197281}
	if testing.Short() {
		want = want[:3]
	}
	for d, n := range want {
		p := startPosition()
		if got := perft(&p, d+1); got != n {
			t.Errorf("perft(%d) = %d, want %d", d+1, got, n)
		}
	}
}

// Games are written with numbers, SAN and a result equal to the tag; the
// same seed writes the same bytes.
func TestWrite(t *testing.T) {
	var a, b bytes.Buffer
	st, err := write(&a, rand.New(rand.NewPCG(1, 2)), 0, 50, 400)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := write(&b, rand.New(rand.NewPCG(1, 2)), 0, 50, 400); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the same seed wrote different games")
	}
	if st.games != 50 || st.bytes != int64(a.Len()) {
		t.Errorf("stats %+v for %d bytes", st, a.Len())
	}
	text := a.String()
	if n := strings.Count(text, "[Event "); n != 50 {
		t.Errorf("%d games written", n)
	}
	for _, want := range []string{"1. ", "x", "+", "=Q", "O-O"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in 50 games", want)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if len(line) > 79 {
			t.Errorf("line longer than 79: %q", line)
		}
	}
}

// A known short game: Fool's mate ends 0-1 with '#'.
func TestSANMate(t *testing.T) {
	p := startPosition()
	var sans []string
	for _, mv := range []move{{from: sq(5, 1), to: sq(5, 2)}, {from: sq(4, 6), to: sq(4, 4), flags: flagDouble}, {from: sq(6, 1), to: sq(6, 3), flags: flagDouble}, {from: sq(3, 7), to: sq(7, 3)}} {
		legal := p.legal(nil)
		found := false
		for _, l := range legal {
			if l == mv {
				found = true
			}
		}
		if !found {
			t.Fatalf("%v is not legal", mv)
		}
		next := p.apply(mv)
		sans = append(sans, p.san(mv, legal, &next, len(next.legal(nil))))
		p = next
	}
	if got := strings.Join(sans, " "); got != "f3 e5 g4 Qh4#" {
		t.Errorf("SAN %q", got)
	}
}
