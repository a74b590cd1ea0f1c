package pbem

import (
	"fmt"
	"strings"
	"testing"
)

// "moves" answers with the board and the legal moves when it is the
// sender's turn, and says whose turn it is otherwise; nothing changes.
func TestMovesCommand(t *testing.T) {
	w := newWorld(t)
	startGame(t, w)
	w.deliver(w.reply("ada", w.last("ada"), "moves"))
	w.step()
	s := replay(t, w, 1).Final()
	want := fmt.Sprintf("Your legal moves (%d): ", len(s.Moves(nil)))
	got := w.last("ada")
	if !strings.Contains(got.text, want) || !strings.Contains(got.text, "L@c3") || !strings.Contains(got.text, "YOUR MOVE") {
		t.Fatalf("ada's answer to moves:\n%s", got.text)
	}
	for _, line := range strings.Split(got.text, "\n") {
		if len(line) > 78 {
			t.Errorf("a line of %d characters: %q", len(line), line)
		}
	}
	w.deliver(w.write("bob", w.srv.Address, "moves?", "", "moves"))
	w.step()
	if got := w.last("bob").text; !strings.Contains(got, "It is ada's move, not yours") {
		t.Errorf("bob's answer to moves:\n%s", got)
	}
	if ply, _ := gameRow(t, w, 1); ply != 0 {
		t.Errorf("moves played something: ply %d", ply)
	}
}

// Answers to mistakes are limited per address and hour; the first one
// past the limit is a notice that says so and how to go on, and then
// nothing. What the documented flows send (the board to reply to, for a
// move in a new mail) counts toward a looser limit, so normal play never
// meets it.
func TestAnswersToMistakesLimit(t *testing.T) {
	w := newWorld(t)
	w.srv.ErrorLimit = 2
	startGame(t, w)
	board := w.last("ada")
	before := len(w.inbox("ada"))
	for range 4 {
		w.deliver(w.reply("ada", board, "a1xd4")) // not a legal move now
		w.step()
	}
	in := w.inbox("ada")[before:]
	if len(in) != 3 {
		t.Fatalf("ada got %d answers to 4 illegal moves with a limit of 2, want 2 and the notice", len(in))
	}
	for _, g := range in[:2] {
		if !strings.Contains(g.text, "your move was not played") {
			t.Errorf("an answer to an illegal move:\n%s", g.text)
		}
	}
	checkLimitNotice(t, in[2])
	// A move in a new mail still gets its board to reply to.
	w.deliver(w.write("ada", w.srv.Address, "my move", "", "L@c3"))
	w.step()
	if b := w.last("ada"); !strings.Contains(strings.Join(strings.Fields(b.text), " "), "it was not played") {
		t.Errorf("the fresh move's board was withheld:\n%s", b.text)
	}
}
