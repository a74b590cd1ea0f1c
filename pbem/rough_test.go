package pbem_test

import (
	"strings"
	"testing"
)

// ply and record of game id.
func gameRow(t *testing.T, w *world, id int) (int, string) {
	t.Helper()
	var ply int
	var rec string
	if err := w.srv.DB.QueryRow(`SELECT ply, record FROM pbem_games WHERE id = ?`, id).Scan(&ply, &rec); err != nil {
		t.Fatal(err)
	}
	return ply, rec
}

// A move in a fresh mail (not a reply): with one game waiting for the
// sender and senders verified by the operator's server, it is played;
// otherwise the answer is the board of each game waiting, each to reply
// to, and one more reply plays the move.
func TestFreshMailMove(t *testing.T) {
	t.Run("one game, unverified", func(t *testing.T) {
		w := newWorld(t)
		startGame(t, w)
		w.deliver(w.write("ada", w.srv.Address, "my move", "", "L@c3"))
		w.step()
		if ply, _ := gameRow(t, w, 1); ply != 0 {
			t.Fatalf("a fresh mail from an unverified sender moved (ply %d)", ply)
		}
		b := w.last("ada")
		if !strings.Contains(b.text, "L@c3") || !strings.Contains(b.text, "YOUR MOVE") || !strings.HasPrefix(b.replyTo(), "games+m1-1-0-") {
			t.Fatalf("ada's answer is not the board to reply to:\n%s\nReply-To %s", b.text, b.replyTo())
		}
		w.deliver(w.reply("ada", b, "L@c3"))
		w.step()
		if ply, _ := gameRow(t, w, 1); ply != 1 {
			t.Fatalf("one more reply did not play the move (ply %d)", ply)
		}
	})
	t.Run("one game, verified", func(t *testing.T) {
		w := newWorld(t)
		w.srv.AuthServID = "mx.club.test"
		auth := "Authentication-Results: mx.club.test; dmarc=pass header.from=club.test\n"
		w.deliver(w.write("ada", w.srv.Address, "new game", auth, "challenge icesickle "+w.sys.Address("bob")))
		w.step()
		w.deliver(w.write("bob", w.srv.Address, "ok", auth, "accept"))
		w.step()
		w.deliver(w.write("ada", w.srv.Address, "my move", auth, "L@c3\nhere we go"))
		w.step()
		if ply, rec := gameRow(t, w, 1); ply != 1 || !strings.Contains(rec, "{here we go}") {
			t.Fatalf("the fresh move was not played: ply %d\n%s", ply, rec)
		}
		if !strings.Contains(w.last("bob").text, "ada played L@c3") {
			t.Errorf("bob's mail:\n%s", w.last("bob").text)
		}
	})
	t.Run("two games", func(t *testing.T) {
		w := newWorld(t)
		startGame(t, w)
		w.send("ada", "challenge icesickle "+w.sys.Address("cy"))
		w.deliver(w.reply("cy", w.last("cy"), "accept"))
		w.step()
		before := len(w.inbox("ada"))
		w.deliver(w.write("ada", w.srv.Address, "my move", "", "L@c3"))
		w.step()
		in := w.inbox("ada")[before:]
		if len(in) != 2 {
			t.Fatalf("ada got %d mails, want a board for each of her 2 games", len(in))
		}
		for i, b := range in {
			if want := "games+m" + string(rune('1'+i)) + "-1-0-"; !strings.HasPrefix(b.replyTo(), want) || !strings.Contains(b.text, "L@c3") {
				t.Errorf("board %d: Reply-To %s, want %s...:\n%s", i+1, b.replyTo(), want, b.text)
			}
		}
		w.deliver(w.reply("ada", in[1], "L@c3"))
		w.step()
		if p1, _ := gameRow(t, w, 1); p1 != 0 {
			t.Errorf("game 1 moved")
		}
		if p2, _ := gameRow(t, w, 2); p2 != 1 {
			t.Errorf("game 2 did not move")
		}
	})
	t.Run("board from a fresh mail with two games", func(t *testing.T) {
		w := newWorld(t)
		startGame(t, w)
		w.send("ada", "challenge icesickle "+w.sys.Address("cy"))
		w.deliver(w.reply("cy", w.last("cy"), "accept"))
		w.step()
		before := len(w.inbox("ada"))
		w.deliver(w.write("ada", w.srv.Address, "boards", "", "board"))
		w.step()
		if in := w.inbox("ada")[before:]; len(in) != 2 || !strings.HasPrefix(in[0].replyTo(), "games+m1-1-0-") {
			t.Errorf("board from a fresh mail with 2 games: %d mails", len(in))
		}
	})
}

