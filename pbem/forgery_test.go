package pbem_test

import (
	"cmp"
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strings"
	"testing"

	"icepost/pbem"
	"icepost/tournament"

	"icepost/pbem/events"
	"icepost/pbem/mailaddr"
	"icepost/pbem/mailgames"
	"icepost/pbem/mailread"
	"icepost/pbem/replytoken"
	"icepost/rules"
)

// Only a player acts for their seat: every command of the table that acts
// (proof forSeat or forSender), sent with ada's address forged in From,
// changes nothing and is answered only at a real address. The forgers:
// her opponent and a player of another game (each with a reply token of
// their own), an outsider (no token), and an outsider whose display name
// is ada's address.

// forgeryWorld is a world with games that give every command something
// to act on:
//
//	game 1: ada vs bob, ada moved (bob to move), ada has a conditional move
//	game 2: ada vs cy, ada to move
//	game 3: bob vs dee, dee to move (ada follows nothing)
//	game 4: dee challenged ada, not yet answered
//	game 5: ada vs bob, one move, then bob resigned (ada may analyze it)
type forgeryWorld struct {
	*world
	move2 string // a legal move of ada's in game 2
	cond  string // a conditional line for ada in game 1 (not given yet)
}

func newForgeryWorld(t *testing.T, newWorld func(testing.TB) *world) *forgeryWorld {
	t.Helper()
	w := newWorld(t)
	w.srv.Deadlines.VacationDays = 20
	// Everyone here is a starter, so that organize would act for ada.
	for _, p := range []string{"ada", "bob", "cy", "dee"} {
		w.srv.Starters = append(w.srv.Starters, w.sys.Address(p))
	}
	// An archive that serves puzzles, so that puzzle on would act for
	// ada (it has none: she would be signed up for them).
	w.srv.Archive = puzzleArchive{db: w.srv.DB}
	fw := &forgeryWorld{world: w}
	fw.game("ada", "bob", 1)
	fw.reply("ada", 1, 1, moveFor(t, w, 1, 0))
	fw.game("ada", "cy", 2)
	fw.game("bob", "dee", 3)
	fw.reply("bob", 3, 1, moveFor(t, w, 3, 0))
	w.send("dee", "challenge icesickle "+w.sys.Address("ada"))
	fw.game("ada", "bob", 5)
	fw.reply("ada", 5, 1, moveFor(t, w, 5, 0))
	fw.reply("bob", 5, 2, "resign")
	// ada's conditional move in game 1: if bob plays A, she answers B.
	st := replay(t, w, 1).Final()
	a := st.Moves(nil)[0]
	next, _, err := rules.Play(st, st.FormatMove(a))
	if err != nil {
		t.Fatal(err)
	}
	given := "if " + st.FormatMove(a) + " then " + next.FormatMove(next.Moves(nil)[0])
	fw.reply("ada", 1, 1, given)
	a2 := st.Moves(nil)[1]
	next2, _, _ := rules.Play(st, st.FormatMove(a2))
	fw.cond = "if " + st.FormatMove(a2) + " then " + next2.FormatMove(next2.Moves(nil)[0])
	fw.move2 = moveFor(t, w, 2, 0)
	if n := countRows(t, w, `SELECT count(*) FROM pbem_conditions`); n != 1 {
		t.Fatalf("%d rows of conditions, want ada's", n)
	}
	// Two tournaments open, ada in the first: withdraw 1 and join 2 would
	// act for her.
	svc := withTournaments(w)
	for _, name := range []string{"Club Swiss", "Club Cup"} {
		if _, err := svc.Create(w.ctx, events.Spec{Name: name, Game: "icesickle", Format: tournament.Swiss, Settings: tournament.Options{Rounds: 3}}); err != nil {
			t.Fatal(err)
		}
	}
	// Ladder 3 (bob, ada): climb 3 1 would challenge bob for ada. Ladder
	// 4 (ada, cy): cy challenges ada, and defend 4 would answer for her.
	for _, l := range []struct {
		name    string
		players []string
	}{{"Club Ladder", []string{"bob", "ada"}}, {"Cup Ladder", []string{"ada", "cy"}}} {
		var ps []string
		for _, p := range l.players {
			ps = append(ps, w.sys.Address(p))
		}
		id, err := svc.Create(w.ctx, events.Spec{Name: l.name, Game: "icesickle", Format: tournament.Ladder, Players: ps})
		if err != nil {
			t.Fatal(err)
		}
		if err := svc.Start(w.ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	w.send("cy", "climb 4 1")
	if n := countRows(t, w, `SELECT count(*) FROM pbem_events WHERE id = 4 AND state LIKE '%"state":"open"%'`); n != 1 {
		t.Fatal("cy's challenge on ladder 4 is not open")
	}
	w.send("ada", "join 1")
	if n := countRows(t, w, `SELECT count(*) FROM pbem_events WHERE id = 1 AND state LIKE '%"ada@club.test"%'`); n != 1 {
		t.Fatal("ada did not join tournament 1")
	}
	// ada's seek, for unseek to take back.
	w.send("ada", "seek pikemen target=9")
	if n := countRows(t, w, `SELECT count(*) FROM pbem_seeks`); n != 1 {
		t.Fatalf("%d seeks, want ada's", n)
	}
	return fw
}

// game has a challenge b to a game number id, which b accepts.
func (fw *forgeryWorld) game(a, b string, id int) {
	fw.t.Helper()
	fw.send(a, "challenge icesickle "+fw.sys.Address(b))
	fw.reply(b, id, 2, "accept")
}

// reply has user answer their latest mail of game id (seat seat) with
// body, as a mail client would.
func (fw *forgeryWorld) reply(user string, id, seat int, body string) {
	fw.t.Helper()
	m := fw.latest(user, id, seat)
	fw.deliver(fw.world.reply(user, m, body))
	fw.step()
}

// latest is user's newest mail of game id that carries a seat's token.
func (fw *forgeryWorld) latest(user string, id, seat int) got {
	fw.t.Helper()
	in := fw.inbox(user)
	for i := len(in) - 1; i >= 0; i-- {
		for _, k := range "mi" {
			if strings.HasPrefix(in[i].replyTo(), fmt.Sprintf("games+%c%d-%d-", k, id, seat)) {
				return in[i]
			}
		}
	}
	fw.t.Fatalf("%s has no mail of game %d", user, id)
	return got{}
}

// state is everything a command could change, as text.
func (fw *forgeryWorld) state() string {
	fw.t.Helper()
	var b strings.Builder
	for _, q := range []string{
		`SELECT id, status, record, ply, draw_offers, undo_requests FROM pbem_games ORDER BY id`,
		`SELECT game_id, seat, address, accepted FROM pbem_seats ORDER BY game_id, seat`,
		`SELECT game_id, seat, ply, chains FROM pbem_conditions ORDER BY game_id, seat`,
		`SELECT address, starts_at, ends_at FROM pbem_vacations ORDER BY id`,
		`SELECT game_id, address FROM pbem_observers ORDER BY game_id, address`,
		`SELECT address, digest, blocked FROM pbem_players ORDER BY address`,
		`SELECT game_id, ply FROM pbem_bot_jobs ORDER BY game_id`,
		`SELECT game_id, level FROM pbem_analysis_jobs ORDER BY game_id`,
		`SELECT game_id, level, seat FROM pbem_analysis_requests ORDER BY game_id, seat`,
		`SELECT id, address, game, terms, game_id FROM pbem_seeks ORDER BY id`,
		`SELECT id, status, state FROM pbem_events ORDER BY id`,
		`SELECT address, active, last_puzzle FROM pbem_puzzle_players ORDER BY address`,
		`SELECT address, puzzle_id, moves, status FROM pbem_puzzle_tries ORDER BY address, puzzle_id`,
	} {
		rows, err := fw.srv.DB.Query(q)
		if err != nil {
			fw.t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				fw.t.Fatal(err)
			}
			fmt.Fprintln(&b, vals...)
		}
		rows.Close()
	}
	return b.String()
}

// mails counts the mails queued for each player (the outbox keeps them
// after sending: what a player received is what was queued for them).
func (fw *forgeryWorld) mails() map[string]int {
	fw.t.Helper()
	n := map[string]int{}
	rows, err := fw.srv.DB.Query(`SELECT recipient, count(*) FROM pbem_outbox GROUP BY recipient`)
	if err != nil {
		fw.t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var to string
		var k int
		if err := rows.Scan(&to, &k); err != nil {
			fw.t.Fatal(err)
		}
		n[pbem.NameOf(to)] = k
	}
	return n
}

// forged is a mail to the server with the From line given, an optional
// reply token taken from another's mail, and extra header lines.
func (fw *forgeryWorld) forged(from string, token *got, extra, body string) string {
	id := fmt.Sprintf("forged%d@evil.example", fw.n.Add(1))
	to, hdr := fw.srv.Address, ""
	if token != nil {
		to = token.replyTo()
		hdr = fmt.Sprintf("In-Reply-To: <%s>\nReferences: <%s>\n", token.messageID, token.messageID)
	}
	return fmt.Sprintf("From: %s\nTo: %s\nSubject: Re: your game\nMessage-ID: <%s>\nDate: Sun, 22 Nov 2026 12:00:00 +0000\n%s%sContent-Type: text/plain; charset=utf-8\n\n%s\n",
		from, to, id, hdr, extra, body)
}

// forgeryCases is, for each verb of the table that acts, a line that
// would act for ada in the forgery world.
func forgeryCases(fw *forgeryWorld) map[string]string {
	return map[string]string{
		"move":             fw.move2,
		"draw":             "draw",
		"resign":           "resign",
		"if":               fw.cond,
		"conditions clear": "conditions clear",
		"challenge":        "challenge icesickle " + fw.sys.Address("eve"),
		"seek":             "seek icesickle days=9",
		"unseek":           "unseek",
		"join":             "join 2",
		"withdraw":         "withdraw 1",
		"climb":            "climb 3 1",
		"defend":           "defend 4",
		"organize":         "organize icesickle swiss rounds=3 start=full max=8 Forged Open",
		"puzzle":           "puzzle on",
		"accept":           "accept",
		"decline":          "decline",
		"observe":          "observe 3",
		"undo":             "undo",
		"vacation":         "vacation 3",
		"digest":           "digest on",
		"confirm":          "confirm off",
		"analyze":          "analyze",
	}
}

func TestForgedFromActsForNobody(t *testing.T) {
	t.Parallel() // a long test: it runs beside the other long ones
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			// On the embedded system each verb has a world of its own, so
			// that a forgery that got through cannot hide the next. On
			// Dovecot, slower to start, all share one: a forgery changes
			// nothing, so each finds the world as the first did. The
			// verbs about an active game come last, once game 2 is
			// cancelled, so that game 1 is ada's only active game: no
			// doubt which one a new mail is about.
			shared := b.name == "dovecot"
			acting := pbem.ActingCommands()
			slices.SortStableFunc(acting, func(x, y pbem.ActingCommand) int {
				return cmp.Compare(bool01(x.AboutActiveGame), bool01(y.AboutActiveGame))
			})
			var fw *forgeryWorld
			cancelled := false
			for _, mc := range acting {
				if fw == nil || !shared {
					fw, cancelled = newForgeryWorld(t, b.new), false
				}
				if mc.AboutActiveGame && !cancelled {
					if err := fw.srv.CancelGame(fw.ctx, 2); err != nil {
						t.Fatal(err)
					}
					fw.step()
					cancelled = true
				}
				t.Run(mc.Verb, func(t *testing.T) {
					line, ok := forgeryCases(fw)[mc.Verb]
					if !ok {
						t.Fatalf("the table's command %q acts, and this test has no forged line for it: add one to forgeryCases", mc.Verb)
					}
					if c, ok := testParse(line); !ok || c != mc.Verb {
						t.Fatalf("the line %q reads as %q, not %q", line, c, mc.Verb)
					}
					bobsBoard := fw.latest("bob", 1, 2)
					deesBoard := fw.latest("dee", 3, 2)
					ada := fw.sys.Address("ada")
					forgers := []struct {
						name, from string
						token      *got
						answered   []string // who may get mail
					}{
						{"opponent", ada, &bobsBoard, []string{"ada", "bob"}},
						{"outsider", ada, nil, []string{"ada"}},
						{"player of another game", ada, &deesBoard, []string{"ada", "dee"}},
						{"display name", `"` + ada + `" <` + fw.sys.Address("eve") + `>`, nil, []string{"eve"}},
					}
					for _, f := range forgers {
						before, mails := fw.state(), fw.mails()
						fw.deliver(fw.forged(f.from, f.token, "", line))
						fw.step()
						if after := fw.state(); after != before {
							t.Errorf("%s sent %q as ada: it changed\n%s\ninto\n%s", f.name, line, before, after)
						}
						for p, n := range fw.mails() {
							if n != mails[p] && !contains(f.answered, p) {
								t.Errorf("%s sent %q as ada: %s got %d mails", f.name, line, p, n-mails[p])
							}
						}
					}
				})
			}
		})
	}
}

