package pbem_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/mail"
	"strings"
	"sync"
	"testing"

	"icepost/pbem"

	"icepost/archive"
	"icepost/notation"
	"icepost/pbem/mailerr"
	"icepost/pbem/mailread"
)

// TestFailures runs, on the embedded IMAP server and on Dovecot, what
// becomes of a mail whose handling fails: set aside when the failure will
// not pass, kept when it may.
func TestFailures(t *testing.T) {
	scenarios := []struct {
		name string
		run  func(*testing.T, *world)
	}{
		{"BrokenGameIsSetAside", scenarioBrokenGameIsSetAside},
		{"PanicIsSetAside", scenarioPanicIsSetAside},
		{"TransientErrorKeepsTheMail", scenarioTransientErrorKeepsTheMail},
		{"RedeliveryWithoutMessageID", scenarioRedeliveryWithoutMessageID},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			for _, sc := range scenarios {
				t.Run(sc.name, func(t *testing.T) { sc.run(t, b.new(t)) })
			}
		})
	}
}

// syncBuffer is a log the test reads while the daemon writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// operatorLog sends the server's log to a buffer.
func operatorLog(w *world) *syncBuffer {
	buf := &syncBuffer{}
	w.srv.Log = slog.New(slog.NewTextHandler(buf, nil))
	return buf
}

func messageID(t *testing.T, raw string) string {
	t.Helper()
	m, err := mail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Trim(m.Header.Get("Message-ID"), "<>")
}

// folderCounts checks how many mails the server's folders hold.
func folderCounts(t *testing.T, w *world, want map[string]int) {
	t.Helper()
	for folder, n := range want {
		msgs, err := w.messages(w.ctx, "games", folder)
		if err != nil || len(msgs) != n {
			t.Errorf("folder %q: %d mails (%v), want %d", folder, len(msgs), err, n)
		}
	}
}

