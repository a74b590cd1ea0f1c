package pbem_test

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"icepost/pbem"

	"icepost/rules"
	"icepost/rules/icesickle"
)

// TestScenarios runs every scenario on the embedded IMAP server and on a
// real Dovecot (which CI installs; elsewhere those runs skip loudly).
func TestScenarios(t *testing.T) {
	t.Parallel() // a long test: it runs beside the other long ones
	scenarios := []struct {
		name string
		run  func(*testing.T, *world)
		// embeddedOnly: the scenario's mail is what other scenarios
		// carry through Dovecot already; it runs on the embedded
		// system alone, to keep the suite quick (a whole game against
		// the bot is 45 s under -race on Dovecot).
		embeddedOnly bool
	}{
		{name: "FullGame", run: scenarioFullGame},
		{name: "DuplicateDeliveryChangesNothing", run: scenarioDuplicateDeliveryChangesNothing},
		{name: "StaleReplyAndWrongTurn", run: scenarioStaleReplyAndWrongTurn},
		{name: "ForgedFromMovesNothing", run: scenarioForgedFromMovesNothing},
		{name: "AutomaticAndBrokenMail", run: scenarioAutomaticAndBrokenMail},
		{name: "ResignAndDraw", run: scenarioResignAndDraw},
		{name: "CrashBetweenCommitAndSend", run: scenarioCrashBetweenCommitAndSend},
		{name: "IMAPRestart", run: scenarioIMAPRestart},
		{name: "EncodedMail", run: scenarioEncodedMail},
		{name: "DryRun", run: scenarioDryRun},
		{name: "GamesList", run: scenarioGamesList},
		{name: "BotGame", run: scenarioBotGame, embeddedOnly: true},
		{name: "BotCrashBetweenCommitAndSend", run: scenarioBotCrashBetweenCommitAndSend},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			for _, sc := range scenarios {
				if sc.embeddedOnly && b.name != "memory" {
					continue
				}
				t.Run(sc.name, func(t *testing.T) { sc.run(t, b.new(t)) })
			}
		})
	}
}

// startGame has ada challenge bob to IceSickle and bob accept; it returns
// the game's start position as both then see it.
func startGame(t *testing.T, w *world) {
	t.Helper()
	w.send("ada", "challenge icesickle "+w.sys.Address("bob"))
	inv := w.last("bob")
	if !strings.Contains(inv.text, "ada challenges you to a game of IceSickle") {
		t.Fatalf("bob's invitation:\n%s", inv.text)
	}
	if !strings.Contains(w.last("ada").text, "Your challenge is sent") {
		t.Fatalf("ada's confirmation:\n%s", w.last("ada").text)
	}
	w.deliver(w.reply("bob", inv, "accept"))
	w.step()
	for _, p := range []string{"ada", "bob"} {
		if b := w.last(p); !strings.Contains(b.text, "Everyone accepted: the game begins.") {
			t.Fatalf("%s's first board:\n%s", p, b.text)
		}
	}
	if !strings.Contains(w.last("ada").text, "YOUR MOVE, ada") || strings.Contains(w.last("bob").text, "YOUR MOVE") {
		t.Fatalf("seat 1 (ada) should be asked to move:\n%s", w.last("ada").text)
	}
}

