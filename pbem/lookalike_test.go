package pbem_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"icepost/notation"
	"icepost/pbem/mailaddr"
	"icepost/pbem/replytoken"
)

// TestLookAlikeAddresses: a mailbox whose name looks like a player's,
// or is one under Unicode case folding (KELVIN SIGN for K, İ for I),
// gets a token of its own from "games", and with it acts for nobody but
// itself: no move in the player's game, no digest on the player's row,
// no resignation. The same address in ASCII upper case is the player.
func TestLookAlikeAddresses(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			w := b.new(t)
			w.send("ada", "challenge icesickle "+w.sys.Address("kim"))
			w.deliver(w.reply("kim", w.last("kim"), "accept"))
			w.step()
			w.send("ada", "challenge icesickle "+w.sys.Address("ida"))
			w.deliver(w.reply("ida", w.last("ida"), "accept"))
			w.step()
			// ada has moved in both games: kim and ida are to move.
			for id := int64(1); id <= 2; id++ {
				w.deliver(w.reply("ada", w.last("ada"), moveFor(t, w, id, 0)))
				w.step()
			}
			state := func() string {
				var out strings.Builder
				for _, q := range []string{
					`SELECT id, status, ply, record FROM pbem_games ORDER BY id`,
					`SELECT address, digest, blocked FROM pbem_players WHERE address IN ('kim@club.test', 'ida@club.test')`,
				} {
					rows, err := w.srv.DB.Query(q)
					if err != nil {
						t.Fatal(err)
					}
					for rows.Next() {
						var a, b, c, d any
						dest := []any{&a, &b, &c, &d}
						cols, _ := rows.Columns()
						if err := rows.Scan(dest[:len(cols)]...); err != nil {
							t.Fatal(err)
						}
						fmt.Fprintln(&out, a, b, c, d)
					}
					rows.Close()
				}
				return out.String()
			}
			tokenRE := regexp.MustCompile(`games\+(a-[a-z2-7]{16})@`)
			victims := map[string]string{"kim": "kim@club.test", "ida": "ida@club.test"}
			for _, c := range []struct{ from, victim string }{
				{"\u212aim@club.test", "kim"},      // KELVIN SIGN
				{"\u212aIM@club.test", "kim"},      // and ASCII upper case
				{"\u0130da@club.test", "ida"},      // I WITH DOT ABOVE
				{"\u0130DA@club.test", "ida"},      //
				{"k\u0131m@club.test", "kim"},      // dotless i
				{"ｋim@club.test", "kim"},           // full-width k
				{"ｋｉｍ@club.test", "kim"},           // all full-width
				{"\u043aim@club.test", "kim"},      // Cyrillic ka
				{"\u03bai\u03bc@club.test", "kim"}, // Greek kappa, mu
				{"\u0456da@club.test", "ida"},      // Cyrillic i
			} {
				t.Run(c.from, func(t *testing.T) {
					from, err := mailaddr.Canonical(c.from)
					if err != nil {
						t.Fatalf("%q: %v", c.from, err)
					}
					before := state()
					kimsToken := replytoken.ForAddress(w.srv.Secret, victims[c.victim])
					w.deliver(lookAlikeMail(w, c.from, w.srv.Address, "games"))
					w.step()
					raw := outboxTo(t, w, from)
					m := tokenRE.FindStringSubmatch(raw)
					if m == nil {
						t.Fatalf("no address token in the answer to %q:\n%s", c.from, raw)
					}
					if m[1] == kimsToken {
						t.Fatalf("%q got %s's address token", c.from, c.victim)
					}
					if raw := outboxTo(t, w, victims[c.victim]); strings.Contains(raw, "Your games") && strings.Contains(raw, m[1]) {
						t.Errorf("the answer to %q went to %s", c.from, c.victim)
					}
					to := w.srv.PlusAddress(m[1])
					for _, line := range []string{moveFor(t, w, map[string]int64{"kim": 1, "ida": 2}[c.victim], 0), "digest on", "resign"} {
						w.deliver(lookAlikeMail(w, c.from, to, line))
						w.step()
						if after := state(); after != before {
							t.Fatalf("%q sent %q with its own token: it changed\n%s\ninto\n%s", c.from, line, before, after)
						}
					}
				})
			}
			// The same address in ASCII upper case is kim's: "games"
			// answers kim, with kim's token.
			n := countRows(t, w, `SELECT count(*) FROM pbem_outbox WHERE recipient = 'kim@club.test'`)
			w.deliver(lookAlikeMail(w, "KIM@Club.TEST", w.srv.Address, "games"))
			w.step()
			if m := countRows(t, w, `SELECT count(*) FROM pbem_outbox WHERE recipient = 'kim@club.test'`); m != n+1 {
				t.Errorf("KIM@Club.TEST's games: %d mails to kim, want %d", m, n+1)
			}
			if raw := outboxTo(t, w, "kim@club.test"); !strings.Contains(raw, replytoken.ForAddress(w.srv.Secret, "kim@club.test")) {
				t.Errorf("the answer to KIM@Club.TEST lacks kim's token")
			}
		})
	}
}

