package pbem

import (
	"strings"
	"testing"
	"time"
)

// How many mails a turn makes (docs/mail.md, "How many mails"): between
// people, the board to the player to move and one short confirmation to
// the mover, with the conditional moves of the same mail in it; none
// with confirm off. Against the bot, one mail a round: the bot's board
// names both moves; when the bot is slow, the confirmation goes first.
func TestMailsPerTurn(t *testing.T) {
	count := func(w *world) map[string]int {
		return map[string]int{"ada": len(w.inbox("ada")), "bob": len(w.inbox("bob"))}
	}
	t.Run("people", func(t *testing.T) {
		w := newWorld(t)
		startGame(t, w)
		before := count(w)
		w.deliver(w.reply("ada", w.last("ada"), "L@c3"))
		w.step()
		after := count(w)
		if after["ada"]-before["ada"] != 1 || after["bob"]-before["bob"] != 1 {
			t.Fatalf("a move made %d mails to the mover and %d to the other, want 1 and 1", after["ada"]-before["ada"], after["bob"]-before["bob"])
		}
		conf := w.last("ada").text
		if !strings.Contains(conf, "You played L@c3 (move 1)") || strings.Contains(conf, "+---+") {
			t.Errorf("the mover's confirmation:\n%s", conf)
		}
		// bob moves and gives a conditional move in the same mail: one
		// mail to him, listing it.
		before = count(w)
		w.deliver(w.reply("bob", w.last("bob"), "M@d4\nif S@a1 then S@e5"))
		w.step()
		after = count(w)
		if after["bob"]-before["bob"] != 1 || after["ada"]-before["ada"] != 1 {
			t.Fatalf("a move with conditions made %d mails to the mover, %d to the other, want 1 and 1", after["bob"]-before["bob"], after["ada"]-before["ada"])
		}
		if got := w.last("bob").text; !strings.Contains(got, "You played M@d4") || !strings.Contains(got, "if S@a1 then S@e5") {
			t.Errorf("bob's confirmation does not list his condition:\n%s", got)
		}
		// confirm off: no mail for one's own moves.
		adaBoard := w.last("ada")
		w.send("ada", "confirm off")
		before = count(w)
		w.deliver(w.reply("ada", adaBoard, "S@b2"))
		w.step()
		after = count(w)
		if after["ada"] != before["ada"] || after["bob"]-before["bob"] != 1 {
			t.Errorf("with confirm off ada got %d mails for her move, bob %d", after["ada"]-before["ada"], after["bob"]-before["bob"])
		}
	})
	t.Run("bot", func(t *testing.T) {
		w := newWorld(t)
		quickBots(w)
		w.send("ada", "challenge icesickle bot level=1")
		board := w.last("ada")
		before := len(w.inbox("ada"))
		w.deliver(w.reply("ada", board, "L@c3"))
		w.step()
		w.runBots()
		w.step()
		in := w.inbox("ada")[before:]
		if len(in) != 1 {
			t.Fatalf("a round against the bot made %d mails, want 1", len(in))
		}
		if n := countRows(t, w, `SELECT count(*) FROM pbem_outbox WHERE sent_at IS NULL`); n != 0 {
			t.Errorf("%d mails still wait in the outbox: the confirmation was not replaced", n)
		}
		if got := in[0].text; !strings.Contains(got, "ada played L@c3 (move 1).") || !strings.Contains(got, "icepost bot level 1 played") || !strings.Contains(got, "YOUR MOVE") {
			t.Errorf("the round's board:\n%s", got)
		}
		// A slow bot: the confirmation goes when it has waited, then
		// the board.
		before = len(w.inbox("ada"))
		w.deliver(w.reply("ada", in[0], moveFor(t, w, 1, 1)))
		w.step()
		w.clock.Advance(botAnswerWait + time.Second)
		w.step()
		if n := len(w.inbox("ada")) - before; n != 1 || !strings.Contains(w.last("ada").text, "is thinking") {
			t.Fatalf("the confirmation did not go after %v: %d mails", botAnswerWait, n)
		}
		w.runBots()
		w.step()
		if n := len(w.inbox("ada")) - before; n != 2 || !strings.Contains(w.last("ada").text, "YOUR MOVE") {
			t.Errorf("after a slow bot, %d mails, want the confirmation and the board", n)
		}
	})
}