// TestFullGame plays a whole IceSickle game by mail: every move a reply to
// the mover's latest board mail, quoted text and all.
func scenarioFullGame(t *testing.T, w *world) {
	startGame(t, w)
	var s rules.State = icesickle.Start()
	seatUser := []string{"", "ada", "bob"}
	for ply := 0; !s.Outcome().Over; ply++ {
		moves := s.Moves(nil)
		m := moves[(ply*7)%len(moves)]
		tok := s.FormatMove(m)
		mover := seatUser[s.ToMove()]
		board := w.last(mover)
		if !strings.Contains(board.text, "YOUR MOVE") {
			t.Fatalf("ply %d: %s's last mail does not ask for a move:\n%s", ply, mover, board.text)
		}
		body := tok
		if ply == 3 {
			body += "\nnice placement, this one"
		}
		w.deliver(w.reply(mover, board, body))
		w.step()
		next, err := s.Play(m)
		if err != nil {
			t.Fatal(err)
		}
		s = next
		if ply == 3 && !strings.Contains(w.last("ada").text, "wrote: nice placement, this one") {
			t.Fatalf("the comment was not passed on:\n%s", w.last("ada").text)
		}
	}
	want := "Game over: "
	for _, p := range []string{"ada", "bob"} {
		if b := w.last(p); !strings.Contains(b.text, want) || !strings.Contains(b.text, s.Code()) {
			t.Fatalf("%s's last mail:\n%s", p, b.text)
		}
	}
	var status, record string
	if err := w.srv.DB.QueryRow(`SELECT status, record FROM pbem_games WHERE id = 1`).Scan(&status, &record); err != nil {
		t.Fatal(err)
	}
	if status != pbem.StatusFinished || !strings.Contains(record, "[Score \"") {
		t.Fatalf("status %s, record:\n%s", status, record)
	}
	if !strings.Contains(record, "{nice placement, this one}") {
		t.Errorf("the comment is not in the record:\n%s", record)
	}
	var archived int
	if err := w.srv.DB.QueryRow(`SELECT count(*) FROM games`).Scan(&archived); err != nil || archived != 1 {
		t.Errorf("%d games in the archive (%v), want 1", archived, err)
	}
}

// plyOf reads game 1's ply from the database.
func plyOf(t *testing.T, w *world) int {
	var ply int
	if err := w.srv.DB.QueryRow(`SELECT ply FROM pbem_games WHERE id = 1`).Scan(&ply); err != nil {
		t.Fatal(err)
	}
	return ply
}

// The daemon commits a move and dies before sending the replies and
// before filing the mail away. Restarted, it sends each reply once.
func scenarioCrashBetweenCommitAndSend(t *testing.T, w *world) {
	startGame(t, w)
	adaBefore, bobBefore := len(w.inbox("ada")), len(w.inbox("bob"))
	w.deliver(w.reply("ada", w.last("ada"), "L@c3"))
	msgs, err := w.messages(w.ctx, "games", "")
	if err != nil || len(msgs) != 1 {
		t.Fatalf("%d mails in the server's INBOX (%v)", len(msgs), err)
	}
	if _, err := w.srv.Handle(w.ctx, msgs[0].Raw); err != nil {
		t.Fatal(err)
	}
	// ... the process dies here. A new one starts:
	w.d = w.newDaemon()
	w.step()
	w.step()
	if a, b := len(w.inbox("ada"))-adaBefore, len(w.inbox("bob"))-bobBefore; a != 1 || b != 1 {
		t.Errorf("after the restart ada got %d mails and bob %d, want 1 each", a, b)
	}
	if plyOf(t, w) != 1 {
		t.Errorf("ply %d, want 1", plyOf(t, w))
	}
	if msgs, _ := w.messages(w.ctx, "games", ""); len(msgs) != 0 {
		t.Errorf("%d mails left in the INBOX", len(msgs))
	}
}

// The IMAP server goes down and comes back mid-game; the daemon
// reconnects and goes on.
func scenarioIMAPRestart(t *testing.T, w *world) {
	startGame(t, w)
	if w.dovecot != nil {
		w.dovecot.Restart()
	} else {
		if err := w.sys.SuspendIMAP(); err != nil {
			t.Fatal(err)
		}
		if err := w.sys.ResumeIMAP(); err != nil {
			t.Fatal(err)
		}
	}
	w.deliver(w.reply("ada", w.last("ada"), "L@c3"))
	w.step()
	if plyOf(t, w) != 1 || !strings.Contains(w.last("bob").text, "ada played L@c3") {
		t.Fatalf("after the restart: ply %d, bob's mail:\n%s", plyOf(t, w), w.last("bob").text)
	}
}

