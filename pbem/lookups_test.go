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