func bool01(b bool) int {
	if b {
		return 1
	}
	return 0
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// testParse reads a line with the daemon's language, giving its verb.
func testParse(line string) (string, bool) {
	c, ok := mailread.ParseCommand(line, pbem.Language())
	return c.Verb, ok
}

// With the operator's check of senders, a forged From with a header that
// looks like a pass, but is not our server's word on this From, changes
// nothing; our server's real pass plays a move from a new mail at once.
func TestForgedAuthenticationResults(t *testing.T) {
	t.Parallel() // a long test: it runs beside the other long ones
	headers := []struct{ name, extra string }{
		{"another domain's pass beside a dmarc fail", "Authentication-Results: mx.club.test; dkim=pass header.d=evil.example; dmarc=fail header.from=club.test\n"},
		{"a pass in a comment", "Authentication-Results: mx.club.test; dkim=fail (dkim=pass header.d=club.test) header.d=club.test\n"},
		{"a pass in a comment with a semicolon", "Authentication-Results: mx.club.test; dmarc=fail (p=reject; dmarc=pass header.from=club.test) header.from=club.test\n"},
		{"a pass under another authserv-id", "Authentication-Results: mx.evil.example; dmarc=pass header.from=club.test\n"},
		{"a fail of ours on top, a pass below", "Authentication-Results: mx.club.test; dmarc=fail header.from=club.test\nAuthentication-Results: mx.club.test; dmarc=pass header.from=club.test\n"},
		{"100 KB", "Authentication-Results: mx.club.test; " + strings.Repeat("x", 100<<10) + " dmarc=pass header.from=club.test\n"},
		{"NULs", "Authentication-Results: mx.club.test; dmarc=pass\x00 header.from=club.test\n"},
		{"1,000 results", "Authentication-Results: mx.club.test; " + strings.Repeat("dkim=fail header.d=club.test; ", 1000) + "dmarc=pass header.from=club.test\n"},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			// One world, and in it one game per header: ada's only active
			// game is the last, waiting for her move.
			w := b.new(t)
			fw := &forgeryWorld{world: w}
			ada := w.sys.Address("ada")
			for i, h := range headers {
				if i > 0 {
					// The game before, unless a forgery ended it.
					if err := w.srv.CancelGame(w.ctx, int64(i)); err != nil && !errors.Is(err, mailgames.ErrRefused) {
						t.Fatal(err)
					}
				}
				w.srv.AuthServID = ""
				fw.game("ada", "cy", i+1)
				w.srv.AuthServID = "mx.club.test"
				move := moveFor(t, w, int64(i+1), 0)
				for _, line := range []string{move, "resign", "draw"} {
					before, mails := fw.state(), fw.mails()
					w.deliver(fw.forged(ada, nil, h.extra, line))
					w.step()
					if after := fw.state(); after != before {
						t.Errorf("%s, %q: it changed\n%s\ninto\n%s", h.name, line, before, after)
					}
					for p, n := range fw.mails() {
						if n != mails[p] && p != "ada" {
							t.Errorf("%s, %q: %s got %d mails", h.name, line, p, n-mails[p])
						}
					}
				}
			}
			// The positive control: our server's pass for ada's domain.
			id := len(headers)
			move := moveFor(t, w, int64(id), 0)
			good := "Authentication-Results: mx.club.test; dkim=pass header.d=club.test; dmarc=pass header.from=club.test\n"
			w.deliver(fw.forged(ada, nil, good, move))
			w.step()
			if ply, _ := gameRow(t, w, id); ply != 1 {
				t.Errorf("a new mail with our server's pass did not play %s (ply %d)", move, ply)
			}
			if b := fw.latest("cy", id, 2); !strings.Contains(b.text, "ada played "+move) {
				t.Errorf("cy's board:\n%s", b.text)
			}
		})
	}
}

