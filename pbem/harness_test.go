package pbem_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/mail"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"icepost/analysis"
	"icepost/pbem"

	gomail "github.com/emersion/go-message/mail"

	"icepost/archive"
	"icepost/notation"
	"icepost/pbem/daemon"
	"icepost/pbem/localmail"
	"icepost/pbem/mailbox"
	"icepost/pbem/mailtest"
	"icepost/pbem/store"
)

// world is a mail system on loopback, the daemon's server account, and
// players who read and write mail. Its IMAP server is the embedded one or
// a real Dovecot; SMTP is always the embedded go-smtp server.
type world struct {
	t     testing.TB
	ctx   context.Context
	sys   *localmail.System
	srv   *pbem.Handler
	d     *daemon.Server
	clock *fakeClock
	n     atomic.Int64
	// dbPath is the database file, for a second process's connections.
	dbPath string

	imapAddr string
	// messages lists a user's mails in a folder ("" for INBOX).
	messages func(ctx context.Context, user, folder string) ([]localmail.Message, error)
	// appendInbox puts a mail in a user's INBOX as delivery would.
	appendInbox func(ctx context.Context, user string, raw []byte) error
	dovecot     *mailtest.Dovecot
}

type fakeClock struct{ t atomic.Int64 }

func (c *fakeClock) Now() time.Time          { return time.Unix(c.t.Load(), 0) }
func (c *fakeClock) Advance(d time.Duration) { c.t.Add(int64(d / time.Second)) }

var testPlayers = []string{"ada", "bob", "cy", "dee", "eve"}

func worldUsers() map[string]string {
	users := map[string]string{"games": "pw-games"}
	// kim and ida play in TestLookAlikeAddresses only: their names hold
	// the letters that Unicode case folding gave look-alikes of.
	for _, p := range append(slices.Clone(testPlayers), "kim", "ida") {
		users[p] = "pw-" + p
	}
	return users
}

// backends are the mail systems every mail scenario runs on: the
// embedded one, and a real Dovecot.
var backends = []struct {
	name string
	new  func(testing.TB) *world
}{{"memory", newWorld}, {"dovecot", newDovecotWorld}}

// newWorld runs on the embedded mail system.
func newWorld(t testing.TB) *world {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	sys, err := localmail.Start(ctx, localmail.Config{Domain: "club.test", Users: worldUsers()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sys.Stop() })
	w := &world{t: t, ctx: ctx, sys: sys, imapAddr: sys.IMAPAddr, messages: sys.Messages,
		appendInbox: func(ctx context.Context, user string, raw []byte) error { return sys.Append(ctx, user, "", raw) }}
	w.setup()
	return w
}

// newDovecotWorld runs on a real Dovecot (skipped where there is none,
// except in CI).
func newDovecotWorld(t testing.TB) *world {
	t.Helper()
	dv := mailtest.StartDovecotWith(t, mailtest.DovecotOptions{Users: worldUsers()})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	sys, err := localmail.Start(ctx, localmail.Config{Domain: "club.test", Users: worldUsers(), Deliver: dv.Deliver})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sys.Stop() })
	w := &world{t: t, ctx: ctx, sys: sys, imapAddr: dv.Addr, messages: dv.Messages, appendInbox: dv.Deliver, dovecot: dv}
	w.setup()
	return w
}

