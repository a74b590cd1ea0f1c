package pbem_test

import (
	"strings"
	"testing"
	"time"

	"icepost/pbem"

	"icepost/rules"
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
		w.clock.Advance(pbem.BotAnswerWait + time.Second)
		w.step()
		if n := len(w.inbox("ada")) - before; n != 1 || !strings.Contains(w.last("ada").text, "is thinking") {
			t.Fatalf("the confirmation did not go after %v: %d mails", pbem.BotAnswerWait, n)
		}
		w.runBots()
		w.step()
		if n := len(w.inbox("ada")) - before; n != 2 || !strings.Contains(w.last("ada").text, "YOUR MOVE") {
			t.Errorf("after a slow bot, %d mails, want the confirmation and the board", n)
		}
	})
}

// A Pikemen condition written without the charge's final orientation
// fires whichever way the charge ends (rules.Matches).
func TestConditionWithoutOrientation(t *testing.T) {
	w := newWorld(t)
	w.send("ada", "challenge pikemen "+w.sys.Address("bob"))
	w.deliver(w.reply("bob", w.last("bob"), "accept"))
	w.step()
	latest := map[int]string{1: "ada", 2: "bob"}
	var turned, bare, answer string
	for ply := 0; ply < 40 && turned == ""; ply++ {
		s := replay(t, w, 1).Final()
		mover := s.ToMove()
		if mover == 2 {
			for _, m := range s.Moves(nil) {
				tok := s.FormatMove(m)
				b, _, hasO := strings.Cut(tok, ":")
				if !hasO || !strings.ContainsAny(b, "-x") {
					continue
				}
				after1, _, err1 := rules.Play(s, b)
				after2, _, err2 := rules.Play(s, tok)
				if err1 != nil || err2 != nil {
					continue
				}
				// An answer legal whichever way the charge ends.
				for _, a := range after2.Moves(nil) {
					at := after2.FormatMove(a)
					if _, err := after1.ParseMove(at); err == nil {
						turned, bare, answer = tok, b, at
						break
					}
				}
				if turned != "" {
					break
				}
			}
			if turned != "" {
				break
			}
		}
		w.deliver(w.reply(latest[mover], w.last(latest[mover]), moveFor(t, w, 1, ply)))
		w.step()
	}
	if turned == "" {
		t.Fatal("no turning charge for bob in 40 plies")
	}
	ply, _ := gameRow(t, w, 1)
	w.deliver(w.reply("ada", w.last("ada"), "if "+bare+" then "+answer))
	w.step()
	w.deliver(w.reply("bob", w.last("bob"), turned))
	w.step()
	if got, rec := gameRow(t, w, 1); got != ply+2 {
		t.Fatalf("if %s then %s did not answer %s: ply %d, want %d\n%s", bare, answer, turned, got, ply+2, rec)
	}
	if b := w.last("bob").text; !strings.Contains(b, "answered at once with a conditional move") {
		t.Errorf("bob's board:\n%s", b)
	}
}

// With web_url, each board mail carries the seat's link to its play
// page, in both parts; the link names that game and seat only.
func TestBoardMailPlayLink(t *testing.T) {
	w := newWorld(t)
	w.srv.WebURL = "https://games.club.test/"
	startGame(t, w)
	b := w.last("ada")
	text := strings.Join(strings.Fields(b.text), " ")
	i := strings.Index(text, "https://games.club.test/play/")
	if i < 0 || !strings.Contains(string(b.raw), "games.club.test/play/") {
		t.Fatalf("ada's board has no play link:\n%s", b.text)
	}
	link := strings.Fields(text[i:])[0]
	capability := strings.TrimPrefix(link, "https://games.club.test/play/")
	if id, seat, err := w.srv.PlaySeat(capability); err != nil || id != 1 || seat != 1 {
		t.Errorf("the link %s names game %d seat %d (%v), want 1 and 1", link, id, seat, err)
	}
	if _, _, err := w.srv.PlaySeat(strings.Replace(capability, "w1-1-", "w1-2-", 1)); err == nil {
		t.Error("a capability with another seat passes")
	}
}
