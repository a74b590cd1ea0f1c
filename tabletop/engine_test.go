package tabletop_test

import (
	"strings"
	"testing"
	"time"

	"icepost/analysis"
	"icepost/engine"
	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
	"icepost/tabletop"
)

// quick is the engine as tests use it: level 1, one core, seeded.
var quick = engine.Config{Level: 1, Seed: 7, Workers: 1, MoveTime: 2 * time.Second}

// TestHint: hint names a legal move and a chance, and records nothing.
func TestHint(t *testing.T) {
	g, _ := games.Lookup("icesickle")
	r := newRig(t, tabletop.Config{Game: g, Engine: quick,
		Tags: []notation.Tag{{Name: "Player1", Value: "Ada"}, {Name: "Player2", Value: "Bob"}}})
	out := r.line("hint")
	if !strings.Contains(out, "Hint for Ada (seat 1): ") || !strings.Contains(out, "% chance to win") {
		t.Fatalf("hint says:\n%s", out)
	}
	tok := strings.Fields(strings.SplitN(out, ": ", 2)[1])[0]
	st, _ := g.Start(rules.Options{})
	if _, err := st.ParseMove(tok); err != nil {
		t.Errorf("the hint %q is not a legal move: %v", tok, err)
	}
	if len(r.s.Moves()) != 0 {
		t.Errorf("hint recorded moves: %v", r.s.Moves())
	}
}

// TestPlayAgainstEngine: the engine plays seat 1 at once, answers every
// move of the person's, declines a draw it is not losing, takes its own
// move back with the person's on undo, and the record names it.
func TestPlayAgainstEngine(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Name(), func(t *testing.T) {
			r := newRig(t, tabletop.Config{Game: g, Engine: quick, Computer: []int{1},
				Tags: []notation.Tag{{Name: "Player1", Value: engine.Name(1)}, {Name: "Player2", Value: "Ada"}}})
			if n := len(r.s.Moves()); n != 1 {
				t.Fatalf("the engine, seat 1, played %d moves at the start", n)
			}
			for k := 0; k < 3 && r.s.Record().Result == "*"; k++ {
				st := r.file().Final()
				ms := st.Moves(nil)
				out := r.line(st.FormatMove(ms[(k*5)%len(ms)]))
				if r.file().Final().ToMove() != 2 && !r.file().Over() {
					t.Fatalf("after Ada's move the engine did not answer:\n%s", out)
				}
			}
			n := len(r.s.Moves())
			if out := r.line("undo"); len(r.s.Moves()) != n-2 {
				t.Fatalf("undo left %d of %d moves:\n%s", len(r.s.Moves()), n, out)
			}
			if out := r.line("draw"); !strings.Contains(out, "declines the draw") && !strings.Contains(out, "Game over") {
				t.Errorf("draw says:\n%s", out)
			}
			r.line("quit")
			if v, _ := r.file().Record.Tag("Player1"); v != "icepost bot level 1" {
				t.Errorf("Player1 %q", v)
			}
		})
	}
}

// TestDrawInACircle: against the engine at Ice Lady's start position,
// offered a draw, the engine declines when the position has stood there
// twice and accepts when it comes back a third time (which the session
// says once), though it does not think it is losing either time.
func TestDrawInACircle(t *testing.T) {
	for _, c := range []struct {
		moves  string
		accept bool
	}{
		{"1. c2-a2 f7-h7 2. a2-c2 h7-f7 *", false},
		{"1. c2-a2 f7-h7 2. a2-c2 h7-f7 3. c2-a2 f7-h7 4. a2-c2 h7-f7 *", true},
	} {
		src := "[Game \"Ice Lady\"]\n[Player1 \"Ada\"]\n[Player2 \"" + engine.Name(1) + "\"]\n[Result \"*\"]\n\n" + c.moves + "\n"
		gs, errs := notation.Check("circle", []byte(src))
		if errs.Err() != nil {
			t.Fatal(errs.Err())
		}
		r := newRig(t, tabletop.Config{Resume: gs[0], Engine: quick, Computer: []int{2}})
		if said := strings.Contains(r.out.String(), "stood on the board 3 times"); said != c.accept {
			t.Errorf("after %s, the session says (or does not say) that the position came back:\n%s", c.moves, r.out.String())
		}
		if out := r.line("moves"); strings.Contains(out, "stood on the board") {
			t.Errorf("the position's coming back said again after moves:\n%s", out)
		}
		out := r.line("draw")
		rec := r.file()
		switch {
		case c.accept && rec.Record.Result != "1/2-1/2":
			t.Errorf("after %s the engine did not accept the draw (result %s):\n%s", c.moves, rec.Record.Result, out)
		case !c.accept && (rec.Record.Result != "*" || !strings.Contains(out, "declines the draw") || !strings.Contains(out, "come back 3 times")):
			t.Errorf("after %s the draw offer says:\n%s", c.moves, out)
		}
	}
}

