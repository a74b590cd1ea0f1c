package pbem_test

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
	want := fmt.Sprintf("Your legal moves (%d), by the piece that moves:\n  pieces put on the board: ", len(s.Moves(nil)))
	got := w.last("ada")
	got.text = strings.ReplaceAll(got.text, "\r\n", "\n")
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
// nothing. A player whose mail shows it is theirs (a reply to their
// game's board) is answered up to max(30, 6×error_limit) times: learning
// by doing always gets an answer. A stranger's mistakes meet error_limit.
// What the documented flows send (the board to reply to, for a move in a
// new mail) counts toward a looser limit, so normal play never meets it.
func TestAnswersToMistakesLimit(t *testing.T) {
	t.Parallel() // a long test: it runs beside the other long ones
	w := newWorld(t)
	w.srv.ErrorLimit = 2
	startGame(t, w)
	board := w.last("ada")
	before := len(w.inbox("ada"))
	for range 30 {
		w.deliver(w.reply("ada", board, "a1xd4")) // not a legal move now
		w.step()
	}
	in := w.inbox("ada")[before:]
	if len(in) != 30 {
		t.Fatalf("ada got %d answers to 30 illegal moves in her game, want 30", len(in))
	}
	for _, g := range in {
		if !strings.Contains(g.text, "Your move was not played") {
			t.Fatalf("an answer to an illegal move:\n%s", g.text)
		}
	}
	w.deliver(w.reply("ada", board, "a1xd4"))
	w.step()
	in = w.inbox("ada")[before:]
	if len(in) != 31 {
		t.Fatalf("the 31st: ada has %d answers, want 30 and the notice", len(in))
	}
	checkLimitNotice(t, in[30])
	// A stranger's mistakes: error_limit answers, then the notice.
	eveBefore := len(w.inbox("eve"))
	for range 4 {
		w.deliver(w.write("eve", w.srv.Address, "hello", "", "what is this"))
		w.step()
	}
	if in := w.inbox("eve")[eveBefore:]; len(in) != 3 {
		t.Fatalf("eve got %d answers to 4 mails with no command and a limit of 2, want 2 and the notice", len(in))
	} else {
		checkLimitNotice(t, in[2])
	}
	// A move in a new mail still gets its board to reply to.
	w.deliver(w.write("ada", w.srv.Address, "my move", "", "L@c3"))
	w.step()
	if b := w.last("ada"); !strings.Contains(strings.Join(strings.Fields(b.text), " "), "it was not played") {
		t.Errorf("the fresh move's board was withheld:\n%s", b.text)
	}
}

// "moves CELL" keeps the moves of the piece on CELL; the groups are the
// cells the pieces start from, read from the game's diagram.
func TestMovesOfOnePiece(t *testing.T) {
	w := newWorld(t)
	w.send("ada", "challenge pikemen "+w.sys.Address("bob"))
	w.deliver(w.reply("bob", w.last("bob"), "accept"))
	w.step()
	w.deliver(w.reply("ada", w.last("ada"), "moves"))
	w.step()
	all := strings.ReplaceAll(w.last("ada").text, "\r\n", "\n")
	s := replay(t, w, 1).Final()
	if !strings.Contains(all, fmt.Sprintf("Your legal moves (%d), by the piece that moves:", len(s.Moves(nil)))) {
		t.Fatalf("moves:\n%s", all)
	}
	// The first group's cell, and its moves.
	i := strings.Index(all, "by the piece that moves:\n  ")
	line := all[i+len("by the piece that moves:\n  "):]
	cell, rest, _ := strings.Cut(line, ": ")
	first := strings.Fields(rest)[0]
	w.deliver(w.reply("ada", w.last("ada"), "moves "+strings.ToUpper(cell)))
	w.step()
	one := strings.ReplaceAll(w.last("ada").text, "\r\n", "\n")
	if !strings.Contains(one, "Your legal moves from "+cell) || !strings.Contains(one, first) {
		t.Fatalf("moves %s:\n%s", cell, one)
	}
	for _, m := range s.Moves(nil) {
		if tok := s.FormatMove(m); !strings.HasPrefix(tok, cell) && strings.Contains(one, " "+tok+" ") {
			t.Errorf("moves %s lists %s", cell, tok)
		}
	}
	// Replying with one of them plays it: the board carries the token.
	w.deliver(w.reply("ada", w.last("ada"), first))
	w.step()
	if ply, _ := gameRow(t, w, 1); ply != 1 {
		t.Errorf("replying %s to the moves' board did not play it (ply %d)", first, ply)
	}
	w.deliver(w.reply("bob", w.last("bob"), "moves z9"))
	w.step()
	if got := w.last("bob").text; !strings.Contains(got, "No legal move of yours starts on z9") {
		t.Errorf("moves of an empty cell:\n%s", got)
	}
}
