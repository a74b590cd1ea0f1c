package notation_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// steps is a game whose moves cost nothing: every turn is "s", and its
// positions are made once, so that a replay of it allocates only what
// notation does.
type stepsGame struct{}

type stepState struct{ n int }

const maxSteps = 4096

var stepStates = func() (s [maxSteps + 1]stepState) {
	for i := range s {
		s[i].n = i
	}
	return s
}()

func (stepsGame) Name() string { return "Steps" }
func (stepsGame) Info() rules.Info {
	return rules.Info{Seats: []int{2}, Summary: "Steps (a test game): each turn is s.\n"}
}
func (stepsGame) Start(o rules.Options) (rules.State, error) {
	if _, err := rules.CheckSeats("Steps", o, 2); err != nil {
		return nil, err
	}
	return &stepStates[0], nil
}
func (stepsGame) ParsePosition(code string) (rules.State, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(code, "Steps "))
	if err != nil || n < 0 || n > maxSteps {
		return nil, fmt.Errorf("%w: %q", rules.ErrPosition, code)
	}
	return &stepStates[n], nil
}

func (s *stepState) Game() rules.Game             { return stepsGame{} }
func (s *stepState) Options() rules.Options       { return rules.Options{Seats: 2} }
func (s *stepState) Scores() []int                { return nil }
func (s *stepState) FormatMove(rules.Move) string { return "s" }
func (s *stepState) Board(int) string             { return fmt.Sprintf("%d steps\n", s.n) }
func (s *stepState) Code() string                 { return "Steps " + strconv.Itoa(s.n) }
func (s *stepState) Outcome() rules.Outcome       { return rules.Outcome{} }
func (s *stepState) ToMove() int                  { return s.n%2 + 1 }
func (s *stepState) Moves(buf []rules.Move) []rules.Move {
	buf = buf[:0]
	if s.n < maxSteps {
		buf = append(buf, rules.Move{Kind: 1})
	}
	return buf
}
func (s *stepState) Play(m rules.Move) (rules.State, error) {
	if m != (rules.Move{Kind: 1}) || s.n >= maxSteps {
		return nil, rules.Illegal("s", "no more steps")
	}
	return &stepStates[s.n+1], nil
}
func (s *stepState) ApplyLegal(rules.Move) rules.State { return &stepStates[s.n+1] }
func (s *stepState) ParseMove(tok string) (rules.Move, error) {
	if tok != "s" {
		return rules.Move{}, rules.Syntax(tok, "the only move is s")
	}
	if s.n >= maxSteps {
		return rules.Move{}, rules.Illegal(tok, "no more steps")
	}
	return rules.Move{Kind: 1}, nil
}

// stepsRecord is a record of Steps with plies moves, numbered, with tags
// as the program writes them.
func stepsRecord(plies int) []byte {
	var b strings.Builder
	b.WriteString("[Game \"Steps\"]\n[Event \"allocs\"]\n[Date \"2026.01.02\"]\n[Player1 \"A\"]\n[Player2 \"B\"]\n[Result \"*\"]\n\n")
	for i := range plies {
		if i%2 == 0 {
			fmt.Fprintf(&b, "%d. ", i/2+1)
		}
		b.WriteString("s ")
	}
	b.WriteString("*\n")
	return []byte(b.String())
}

// TestNoAllocationPerPly checks that reading and replaying a record
// allocates per line and per record, not per move: a game ten times as
// long costs at most one allocation more per hundred plies.
func TestNoAllocationPerPly(t *testing.T) {
	defer games.Register(stepsGame{})()
	short, long := stepsRecord(200), stepsRecord(2000)
	for _, c := range []struct {
		name string
		f    func(src []byte) int
	}{
		{"Parse", func(src []byte) int {
			recs, errs := notation.Parse("a.txt", src)
			if err := errs.Err(); err != nil {
				t.Fatal(err)
			}
			return len(recs[0].Main.Moves)
		}},
		{"Check", func(src []byte) int {
			gs, errs := notation.Check("a.txt", src)
			if err := errs.Err(); err != nil {
				t.Fatal(err)
			}
			return len(gs[0].Moves)
		}},
	} {
		if n := c.f(long); n != 2000 {
			t.Fatalf("%s: %d plies, want 2000", c.name, n)
		}
		a := testing.AllocsPerRun(20, func() { c.f(short) })
		b := testing.AllocsPerRun(20, func() { c.f(long) })
		if extra := b - a; extra > 1800/100 {
			t.Errorf("%s: %.0f allocations for 200 plies, %.0f for 2000: %.2f per ply", c.name, a, b, extra/1800)
		}
		t.Logf("%s: %.0f allocations for 200 plies, %.0f for 2000", c.name, a, b)
	}
}