func (w *world) setup() {
	t := w.t
	w.dbPath = t.TempDir() + "/icepost.db"
	db, err := store.Open(w.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := archive.Migrate(w.ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := store.Migrate(w.ctx, db); err != nil {
		t.Fatal(err)
	}
	w.clock = &fakeClock{}
	w.clock.t.Store(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC).Unix())
	w.srv = &pbem.Handler{DB: db, Address: w.sys.Address("games"), Secret: []byte("0123456789abcdef-test-secret"), Now: w.clock.Now, ErrorLimit: 100, Archive: testArchive{}}
	w.d = w.newDaemon()
}

// newDaemon makes a daemon with its own connections, as a restarted
// process would have.
func (w *world) newDaemon() *daemon.Server {
	t := w.t
	reader, err := mailbox.NewReader(mailbox.IMAPConfig{Addr: w.imapAddr, TLS: mailbox.TLSNone, Username: "games", Password: "pw-games",
		PollInterval: 50 * time.Millisecond, MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reader.Close() })
	// The daemon sends as its own account, as the embedded SMTP server
	// requires.
	sender, err := mailbox.NewSender(mailbox.SMTPConfig{Addr: w.sys.SMTPAddr, TLS: mailbox.TLSNone, Username: "games", Password: "pw-games"})
	if err != nil {
		t.Fatal(err)
	}
	return &daemon.Server{Handler: w.srv, Mailbox: reader, Sender: sender}
}

// testArchive is the archive the daemon uses in cmd/icepost.
type testArchive struct{}

func (testArchive) AddGame(ctx context.Context, tx *sql.Tx, g *notation.Game, source string) error {
	_, _, err := archive.AddGame(ctx, tx, g, archive.Provenance{MailGame: source})
	return err
}

func (testArchive) AddAnalysis(ctx context.Context, tx *sql.Tx, source string, rep *analysis.Report) error {
	_, err := archive.AddAnalysis(ctx, tx, source, rep)
	return err
}

// step handles the inbox and sends the outbox once.
func (w *world) step() {
	w.t.Helper()
	if _, err := w.d.ProcessInbox(w.ctx); err != nil {
		w.t.Fatal(err)
	}
	if _, err := w.d.SendOutbox(w.ctx); err != nil {
		w.t.Fatal(err)
	}
}

// got is a mail a player received.
type got struct {
	header    mail.Header
	text      string
	messageID string
	raw       []byte
}

func (g got) replyTo() string {
	a, _ := mail.ParseAddress(g.header.Get("Reply-To"))
	if a == nil {
		return ""
	}
	return a.Address
}

// inbox returns what user has received, oldest first.
func (w *world) inbox(user string) []got {
	w.t.Helper()
	msgs, err := w.messages(w.ctx, user, "")
	if err != nil {
		w.t.Fatal(err)
	}
	var out []got
	for _, m := range msgs {
		out = append(out, parseGot(w.t, m.Raw))
	}
	return out
}

func parseGot(t testing.TB, raw []byte) got {
	t.Helper()
	mr, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("reading a mail icepost sent: %v\n%s", err, raw)
	}
	g := got{raw: raw}
	hm, _ := mail.ReadMessage(bytes.NewReader(raw))
	g.header = hm.Header
	g.messageID = strings.Trim(hm.Header.Get("Message-ID"), "<>")
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h, ok := p.Header.(*gomail.InlineHeader); ok {
			if ct, _, _ := h.ContentType(); ct == "text/plain" && g.text == "" {
				b, _ := io.ReadAll(p.Body)
				g.text = string(b)
			}
		}
	}
	return g
}

// last returns the newest mail user received, failing if there is none.
func (w *world) last(user string) got {
	w.t.Helper()
	in := w.inbox(user)
	if len(in) == 0 {
		w.t.Fatalf("%s has no mail", user)
	}
	return in[len(in)-1]
}

// deliver puts a mail into the server's INBOX as the mail system would.
func (w *world) deliver(raw string) {
	w.t.Helper()
	if err := w.appendInbox(w.ctx, "games", []byte(strings.ReplaceAll(raw, "\n", "\r\n"))); err != nil {
		w.t.Fatal(err)
	}
}

// write makes a plain mail from a player to the server.
func (w *world) write(from, to, subject, extraHeaders, body string) string {
	id := fmt.Sprintf("m%d.%s@club.test", w.n.Add(1), from)
	return fmt.Sprintf("From: %s <%s>\nTo: %s\nSubject: %s\nMessage-ID: <%s>\nDate: Sun, 22 Nov 2026 12:00:00 +0000\n%sContent-Type: text/plain; charset=utf-8\n\n%s\n",
		from, w.sys.Address(from), to, subject, id, extraHeaders, body)
}

// reply makes from's reply to a mail it received, as a mail client would:
// to the Reply-To, with In-Reply-To and References, the old text quoted
// below.
func (w *world) reply(from string, to got, body string) string {
	quoted := "> " + strings.ReplaceAll(strings.TrimSpace(to.text), "\n", "\n> ")
	hdr := fmt.Sprintf("In-Reply-To: <%s>\nReferences: %s <%s>\n", to.messageID, to.header.Get("References"), to.messageID)
	return w.write(from, to.replyTo(), "Re: "+to.header.Get("Subject"), hdr,
		body+"\n\nOn Sun, 22 Nov 2026, icepost wrote:\n"+quoted)
}

func (w *world) outboxCount() int {
	var n int
	if err := w.srv.DB.QueryRow(`SELECT count(*) FROM pbem_outbox`).Scan(&n); err != nil {
		w.t.Fatal(err)
	}
	return n
}