// lookAlikeMail is a mail from an address given as typed, UTF-8 in the
// header as RFC 6532 allows.
func lookAlikeMail(w *world, from, to, body string) string {
	return fmt.Sprintf("From: %s\nTo: %s\nSubject: command\nMessage-ID: <look%d@evil.example>\nDate: Sun, 22 Nov 2026 12:00:00 +0000\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n%s\n",
		from, to, w.n.Add(1), body)
}

// outboxTo is the newest mail queued for addr, "" when none.
func outboxTo(t *testing.T, w *world, addr string) string {
	t.Helper()
	var raw string
	err := w.srv.DB.QueryRow(`SELECT coalesce((SELECT message FROM pbem_outbox WHERE recipient = ? ORDER BY id DESC LIMIT 1), '')`, addr).Scan(&raw)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestStrangerNotice: a mail from another address that answers a
// seat's mail is not done; the seat's player is told, in a sentence
// that says who tried what and that nothing was done, at most once an
// hour however many such mails come; the stranger's address gets
// nothing.
func TestStrangerNotice(t *testing.T) {
	w := newWorld(t)
	startGame(t, w)
	board := w.last("ada")
	adaBefore, eveBefore := len(w.inbox("ada")), len(w.inbox("eve"))
	for range 5 {
		w.deliver(w.reply("eve", board, "resign"))
		w.step()
	}
	if g := replay(t, w, 1); g.Record.Result != "*" {
		t.Fatalf("eve's resign ended ada's game: %s", g.Record.Result)
	}
	in := w.inbox("ada")[adaBefore:]
	if len(in) != 1 {
		t.Fatalf("ada got %d mails about 5 of eve's, want 1", len(in))
	}
	text := strings.Join(strings.Fields(in[0].text), " ") // unwrapped
	for _, want := range []string{"A mail from " + w.sys.Address("eve") + " answered a mail of game 1 that was sent to you, asking for \"resign\".", "Nothing was done", "at most once an hour"} {
		if !strings.Contains(text, want) {
			t.Errorf("ada's notice lacks %q:\n%s", want, in[0].text)
		}
	}
	if n := len(w.inbox("eve")) - eveBefore; n != 0 {
		t.Errorf("eve got %d mails", n)
	}
	w.clock.Advance(time.Hour + time.Second)
	w.deliver(w.reply("eve", board, "draw"))
	w.step()
	if n := len(w.inbox("ada")) - adaBefore; n != 2 {
		t.Errorf("an hour later: ada has %d notices, want 2", n)
	}
}

// TestQuotedLocalPart: an address whose local part needs quotes keeps
// them wherever the server writes it (To:, the Player tag), and its
// name leaves out what would need them.
func TestQuotedLocalPart(t *testing.T) {
	w := newWorld(t)
	const typed = `"<img src=x onerror=alert(1)>"@club.test`
	w.deliver(lookAlikeMail(w, typed, w.srv.Address, "challenge icesickle "+w.sys.Address("bob")))
	w.step()
	raw := outboxTo(t, w, typed)
	if !strings.Contains(raw, "\r\nTo: "+typed+"\r\n") {
		t.Fatalf("the answer to %s is not addressed to it, quoted:\n%s", typed, raw)
	}
	m := regexp.MustCompile(`games\+(a-[a-z2-7]{16})@`).FindStringSubmatch(raw)
	if m == nil {
		t.Fatalf("no address token in:\n%s", raw)
	}
	w.deliver(lookAlikeMail(w, typed, w.srv.PlusAddress(m[1]), "challenge icesickle "+w.sys.Address("bob")))
	w.step()
	var player string
	if err := w.srv.DB.QueryRow(`SELECT address FROM pbem_seats WHERE game_id = 1 AND seat = 1`).Scan(&player); err != nil || player != typed {
		t.Fatalf("seat 1: %q, %v; want %q", player, err, typed)
	}
	rec := replay(t, w, 1).Record
	var tag string
	for _, tg := range rec.Tags {
		if tg.Name == "Player1" {
			tag = tg.Value
		}
	}
	if want := "img src=x onerror=alert1 <" + typed + ">"; tag != want {
		t.Errorf("the Player1 tag: %q, want %q", tag, want)
	}
	if name, addr := notation.SplitPlayer(tag); addr != typed || strings.ContainsAny(name, `<>"`) {
		t.Errorf("the tag reads back as %q, %q", name, addr)
	}
}