// TestReview: review waits for the end of the game, then shows every
// move with its estimate, each seat's average loss, and the worst moves
// with the engine's: here a missed win is a blunder.
func TestReview(t *testing.T) {
	g, _ := games.Lookup("pikemen")
	r := newRig(t, tabletop.Config{Game: g, Options: rules.Options{Target: 1}, Engine: quick,
		Tags: []notation.Tag{{Name: "Player1", Value: "Ada"}, {Name: "Player2", Value: "Bob"}}})
	if out := r.line("review 1"); !strings.Contains(out, "the game is not over") {
		t.Fatalf("review before the end says:\n%s", out)
	}
	missed, win, missedAt := "", "", 0
	for ply := 0; ply < 200 && !r.file().Over(); ply++ {
		st := r.file().Final()
		ms := st.Moves(nil)
		var winning, other []rules.Move
		for _, m := range ms {
			if next, _ := st.Play(m); next.Outcome().Over && next.Outcome().Winner == st.ToMove() {
				winning = append(winning, m)
			} else {
				other = append(other, m)
			}
		}
		m := ms[(ply*7)%len(ms)]
		switch {
		case len(winning) > 0 && missed == "" && len(other) > 0:
			m = other[0]
			missed, win, missedAt = st.FormatMove(m), st.FormatMove(winning[0]), ply
		case len(winning) > 0:
			m = winning[0]
		case len(other) > 0:
			m = other[(ply*7)%len(other)]
		}
		r.line(st.FormatMove(m))
	}
	if missed == "" || !r.file().Over() {
		t.Fatalf("no game with a missed win: %v", r.s.Moves())
	}
	out := r.line("review 1")
	for _, want := range []string{"Analysing", "done.", "   1. ", "Average loss a move: Ada (seat 1) ", "The worst moves:\n", " " + missed + "?? ", "a blunder: "} {
		if !strings.Contains(out, want) {
			t.Errorf("review does not say %q:\n%s", want, out)
		}
	}
	if strings.Count(out, "the engine plays ") != 3 {
		t.Errorf("review shows not three better moves (the win missed was %s):\n%s", win, out)
	}
	// Had the missed win been among the worst moves (here it put the
	// win off: it lost less than the others), its line says so.
	st := r.file().States[missedAt]
	m := analysis.Move{Ply: missedAt + 1, Seat: st.ToMove(), Token: missed, Mark: analysis.Blunder, Before: 1, After: 0.85, Better: win, BetterEval: 1}
	if got, want := tabletop.WorstMove(st, m, 2, "Ada"), "  Move "+analysis.MoveNumber(missedAt+1, 2)+" "+missed+"?? by Ada, a blunder: it missed a win, "+win+" wins at once."; got != want {
		t.Errorf("the line of the missed win:\n got %q\nwant %q", got, want)
	}
	m.Better = r.file().States[missedAt].FormatMove(r.file().Moves[missedAt])
	if got := tabletop.WorstMove(st, m, 2, "Ada"); !strings.Contains(got, "it kept 85% of winning chances where 100% could be kept; the engine plays "+m.Better+" (100%).") {
		t.Errorf("the line of a blunder whose better move does not win: %q", got)
	}
	if out := r.line("review 9"); !strings.Contains(out, "from 1 to 5") {
		t.Errorf("review 9 says:\n%s", out)
	}
}
