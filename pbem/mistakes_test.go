package pbem_test

import (
	"fmt"
	"strings"
	"testing"

	"icepost/pbem"
)

// TestMistakesThatTeach: a newcomer's mistakes, each answered with what
// it might have meant, examples from their own game, in their game's
// thread; a line copied from the moves answer plays the move it names.
func TestMistakesThatTeach(t *testing.T) {
	t.Parallel() // a long test: it runs beside the other long ones
	w := newWorld(t)
	w.send("ada", "challenge pikemen "+w.sys.Address("bob"))
	w.deliver(w.reply("bob", w.last("bob"), "accept"))
	w.step()
	board := w.last("ada")
	flat := func(g got) string { return strings.Join(strings.Fields(g.text), " ") }
	ask := func(line string, wants ...string) got {
		t.Helper()
		before := len(w.inbox("ada"))
		w.deliver(w.reply("ada", board, line))
		w.step()
		in := w.inbox("ada")
		if len(in) != before+1 {
			t.Fatalf("%q: %d answers, want 1", line, len(in)-before)
		}
		a := in[len(in)-1]
		for _, want := range wants {
			if !strings.Contains(flat(a), want) {
				t.Errorf("the answer to %q lacks %q:\n%s", line, want, a.text)
			}
		}
		if strings.Contains(a.text, "L@c3") {
			t.Errorf("the answer to %q in a Pikemen game shows IceSickle's L@c3:\n%s", line, a.text)
		}
		if !strings.Contains(a.header.Get("Subject"), "Pikemen") {
			t.Errorf("the answer to %q is not in the game's thread: %q", line, a.header.Get("Subject"))
		}
		return a
	}
	ask("bord", `I could not read "bord" as a command. Did you mean "board"?`)
	ask("resing", `Did you mean "resign"?`)
	ask("hisotry please", `Did you mean "history"?`)
	st := replay(t, w, 1).Final()
	legal := st.FormatMove(st.Moves(nil)[0])
	// A move with one letter wrong: the nearest legal moves.
	typo := []byte(legal)
	typo[len(typo)-1] = 'Z'
	a := ask(string(typo), "is not a legal move in Pikemen #1 now; the nearest legal moves:")
	if !strings.Contains(flat(a), legal) {
		t.Errorf("the nearest moves to %s lack %s:\n%s", typo, legal, a.text)
	}
	// Ten mistakes in a row, all answered (the error limit is for
	// strangers).
	w.srv.ErrorLimit = 5
	for i := range 10 {
		ask(fmt.Sprintf("bord%d", i))
	}
	// A line copied from the moves answer: several moves, pick one.
	w.deliver(w.reply("ada", board, "moves"))
	w.step()
	all := strings.ReplaceAll(w.last("ada").text, "\r\n", "\n")
	i := strings.Index(all, "by the piece that moves:\n  ")
	if i < 0 {
		t.Fatalf("moves:\n%s", all)
	}
	line, _, _ := strings.Cut(all[i+len("by the piece that moves:\n  "):], "\n")
	label, rest, _ := strings.Cut(line, ": ")
	moves := strings.Fields(rest)
	if len(moves) < 2 {
		t.Fatalf("the first line of moves has %d moves: %q", len(moves), line)
	}
	ask(line, fmt.Sprintf("names %d moves: pick one", len(moves)), moves[0], moves[1])
	if ply, _ := gameRow(t, w, 1); ply != 0 {
		t.Fatalf("a line of several moves played: ply %d", ply)
	}
	// The same line cut to one move plays it.
	w.deliver(w.reply("ada", board, label+":  "+moves[0]))
	w.step()
	if ply, _ := gameRow(t, w, 1); ply != 1 {
		t.Fatalf("%q did not play: ply %d\n%s", label+":  "+moves[0], ply, w.last("ada").text)
	}
	// A challenge naming a game nearly right.
	w.deliver(w.write("ada", w.srv.Address, "new game", "", "challenge icesikle bot"))
	w.step()
	if got := flat(w.last("ada")); !strings.Contains(got, `"icesikle" is not a game I know: did you mean IceSickle?`) {
		t.Errorf("challenge icesikle bot:\n%s", w.last("ada").text)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"bord", "board", 1}, {"resing", "resign", 1}, {"", "abc", 3}, {"abc", "abc", 0}, {"kitten", "sitting", 3}, {"hisotry", "history", 1}} {
		if d := pbem.EditDistance(c.a, c.b); d != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, d, c.d)
		}
	}
	if n := pbem.Nearest("xyz", []string{"board", "resign"}); n != nil {
		t.Errorf("nearest(xyz) = %v", n)
	}
}