// Without proof, the answer is the board to reply to, and that one reply
// does it: for a command that acts for a seat (resign), and one that acts
// for the sender (vacation).
func TestOneReplyGivesTheProof(t *testing.T) {
	fw := newForgeryWorld(t, newWorld)
	fw.deliver(fw.write("ada", fw.srv.Address, "giving up", "", "resign"))
	fw.step()
	// ada has two active games: a board of each, to reply to.
	b := fw.latest("ada", 2, 1)
	if !strings.Contains(b.text, `your mail said "resign"`) && !strings.Contains(b.text, `Your mail said "resign"`) {
		t.Fatalf("ada's answer:\n%s", b.text)
	}
	fw.deliver(fw.world.reply("ada", b, "resign"))
	fw.step()
	var status string
	fw.srv.DB.QueryRow(`SELECT status FROM pbem_games WHERE id = 2`).Scan(&status)
	if status != pbem.StatusFinished {
		t.Errorf("game 2 is %s after ada's reply with resign", status)
	}

	fw.deliver(fw.write("ada", fw.srv.Address, "away", "", "vacation 3"))
	fw.step()
	conf := fw.last("ada")
	if !strings.Contains(conf.text, "vacation 3") || !strings.HasPrefix(conf.replyTo(), "games+a-") {
		t.Fatalf("ada's answer to vacation: Reply-To %s\n%s", conf.replyTo(), conf.text)
	}
	if n := countRows(t, fw.world, `SELECT count(*) FROM pbem_vacations`); n != 0 {
		t.Fatal("a vacation from a new mail")
	}
	// The address token is ada's alone: bob replying to it with his own
	// From proves nothing.
	fw.deliver(fw.world.reply("bob", conf, "vacation 3"))
	fw.step()
	if n := countRows(t, fw.world, `SELECT count(*) FROM pbem_vacations`); n != 0 {
		t.Fatal("ada's address token gave bob a vacation")
	}
	fw.deliver(fw.world.reply("ada", conf, "vacation 3"))
	fw.step()
	if n := countRows(t, fw.world, `SELECT count(*) FROM pbem_vacations WHERE address = ?`, fw.sys.Address("ada")); n != 1 {
		t.Fatal("ada's reply to the confirmation did not start her vacation")
	}
}