// A reply in windows-1252, base64-encoded, as some mail clients send.
func scenarioEncodedMail(t *testing.T, w *world) {
	startGame(t, w)
	board := w.last("ada")
	body := base64.StdEncoding.EncodeToString([]byte("L@c3\r\nTr\xe8s bien jou\xe9\r\n\r\nOn Sunday, icepost wrote:\r\n> old board\r\n"))
	hdr := fmt.Sprintf("In-Reply-To: <%s>\nMIME-Version: 1.0\nContent-Transfer-Encoding: base64\n", board.messageID)
	raw := w.write("ada", board.replyTo(), "Re: "+board.header.Get("Subject"), hdr, body)
	raw = strings.Replace(raw, "charset=utf-8", "charset=windows-1252", 1)
	w.deliver(raw)
	w.step()
	if got := w.last("bob").text; !strings.Contains(got, "ada played L@c3") || !strings.Contains(got, "ada wrote: Très bien joué") {
		t.Fatalf("bob's mail:\n%s", got)
	}
}

func scenarioDuplicateDeliveryChangesNothing(t *testing.T, w *world) {
	startGame(t, w)
	mv := w.reply("ada", w.last("ada"), "L@c3")
	w.deliver(mv)
	w.step()
	before := w.outboxCount()
	w.deliver(mv) // the same mail, delivered again
	w.step()
	if after := w.outboxCount(); after != before {
		t.Errorf("a second delivery queued %d more mails", after-before)
	}
	var ply int
	w.srv.DB.QueryRow(`SELECT ply FROM pbem_games WHERE id = 1`).Scan(&ply)
	if ply != 1 {
		t.Errorf("ply %d after one move delivered twice", ply)
	}
}

func scenarioStaleReplyAndWrongTurn(t *testing.T, w *world) {
	startGame(t, w)
	first := w.last("ada")
	w.deliver(w.reply("ada", first, "L@c3"))
	w.step()
	// bob replies to his old board (from before ada's move) with a move
	w.deliver(w.reply("bob", w.inbox("bob")[1], "M@a1"))
	w.step()
	if got := w.last("bob").text; !strings.Contains(flat(got), "the game has gone on to move 1 since") {
		t.Fatalf("stale reply answer:\n%s", got)
	}
	// ada answers her own new board although it is bob's turn
	w.deliver(w.reply("ada", w.last("ada"), "M@a1"))
	w.step()
	if got := w.last("ada").text; !strings.Contains(got, "It is bob's turn") {
		t.Fatalf("wrong turn answer:\n%s", got)
	}
	// an illegal move: the reason and the board go to bob alone
	adaMails := len(w.inbox("ada"))
	w.deliver(w.reply("bob", w.last("bob"), "S@c3"))
	w.step()
	if got := w.last("bob").text; !strings.Contains(got, "c3 is occupied") || !strings.Contains(got, "YOUR MOVE") {
		t.Fatalf("illegal move answer:\n%s", got)
	}
	if len(w.inbox("ada")) != adaMails {
		t.Error("ada was told about bob's illegal move")
	}
}

func scenarioForgedFromMovesNothing(t *testing.T, w *world) {
	startGame(t, w)
	// bob takes ada's board mail (say it was forwarded to him) and sends
	// ada's move with his own address.
	forged := w.reply("bob", w.last("ada"), "L@c3")
	w.deliver(forged)
	w.step()
	var ply int
	w.srv.DB.QueryRow(`SELECT ply FROM pbem_games WHERE id = 1`).Scan(&ply)
	if ply != 0 {
		t.Fatal("a move with another player's token was played")
	}
	// And a From that claims to be ada, with no token at all.
	w.deliver(w.write("ada", w.srv.Address, "my move", "", "L@c3"))
	w.step()
	w.srv.DB.QueryRow(`SELECT ply FROM pbem_games WHERE id = 1`).Scan(&ply)
	if ply != 0 {
		t.Fatal("a move without a token was played")
	}
	// ada is sent the board to reply to, which her real mailbox gets.
	if !strings.Contains(strings.Join(strings.Fields(w.last("ada").text), " "), "it was not played") {
		t.Errorf("ada's answer:\n%s", w.last("ada").text)
	}
}