// A comment after resign or draw reaches the other players and the
// record; the game-over mail carries the record as an attachment.
func TestCommentAfterResignAndDraw(t *testing.T) {
	w := newWorld(t)
	startGame(t, w)
	w.deliver(w.reply("ada", w.last("ada"), "L@c3"))
	w.step()
	w.deliver(w.reply("bob", w.last("bob"), "resign\nWell played, I have no answer to that."))
	w.step()
	got := w.last("ada")
	if !strings.Contains(got.text, "bob wrote: Well played, I have no answer to that.") {
		t.Errorf("ada's mail lacks bob's comment:\n%s", got.text)
	}
	_, rec := gameRow(t, w, 1)
	if !strings.Contains(rec, "{bob resigns: Well played, I have no answer to that.}") {
		t.Errorf("the record lacks the comment:\n%s", rec)
	}
	for _, p := range []string{"ada", "bob"} {
		raw := string(w.last(p).raw)
		if !strings.Contains(raw, `filename=icepost-game-1.txt`) || !strings.Contains(raw, `[Termination "resignation"]`) {
			t.Errorf("%s's game-over mail has no record attached:\n%s", p, raw)
		}
	}

	w2 := newWorld(t)
	startGame(t, w2)
	w2.deliver(w2.reply("ada", w2.last("ada"), "draw\nshall we?"))
	w2.step()
	if !strings.Contains(w2.last("bob").text, "ada wrote: shall we?") {
		t.Errorf("bob's mail lacks the offer's comment:\n%s", w2.last("bob").text)
	}
	w2.deliver(w2.reply("bob", w2.last("bob"), "draw\nfair enough"))
	w2.step()
	_, rec = gameRow(t, w2, 1)
	if !strings.Contains(rec, "fair enough") || !strings.Contains(rec, "shall we?") || !strings.Contains(rec, `[Termination "agreement"]`) {
		t.Errorf("the draw's comments are not in the record:\n%s", rec)
	}
	if !strings.Contains(w2.last("ada").text, "bob wrote: fair enough") {
		t.Errorf("ada's mail:\n%s", w2.last("ada").text)
	}
}

// preview shows the sender alone the board after moves, and plays
// nothing.
func TestPreview(t *testing.T) {
	w := newWorld(t)
	startGame(t, w)
	bobBefore := len(w.inbox("bob"))
	w.deliver(w.reply("ada", w.last("ada"), "preview L@c3 M@d4"))
	w.step()
	got := w.last("ada")
	if !strings.Contains(got.text, "| L |") || !strings.Contains(got.text, "| M |") || !strings.Contains(got.text, "not played") {
		t.Errorf("the preview:\n%s", got.text)
	}
	if ply, _ := gameRow(t, w, 1); ply != 0 || len(w.inbox("bob")) != bobBefore {
		t.Errorf("a preview changed the game (ply %d) or told bob", ply)
	}
	// Replying to the preview with the move plays it.
	w.deliver(w.reply("ada", got, "L@c3"))
	w.step()
	if ply, _ := gameRow(t, w, 1); ply != 1 {
		t.Errorf("a reply to the preview did not play (ply %d)", ply)
	}
	w.deliver(w.reply("ada", w.last("ada"), "preview L@c3"))
	w.step()
	if got := w.last("ada").text; !strings.Contains(got, "c3 is occupied") {
		t.Errorf("an illegal preview:\n%s", got)
	}
}