func countRows(t *testing.T, w *world, query string, args ...any) int {
	t.Helper()
	var n int
	if err := w.srv.DB.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// checkApology checks that a mail is the apology for the mail with id,
// and tells nothing of the cause.
func checkApology(t *testing.T, g got, id string, secrets ...string) {
	t.Helper()
	if !strings.Contains(g.header.Get("Subject"), "your mail could not be handled") ||
		!strings.Contains(g.text, "nothing changed in your games") ||
		!strings.Contains(g.header.Get("In-Reply-To"), id) {
		t.Errorf("not the apology for <%s>:\n%s\n%s", id, g.header, g.text)
	}
	for _, s := range append(secrets, "error", "panic", "record", "game 1", "#1") {
		if strings.Contains(strings.ToLower(g.text), strings.ToLower(s)) {
			t.Errorf("the apology tells %q:\n%s", s, g.text)
		}
	}
}

// A stored game no longer replays. A move to it is set aside, with one
// apology however many mails fail, and the mails behind it are answered;
// a restart or a second delivery does not handle it again.
func scenarioBrokenGameIsSetAside(t *testing.T, w *world) {
	startGame(t, w)
	logs := operatorLog(w)
	w.srv.ErrorLimit = 1
	forgetErrorReplies(t, w) // the challenge's confirmation was one
	board := w.last("ada")
	adaBefore, bobBefore := len(w.inbox("ada")), len(w.inbox("bob"))
	if _, err := w.srv.DB.Exec(`UPDATE pbem_games SET record = 'garbage' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	move := w.reply("ada", board, "L@c3")
	w.deliver(move)
	w.deliver(w.reply("ada", board, "board")) // fails too: no second apology, the limit's notice
	w.deliver(w.write("ada", w.srv.Address, "help please", "", "help"))
	w.step()

	in := w.inbox("ada")[adaBefore:]
	if len(in) != 3 {
		for _, g := range in {
			t.Logf("ada got %q:\n%s", g.header.Get("Subject"), g.text)
		}
		t.Fatalf("ada got %d mails, want the apology, the limit's notice and the help", len(in))
	}
	checkApology(t, in[0], messageID(t, move), "garbage", "replay")
	checkLimitNotice(t, in[1])
	if in[2].header.Get("Subject") != "icepost: help" || !strings.Contains(in[2].text, "icepost plays Icehouse pyramid games by mail") {
		t.Errorf("the help mail queued behind the broken game was not answered:\n%s", in[2].text)
	}
	if n := len(w.inbox("bob")) - bobBefore; n != 0 {
		t.Errorf("bob got %d mails", n)
	}
	folderCounts(t, w, map[string]int{"": 0, "icepost/rejected": 2, "icepost/done": 4})
	if n := countRows(t, w, `SELECT count(*) FROM pbem_processed WHERE outcome LIKE 'rejected: internal error: %no longer replays%'`); n != 2 {
		t.Errorf("%d mails recorded as rejected for the broken game, want 2", n)
	}
	if n := countRows(t, w, `SELECT count(*) FROM pbem_games WHERE id = 1 AND record = 'garbage' AND ply = 0`); n != 1 {
		t.Error("the broken game was changed")
	}
	if l := logs.String(); !strings.Contains(l, "level=ERROR") || !strings.Contains(l, "the stored record no longer replays") {
		t.Errorf("the operator's log does not give the cause at Error level:\n%s", l)
	}

	// A restarted daemon, and the same mail delivered again.
	queued := w.outboxCount()
	w.d = w.newDaemon()
	w.step()
	w.deliver(move)
	w.step()
	if n := len(w.inbox("ada")) - adaBefore; n != 3 || w.outboxCount() != queued {
		t.Errorf("after a restart and a second delivery ada has %d new mails (want 3), %d more queued", n, w.outboxCount()-queued)
	}
	folderCounts(t, w, map[string]int{"": 0, "icepost/rejected": 3, "icepost/done": 4})
}

// panickyArchive panics when a game ends.
type panickyArchive struct{}

func (panickyArchive) AddGame(context.Context, *sql.Tx, *notation.Game, string) error {
	panic("the archive exploded")
}

// A panic in handling a mail goes the same way: rolled back, set aside,
// one apology within the limit, the next mail handled.
func scenarioPanicIsSetAside(t *testing.T, w *world) {
	startGame(t, w)
	logs := operatorLog(w)
	w.srv.ErrorLimit = 1
	forgetErrorReplies(t, w) // the challenge's confirmation was one
	w.srv.Archive = panickyArchive{}
	board := w.last("ada")
	adaBefore, bobBefore := len(w.inbox("ada")), len(w.inbox("bob"))
	resign := w.reply("ada", board, "resign")
	w.deliver(resign)
	w.deliver(w.reply("ada", board, "resign")) // panics too: no second apology, the limit's notice
	w.deliver(w.write("ada", w.srv.Address, "help please", "", "help"))
	w.step()

	in := w.inbox("ada")[adaBefore:]
	if len(in) != 3 {
		t.Fatalf("ada got %d mails, want the apology, the limit's notice and the help", len(in))
	}
	checkApology(t, in[0], messageID(t, resign), "exploded", "archive")
	checkLimitNotice(t, in[1])
	if in[2].header.Get("Subject") != "icepost: help" {
		t.Errorf("the help mail behind the panics was not answered: %q", in[2].header.Get("Subject"))
	}
	if n := len(w.inbox("bob")) - bobBefore; n != 0 {
		t.Errorf("bob got %d mails: a rolled-back resignation was announced", n)
	}
	if n := countRows(t, w, `SELECT count(*) FROM pbem_games WHERE id = 1 AND status = ?`, pbem.StatusActive); n != 1 {
		t.Error("the game is no longer active")
	}
	if n := countRows(t, w, `SELECT count(*) FROM pbem_processed WHERE mail_key = ? AND outcome = 'rejected: internal error: panic: the archive exploded'`, "id:"+messageID(t, resign)); n != 1 {
		t.Error("the panicking mail is not recorded as rejected under its Message-ID")
	}
	folderCounts(t, w, map[string]int{"": 0, "icepost/rejected": 2, "icepost/done": 4})
	if l := logs.String(); !strings.Contains(l, "level=ERROR") || !strings.Contains(l, "the archive exploded") || !strings.Contains(l, "goroutine") {
		t.Errorf("the operator's log lacks the panic and its stack:\n%s", l)
	}

	w.d = w.newDaemon()
	w.deliver(resign)
	w.step()
	if n := len(w.inbox("ada")) - adaBefore; n != 3 {
		t.Errorf("the panicking mail delivered again: ada has %d new mails, want 3", n)
	}
	folderCounts(t, w, map[string]int{"": 0, "icepost/rejected": 3})
}

// A failure that may pass (the context ended, the database busy) sets
// nothing aside: the mail stays in the INBOX, nothing is recorded or
// queued, and it is answered once the failure is over.
func scenarioTransientErrorKeepsTheMail(t *testing.T, w *world) {
	w.step() // the mailbox's UIDVALIDITY is known: the next step writes nothing before the mail
	w.deliver(w.write("ada", w.srv.Address, "help please", "", "help"))
	msgs, err := w.messages(w.ctx, "games", "")
	if err != nil || len(msgs) != 1 {
		t.Fatalf("%d mails in the INBOX (%v)", len(msgs), err)
	}
	untouched := func(when string) {
		t.Helper()
		if n := countRows(t, w, `SELECT count(*) FROM pbem_processed`); n != 0 || w.outboxCount() != 0 {
			t.Errorf("%s: %d mails recorded, %d queued", when, n, w.outboxCount())
		}
		folderCounts(t, w, map[string]int{"": 1}) // and no rejected folder yet
	}

	cancelled, cancel := context.WithCancel(w.ctx)
	cancel()
	if _, err := w.srv.Handle(cancelled, msgs[0].Raw); err == nil || !mailerr.IsTemporary(err) {
		t.Errorf("Handle with an ended context = %v, want a temporary error", err)
	}
	untouched("context ended")

	// Another process holds the database's write lock, longer than the
	// server waits.
	var path string
	if err := w.srv.DB.QueryRow(`SELECT file FROM pragma_database_list WHERE name = 'main'`).Scan(&path); err != nil {
		t.Fatal(err)
	}
	dsn := strings.Replace(archive.DSN(path), "_busy_timeout=30000", "_busy_timeout=50", 1)
	impatient, err := sql.Open("sqlite3", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer impatient.Close()
	holder, err := sql.Open("sqlite3", archive.DSN(path))
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	lock, err := holder.Conn(w.ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if _, err := lock.ExecContext(w.ctx, `BEGIN IMMEDIATE`); err != nil {
		t.Fatal(err)
	}
	patient := w.srv.DB
	w.srv.DB = impatient
	_, err = w.d.ProcessInbox(w.ctx)
	w.srv.DB = patient
	if err == nil || !mailerr.IsTemporary(err) {
		t.Errorf("ProcessInbox with the database locked = %v, want a temporary error", err)
	}
	if _, err := lock.ExecContext(w.ctx, `ROLLBACK`); err != nil {
		t.Fatal(err)
	}
	untouched("database busy")
	if n := len(w.inbox("ada")); n != 0 {
		t.Fatalf("ada got %d mails while the database was busy", n)
	}

	w.step()
	if got := w.inbox("ada"); len(got) != 1 || got[0].header.Get("Subject") != "icepost: help" {
		t.Fatalf("ada got %d mails once the database was free, want the help", len(got))
	}
	folderCounts(t, w, map[string]int{"": 0, "icepost/done": 1})
	if msgs, err := w.messages(w.ctx, "games", "icepost/rejected"); err == nil && len(msgs) > 0 {
		t.Errorf("%d mails rejected", len(msgs))
	}
}

// A mail without a Message-ID, delivered twice with other Received:
// lines, is answered once; another such mail, written later, is answered.
func scenarioRedeliveryWithoutMessageID(t *testing.T, w *world) {
	mailAt := func(received, date string) string {
		return fmt.Sprintf("Received: %s\nFrom: ada <%s>\nTo: %s\nSubject: help\nDate: %s\nContent-Type: text/plain; charset=utf-8\n\nhelp\n",
			received, w.sys.Address("ada"), w.srv.Address, date)
	}
	first := mailAt("from pc.club.test by mx1.club.test; Sun, 22 Nov 2026 12:00:01 +0000", "Sun, 22 Nov 2026 12:00:00 +0000")
	w.deliver(first)
	w.step()
	if n := len(w.inbox("ada")); n != 1 {
		t.Fatalf("ada got %d answers, want 1", n)
	}
	// The same mail, relayed again on another path; its Date in
	// another zone is the same instant.
	again := mailAt("from mx1.club.test by mx2.club.test; Sun, 22 Nov 2026 12:05:00 +0000\nReceived: from pc.club.test by mx1.club.test; Sun, 22 Nov 2026 12:00:01 +0000",
		"Sun, 22 Nov 2026 13:00:00 +0100")
	w.deliver(again)
	w.step()
	if n := len(w.inbox("ada")); n != 1 {
		t.Errorf("the same mail delivered again was answered again: ada has %d answers", n)
	}
	folderCounts(t, w, map[string]int{"": 0, "icepost/done": 2})
	// A new mail, the same words a minute later.
	w.deliver(mailAt("from pc.club.test by mx1.club.test; Sun, 22 Nov 2026 12:01:01 +0000", "Sun, 22 Nov 2026 12:01:00 +0000"))
	w.step()
	if n := len(w.inbox("ada")); n != 2 {
		t.Errorf("a second mail without a Message-ID: ada has %d answers, want 2", n)
	}
}

// A mail without a Message-ID is known by what its sender wrote, not by
// what the mail system added on the way.
func TestMailKeyWithoutMessageID(t *testing.T) {
	key := func(raw string) string {
		raw = strings.ReplaceAll(raw, "\n", "\r\n")
		msg, err := mailread.Read(strings.NewReader(raw), pbem.Language())
		if err != nil {
			t.Fatal(err)
		}
		return pbem.MailKey(msg, []byte(raw))
	}
	const body = "From: Ada <ada@club.test>\nTo: games@club.test\nSubject: help\nDate: Sun, 22 Nov 2026 12:00:00 +0000\n\nhelp\n"
	k := key(body)
	if !strings.HasPrefix(k, "written:") {
		t.Fatalf("key %q", k)
	}
	same := []string{
		"Received: from a by b; Sun, 22 Nov 2026 12:00:01 +0000\n" + body,
		"Return-Path: <ada@club.test>\nDelivered-To: games@club.test\nReceived: from b by c\nReceived: from a by b\n" + body,
		strings.Replace(body, "12:00:00 +0000", "13:00:00 +0100", 1),
		strings.Replace(body, "\n\nhelp\n", "\n\nhelp  \n\n", 1),
	}
	for _, raw := range same {
		if key(raw) != k {
			t.Errorf("another key for the same mail:\n%s", raw)
		}
	}
	other := []string{
		strings.Replace(body, "12:00:00", "12:01:00", 1),
		strings.Replace(body, "\n\nhelp\n", "\n\ngames\n", 1),
		strings.Replace(body, "Subject: help", "Subject: help!", 1),
		strings.Replace(body, "ada@", "bob@", 1),
		strings.Replace(body, "\n\n", "\nIn-Reply-To: <x@club.test>\n\n", 1),
	}
	for _, raw := range other {
		if key(raw) == k {
			t.Errorf("the same key for another mail:\n%s", raw)
		}
	}
	if got := key("Message-ID: <m1@club.test>\n" + body); got != "id:m1@club.test" {
		t.Errorf("with a Message-ID: key %q", got)
	}
}

// A mail without a Message-ID handled before keys were made of what the
// sender wrote is known by its bytes, and not handled again.
func TestMailKeyOfEarlierVersionsStillKnown(t *testing.T) {
	w := newWorld(t)
	raw := []byte(strings.ReplaceAll("From: ada <ada@club.test>\nTo: games@club.test\nSubject: help\nDate: Sun, 22 Nov 2026 12:00:00 +0000\n\nhelp\n", "\n", "\r\n"))
	if _, err := w.srv.DB.Exec(`INSERT INTO pbem_processed (mail_key, processed_at, sender, outcome) VALUES (?, 0, 'ada@club.test', 'help')`, pbem.RawKey(raw)); err != nil {
		t.Fatal(err)
	}
	if disp, err := w.srv.Handle(w.ctx, raw); err != nil || disp != pbem.Done || w.outboxCount() != 0 {
		t.Errorf("Handle = %v, %v; %d queued: the mail was handled again", disp, err, w.outboxCount())
	}
}

// forgetErrorReplies clears the count of error replies sent this hour.
func forgetErrorReplies(t *testing.T, w *world) {
	t.Helper()
	if _, err := w.srv.DB.Exec(`DELETE FROM pbem_error_replies`); err != nil {
		t.Fatal(err)
	}
}

// checkLimitNotice checks g is the notice that the answers to mistakes
// are used up for the hour, and says how to go on.
func checkLimitNotice(t *testing.T, g got) {
	t.Helper()
	text := strings.Join(strings.Fields(g.text), " ")
	if g.header.Get("Subject") != "icepost: no more answers to mistakes this hour" || !strings.Contains(text, "reply to the latest board") {
		t.Errorf("not the limit's notice: %q\n%s", g.header.Get("Subject"), g.text)
	}
}