func TestAddressToken(t *testing.T) {
	secret := []byte("0123456789abcdef-test")
	ada, err := mailaddr.Canonical("Ada@Club.test")
	if err != nil {
		t.Fatal(err)
	}
	tok := replytoken.ForAddress(secret, ada)
	if !replytoken.IsForAddress(secret, tok, "ada@club.test") {
		t.Errorf("%s is not ada's", tok)
	}
	// A token has one spelling.
	for _, typed := range []string{strings.ToUpper(tok), " " + tok, tok + " ", "A" + tok[1:]} {
		if replytoken.IsForAddress(secret, typed, "ada@club.test") {
			t.Errorf("%q, %q typed otherwise, passes", typed, tok)
		}
	}
	for _, bad := range []struct{ tok, addr string }{
		{tok, "bob@club.test"}, {tok, ""}, {tok[:len(tok)-1], "ada@club.test"}, {"a-", "ada@club.test"},
		{replytoken.ForAddress([]byte("another secret!!"), "ada@club.test"), "ada@club.test"},
	} {
		if replytoken.IsForAddress(secret, bad.tok, bad.addr) {
			t.Errorf("%q passes for %q", bad.tok, bad.addr)
		}
	}
	if _, err := mail.ParseAddress("games+" + tok + "@club.test"); err != nil {
		t.Errorf("not an address part: %v", err)
	}
}

// With auth_serv_id set, only a DMARC or DKIM pass from the operator's own
// server lets a mail act; a header from anyone else counts for nothing.
func TestAuthenticationResults(t *testing.T) {
	w := newWorld(t)
	w.srv.AuthServID = "mx.club.test"
	forged := "Authentication-Results: evil.example; dmarc=pass\n"
	w.deliver(w.write("ada", w.srv.Address, "new game", forged, "challenge icesickle "+w.sys.Address("bob")))
	w.step()
	if len(w.inbox("bob")) != 0 {
		t.Fatal("a mail without our server's pass started a game")
	}
	good := "Authentication-Results: mx.club.test; dkim=pass header.d=club.test; dmarc=pass header.from=club.test\n"
	w.deliver(w.write("ada", w.srv.Address, "new game", good, "challenge icesickle "+w.sys.Address("bob")))
	w.step()
	if len(w.inbox("bob")) != 1 {
		t.Fatal("a mail with our server's pass did not start a game")
	}
}