// Conditional moves: given after a move, checked at once, private to
// their author, answered in the same transaction as the opponent's move.
func TestConditionalMoves(t *testing.T) {
	w := newWorld(t)
	startGame(t, w)
	w.deliver(w.reply("ada", w.last("ada"), "L@c3\nif M@d4 then S@a1 if S@b2 then M@e5\nif M@e5 then S@b2\nMy plan."))
	w.step()
	if _, rec := gameRow(t, w, 1); !strings.Contains(rec, "L@c3 {My plan.}") {
		t.Errorf("the comment did not stay with the move:\n%s", rec)
	}
	ada := w.last("ada")
	for _, want := range []string{"if M@d4 then S@a1 if S@b2 then M@e5", "if M@e5 then S@b2", "conditions clear"} {
		if !strings.Contains(ada.text, want) {
			t.Errorf("ada's board lacks %q:\n%s", want, ada.text)
		}
	}
	for _, m := range w.inbox("bob") {
		if strings.Contains(m.text, "S@a1") || strings.Contains(m.text, "if M@d4") {
			t.Fatalf("bob saw ada's conditions:\n%s", m.text)
		}
	}
	// An illegal condition is refused with the reason.
	w.deliver(w.reply("ada", w.last("ada"), "if M@d4 then L@c3"))
	w.step()
	if got := w.last("ada").text; !strings.Contains(got, "c3 is occupied") {
		t.Errorf("an illegal condition:\n%s", got)
	}
	// bob plays M@d4: ada's S@a1 is played at once, and bob is to move.
	w.deliver(w.reply("bob", w.last("bob"), "M@d4"))
	w.step()
	if ply, rec := gameRow(t, w, 1); ply != 3 || !strings.Contains(rec, "1. L@c3 {My plan.} 1... M@d4 2. S@a1") {
		t.Fatalf("the conditional answer was not played: ply %d\n%s", ply, rec)
	}
	bob := w.last("bob")
	if !strings.Contains(bob.text, "ada played S@a1") || !strings.Contains(bob.text, "YOUR MOVE") || strings.Contains(bob.text, "if S@b2") {
		t.Errorf("bob's mail:\n%s", bob.text)
	}
	// The rest of the chain stands: if S@b2 then M@e5.
	if got := w.last("ada").text; !strings.Contains(got, "if S@b2 then M@e5") || strings.Contains(got, "if M@e5 then S@b2") {
		t.Errorf("ada's board after the answer:\n%s", got)
	}
	// Another move drops the conditions.
	w.deliver(w.reply("bob", bob, "S@e1"))
	w.step()
	if ply, _ := gameRow(t, w, 1); ply != 4 {
		t.Fatalf("ply %d after a move that matched nothing", ply)
	}
	// ada is told, once, which conditions the move dropped and why.
	if got := w.last("ada").text; !strings.Contains(strings.Join(strings.Fields(got), " "), "Your conditional moves were dropped: bob played S@e1, which none of them answers. if S@b2 then M@e5") ||
		strings.Contains(got, "conditions clear") {
		t.Errorf("ada's board after a move that matched nothing:\n%s", got)
	}
	w.deliver(w.reply("ada", w.last("ada"), "board"))
	w.step()
	if got := w.last("ada").text; strings.Contains(got, "if S@b2") {
		t.Errorf("the conditions outlived a move that did not match:\n%s", got)
	}
	// conditions clear.
	w.deliver(w.reply("ada", w.last("ada"), "M@b5\nif M@a5 then S@e5"))
	w.step()
	w.deliver(w.reply("ada", w.last("ada"), "conditions clear"))
	w.step()
	w.deliver(w.reply("bob", w.last("bob"), "M@a5"))
	w.step()
	if ply, _ := gameRow(t, w, 1); ply != 6 {
		t.Errorf("a cleared condition was played: ply %d", ply)
	}
}