func scenarioAutomaticAndBrokenMail(t *testing.T, w *world) {
	w.deliver(w.write("ada", w.srv.Address, "Out of office", "Auto-Submitted: auto-replied\n", "I am away"))
	// A multipart mail with no boundary, from nobody: it cannot be read.
	w.deliver("Subject: broken\nContent-Type: multipart/mixed\n\n--x\nno parts here\n")
	w.step()
	if n := w.outboxCount(); n != 0 {
		t.Errorf("%d replies to automatic or broken mail", n)
	}
	var outcomes []string
	rows, _ := w.srv.DB.Query(`SELECT outcome FROM pbem_processed ORDER BY processed_at`)
	for rows.Next() {
		var o string
		rows.Scan(&o)
		outcomes = append(outcomes, o)
	}
	rows.Close()
	if len(outcomes) != 2 || !strings.HasPrefix(outcomes[0], "automatic") || !strings.HasPrefix(outcomes[1], "rejected") {
		t.Errorf("outcomes %q", outcomes)
	}
	for folder, want := range map[string]int{"icepost/done": 1, "icepost/rejected": 1, "": 0} {
		msgs, err := w.messages(w.ctx, "games", folder)
		if err != nil || len(msgs) != want {
			t.Errorf("folder %q: %d mails (%v), want %d", folder, len(msgs), err, want)
		}
	}
}

func scenarioResignAndDraw(t *testing.T, w *world) {
	startGame(t, w)
	w.deliver(w.reply("ada", w.last("ada"), "draw"))
	w.step()
	if !strings.Contains(w.last("bob").text, "ada offers a draw") {
		t.Fatalf("bob's mail:\n%s", w.last("bob").text)
	}
	w.deliver(w.reply("bob", w.last("bob"), "resign"))
	w.step()
	if got := w.last("ada").text; !strings.Contains(got, "bob resigned") || !strings.Contains(got, "Game over: ada wins by resignation (1-0)") {
		t.Fatalf("ada's mail:\n%s", got)
	}
}

// A dry run reads and decides but changes, files and sends nothing, and
// logs each mail once.
func scenarioDryRun(t *testing.T, w *world) {
	w.srv.DryRun = true
	w.deliver(w.write("ada", w.srv.Address, "new game", "", "challenge icesickle "+w.sys.Address("bob")))
	n1, err := w.d.ProcessInbox(w.ctx)
	if err != nil {
		t.Fatal(err)
	}
	n2, _ := w.d.ProcessInbox(w.ctx)
	if n1 != 1 || n2 != 0 {
		t.Errorf("handled %d then %d mails, want 1 then 0", n1, n2)
	}
	var games, processed int
	w.srv.DB.QueryRow(`SELECT count(*) FROM pbem_games`).Scan(&games)
	w.srv.DB.QueryRow(`SELECT count(*) FROM pbem_processed`).Scan(&processed)
	if games != 0 || processed != 0 || w.outboxCount() != 0 {
		t.Errorf("a dry run left %d games, %d processed, %d queued", games, processed, w.outboxCount())
	}
	if msgs, _ := w.messages(w.ctx, "games", ""); len(msgs) != 1 {
		t.Errorf("%d mails in the INBOX after a dry run, want 1", len(msgs))
	}
}

// "games" lists a player's games, whose turn it is, and the time left.
func scenarioGamesList(t *testing.T, w *world) {
	w.send("ada", "challenge icesickle days=3 "+w.sys.Address("bob"))
	w.deliver(w.reply("bob", w.last("bob"), "accept"))
	w.step()
	w.clock.Advance(24 * time.Hour)
	w.deliver(w.write("bob", w.srv.Address, "my games", "", "games"))
	w.step()
	if got := w.last("bob").text; !strings.Contains(got, "IceSickle #1: ada vs bob: ada to move (move 1), 2 days left") {
		t.Errorf("bob's games:\n%s", got)
	}
}
