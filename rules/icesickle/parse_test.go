package icesickle_test

import (
	"errors"
	"strings"
	"testing"

	"icepost/rules"
	"icepost/rules/icesickle"
)

// TestParseMoveAgreesWithMoves tries every well-formed token, in every
// spelling, against every position of random games: ParseMove's targeted
// check must accept exactly the moves Moves lists, as the same values, and
// refuse every other token as illegal (or the game over) with a reason of
// its own, never the fallback for a disagreement between its two paths.
func TestParseMoveAgreesWithMoves(t *testing.T) {
	n := 12
	if testing.Short() {
		n = 3
	}
	var toks []string
	sq := func(i int, upper bool) string {
		s := string([]byte{byte('a' + i%5), byte('1' + i/5)})
		if upper {
			s = strings.ToUpper(s)
		}
		return s
	}
	for i := range 25 {
		for _, size := range "SMLsml" {
			toks = append(toks, string(size)+"@"+sq(i, false), string(size)+"@"+sq(i, true))
		}
		for j := range 25 {
			for _, sep := range []string{"x", "X", "-"} {
				toks = append(toks, sq(i, false)+sep+sq(j, false), sq(i, true)+sep+sq(j, true), sq(i, true)+sep+sq(j, false))
			}
		}
	}
	var buf []rules.Move
	for _, p := range playouts(t, n) {
		s := p.s
		buf = s.Moves(buf)
		legal := make(map[rules.Move]bool, len(buf))
		for _, m := range buf {
			legal[m] = true
		}
		over := s.ToMove() == 0
		accepted := make(map[rules.Move]bool, len(buf))
		for _, tok := range toks {
			m, err := s.ParseMove(tok)
			switch {
			case err == nil:
				if !legal[m] {
					t.Fatalf("%s: ParseMove(%q) = %+v, not among the legal moves", s.Code(), tok, m)
				}
				if c := s.FormatMove(m); !strings.EqualFold(strings.Replace(tok, "-", "x", 1), c) {
					t.Fatalf("%s: ParseMove(%q) gives %s", s.Code(), tok, c)
				}
				accepted[m] = true
			case over && !errors.Is(err, rules.ErrGameOver):
				t.Fatalf("%s: ParseMove(%q) after the end: %v, want ErrGameOver", s.Code(), tok, err)
			case !over && !errors.Is(err, rules.ErrIllegal):
				t.Fatalf("%s: ParseMove(%q): %v, want ErrIllegal", s.Code(), tok, err)
			case strings.Contains(err.Error(), "not a legal move here"):
				t.Fatalf("%s: ParseMove(%q) refused without a reason: the fast and slow paths disagree", s.Code(), tok)
			}
		}
		if len(accepted) != len(legal) {
			t.Fatalf("%s: ParseMove accepts %d moves, Moves lists %d", s.Code(), len(accepted), len(legal))
		}
	}
}

// TestParseMoveSyntax: malformed tokens are syntax errors in every phase
// (placing, jumping), never moves.
func TestParseMoveSyntax(t *testing.T) {
	for _, code := range []string{
		"IceSickle ...../...../...../...../L.... S5M5L4 0:0 1 place 2",
		"IceSickle ...../...../...../.S.../L.... S0M0L0 0:0 1 jump 2",
	} {
		p := mustPos(t, code)
		for _, tok := range []string{"", "L", "L@", "L@c", "L@c33", "X@c3", "L@f3", "L@c0", "L@c6", "L#c3",
			"a1xc", "a1xc33", "a1yc3", "f1xc3", "a1xc6", "a0xc3", "a1 c3", "a1x\x00\x00", "\xff@c3", "a1c3"} {
			if _, err := p.ParseMove(tok); !errors.Is(err, rules.ErrSyntax) {
				t.Errorf("%s: ParseMove(%q) = %v, want ErrSyntax", code, tok, err)
			}
		}
	}
}

// TestAppendCode: AppendCode appends exactly Code's bytes after what dst
// holds, for every position of random games (codes with two-digit scores
// and the end included), and allocates nothing when dst has room.
func TestAppendCode(t *testing.T) {
	buf := make([]byte, 0, 128)
	for _, p := range playouts(t, 10) {
		s := p.s.(icesickle.Position)
		code := s.Code()
		if got := string(s.AppendCode(append(buf[:0], "abc"...))); got != "abc"+code {
			t.Fatalf("AppendCode = %q, want %q", got, "abc"+code)
		}
		if back, err := icesickle.ParsePosition(code); err != nil || back.Code() != code {
			t.Fatalf("%s does not read back: %v", code, err)
		}
		if a := testing.AllocsPerRun(10, func() { buf = s.AppendCode(buf[:0]) }); a != 0 {
			t.Fatalf("AppendCode allocates %v times", a)
		}
	}
	end := mustPos(t, "IceSickle ...../...../...../...../..... S0M0L0 30:28 2 end -")
	if got, want := string(end.AppendCode(nil)), "IceSickle ...../...../...../...../..... S0M0L0 30:28 2 end -"; got != want {
		t.Errorf("AppendCode = %q, want %q", got, want)
	}
}
