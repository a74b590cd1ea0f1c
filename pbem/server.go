package pbem

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"icepost/notation"
	"icepost/pbem/mailaddr"
	"icepost/pbem/mailerr"
	"icepost/pbem/mailread"
	"icepost/pbem/outbox"
	"icepost/pbem/outmail"
)

// Archiver stores a finished game inside the daemon's transaction.
type Archiver interface {
	AddGame(ctx context.Context, tx *sql.Tx, g *notation.Game, source string) error
}

// Handler is the game service: it decides what each incoming mail does
// (Handle) and what a move on the play pages does, keeps the clocks
// (Tick) and does the bots' and the analyses' jobs. It sends nothing and
// reads no mailbox: daemon.Server runs it, as net/http's Server runs a
// Handler. Its fields are set once before use.
type Handler struct {
	DB      *sql.DB
	Address string // the server's own address, e.g. games@example.org
	Name    string // display name in From; default "icepost"
	Secret  []byte // for the tokens; at least 16 bytes
	Now     func() time.Time
	Log     *slog.Logger
	// Starters may send challenges; empty means anyone.
	Starters []string
	// Archive receives finished games; nil means they are not archived.
	Archive Archiver
	// ErrorLimit bounds error replies to one sender per hour (default 5).
	ErrorLimit int
	// AuthServID, when set, is the authserv-id of the operator's own mail
	// server: its Authentication-Results header is what verifies a
	// sender (pbem/senderauth), and a verified sender is then required
	// for every command that acts (proof.go). Empty: nobody is verified,
	// and a reply token is the proof.
	AuthServID string
	// WebURL, when set, is the public address of the web site that plays
	// (icepost web -config): board mails then carry each seat's link to
	// its play page (webplay.go).
	WebURL string
	// DryRun: read and decide, log what would be done, change nothing.
	DryRun bool
	// Deadlines: time controls, vacations and digests (see clock.go).
	Deadlines Deadlines
	// Bots: how the computer opponent searches (see bot.go).
	Bots Bots
	// Events, when set, answers the tournaments' mail commands
	// (service.go); nil: the server runs none.
	Events Events

	botTrees    botTrees    // the search trees of the last bot games
	botSearches searchTimes // the bots' searches, counted and timed
	analyses    searchTimes // the analyses made (analyze.go), counted and timed

	// writeMu queues the daemon's own writers (its inbox, outbox, bot and
	// clock loops): see writing.
	writeMu sync.Mutex
}

// writing takes the daemon's write lock, and returns its release. SQLite
// lets one writer in at a time, and one that finds the database locked
// sleeps and looks again (1, 2, 5, ... up to 100 ms between looks): behind
// a stream of mails, each handled in a transaction of about 15 ms, the
// outbox's small updates could wait a second or more. The daemon's
// writers queue here instead, and each gets the database as soon as the
// one before is done. Other processes (the web site reads; an operator's
// command) meet SQLite's lock as before.
func (s *Handler) writing() func() {
	s.writeMu.Lock()
	return s.writeMu.Unlock
}

// Writers is the lock of writing: the daemon's outbox and its own small
// writes take it too.
func (s *Handler) Writers() sync.Locker { return &s.writeMu }

// SetAsideQuietly records a mail as set aside, without an answer, when
// setting it aside the usual way failed (Handle panicked doing it): so
// that it is not handled again. cause says why, for the operator.
func (s *Handler) SetAsideQuietly(ctx context.Context, raw []byte, cause string) error {
	if s.DryRun {
		return nil
	}
	defer s.writing()()
	_, err := s.DB.ExecContext(ctx, `INSERT OR IGNORE INTO pbem_processed (mail_key, processed_at, sender, outcome) VALUES (?, ?, '', ?)`,
		keyOf(raw), s.now().Unix(), truncate("rejected: "+cause, 500))
	return err
}

// Disposition says where a handled mail goes.
type Disposition int

const (
	Done     Disposition = iota // handled: file it in the done folder
	Rejected                    // set aside: it could not be read
)

func (s *Handler) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Handler) log() *slog.Logger {
	if s.Log != nil {
		return s.Log
	}
	return slog.New(slog.DiscardHandler)
}

// self is the server's own address in its canonical form (package
// mailaddr), as every address it compares with is.
func (s *Handler) self() string {
	if a, err := mailaddr.Canonical(s.Address); err == nil {
		return a
	}
	return s.Address
}

func (s *Handler) domain() string {
	_, d, _ := strings.Cut(s.Address, "@")
	return d
}

// plusAddress is the server's address with a detail: games+DETAIL@host.
func (s *Handler) plusAddress(detail string) string {
	local, domain, _ := strings.Cut(s.Address, "@")
	return local + "+" + detail + "@" + domain
}

// mailKey identifies a mail for exactly-once processing: its Message-ID;
// for a mail without one, a hash of what its sender wrote (see
// contentKey), so that the same mail delivered twice, each copy with its
// own Received: lines, has one key; and for a mail whose header could not
// be read (msg nil), a hash of its bytes.
func mailKey(msg *mailread.Message, raw []byte) string {
	if msg == nil {
		return rawKey(raw)
	}
	if msg.MessageID != "" && len(msg.MessageID) < 500 {
		return "id:" + msg.MessageID
	}
	return contentKey(msg, raw)
}

// rawKey is the key of a mail by its bytes; before contentKey it was the
// key of every mail without a Message-ID.
func rawKey(raw []byte) string {
	sum := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// contentKey hashes the normalized fields the sender wrote: From, Date,
// To, Cc, Subject, In-Reply-To, References and the body text as decoded.
// None of what the mail system adds on the way (Received:, Return-Path:,
// Delivered-To:, Authentication-Results:) nor the transfer encoding
// counts. Two mails alike in all of these, Date to the second, are one.
func contentKey(msg *mailread.Message, raw []byte) string {
	h := sha256.New()
	field := func(name, value string) {
		// Length-prefixed, so that no two lists of fields hash alike.
		fmt.Fprintf(h, "%s %d:%s\n", name, len(value), value)
	}
	field("from", msg.From)
	field("date", mailDate(raw))
	field("to", strings.Join(msg.To, ","))
	field("cc", strings.Join(msg.Cc, ","))
	field("subject", msg.Subject)
	field("in-reply-to", msg.InReplyTo)
	field("references", strings.Join(msg.References, " "))
	field("body", normalizeBody(msg.Text))
	return "written:" + hex.EncodeToString(h.Sum(nil))
}

// mailDate is the mail's Date header as an instant in UTC, or the header's
// words as written when it is not a date; "" without one.
func mailDate(raw []byte) string {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return ""
	}
	if t, err := m.Header.Date(); err == nil {
		return t.UTC().Format(time.RFC3339)
	}
	return strings.Join(strings.Fields(m.Header.Get("Date")), " ")
}

// normalizeBody drops what may change when a mail is relayed: line
// endings, white space at the ends of lines, and blank lines at the end.
func normalizeBody(text string) string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// keyOf is the key Handle gives raw. It is for the daemon's last line of
// defence against a panic, so a panic in reading the mail gives the key
// Handle gives it then: the hash of its bytes.
func keyOf(raw []byte) (key string) {
	defer func() {
		if recover() != nil {
			key = rawKey(raw)
		}
	}()
	msg, _ := mailread.Read(bytes.NewReader(raw), Language())
	return mailKey(msg, raw)
}

// Handle processes one mail exactly once. It returns an error only when
// the mail could not be handled for a reason that may pass (the database
// busy, the context ended: mailerr.IsTemporary); the caller then leaves
// the mail where it is and tries again later. Bad input is never an
// error: it gets a reply or is set aside. A failure that will not pass (a
// bug, a stored game that no longer replays, a panic) is not an error
// either: the mail's transaction is rolled back and the mail is set aside
// (see setAside), so that the mails behind it are handled.
func (s *Handler) Handle(ctx context.Context, raw []byte) (Disposition, error) {
	msg, key, disp, err := s.handleOnce(ctx, raw)
	if err == nil || ctx.Err() != nil || mailerr.IsTemporary(err) {
		// An ended context may show as another error (a transaction
		// database/sql rolled back): the mail was stopped, not refused.
		return disp, err
	}
	return s.setAside(ctx, msg, key, err)
}

// handleOnce reads the mail and handles it in one transaction, rolled back
// unless everything went through. A panic becomes a permanent error.
func (s *Handler) handleOnce(ctx context.Context, raw []byte) (msg *mailread.Message, key string, disp Disposition, err error) {
	key = rawKey(raw) // until the mail is read
	defer func() {
		if p := recover(); p != nil {
			disp, err = Done, &panicError{value: p, stack: debug.Stack()}
		}
	}()
	msg, readErr := mailread.Read(bytes.NewReader(raw), Language())
	key = mailKey(msg, raw)
	defer s.writing()()
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return msg, key, Done, fmt.Errorf("pbem: begin: %w", err)
	}
	defer tx.Rollback()
	legacy := key
	if strings.HasPrefix(key, "written:") {
		// Handled before contentKey came in: known by its bytes.
		legacy = rawKey(raw)
	}
	var prev string
	switch err := tx.QueryRowContext(ctx, `SELECT outcome FROM pbem_processed WHERE mail_key IN (?, ?)`, key, legacy).Scan(&prev); {
	case err == nil:
		s.log().Info("mail seen before", "key", key, "outcome", prev)
		if strings.HasPrefix(prev, "rejected") {
			return msg, key, Rejected, nil
		}
		return msg, key, Done, nil
	case !errors.Is(err, sql.ErrNoRows):
		return msg, key, Done, fmt.Errorf("pbem: %w", err)
	}

	h := &handling{s: s, ctx: ctx, tx: tx, msg: msg, now: s.now()}
	disp = Done
	var outcome, sender string
	switch {
	case readErr != nil:
		outcome, disp = "rejected: "+readErr.Error(), Rejected
	case msg.Auto:
		outcome, sender = "automatic: "+msg.AutoReason, msg.From
	case msg.From == "":
		outcome, disp = "rejected: no sender address", Rejected
	default:
		sender = msg.From
		outcome, err = h.dispatch()
		if err != nil {
			return msg, key, Done, err
		}
	}
	if s.DryRun {
		s.log().Info("mail", "key", key, "from", sender, "outcome", outcome, "dry_run", true)
		for _, m := range h.out {
			s.log().Info("would send", "to", m.To, "subject", m.Subject)
		}
		return msg, key, disp, nil
	}
	// The outcome is logged once it is committed: a mail whose
	// transaction is rolled back did nothing, and says so.
	if err := h.commitMail(key, sender, outcome); err != nil {
		s.log().Warn("mail rolled back: nothing it asked for was done", "key", key, "from", sender, "outcome_not_done", outcome, "err", err)
		return msg, key, Done, err
	}
	s.log().Info("mail", "key", key, "from", sender, "outcome", outcome, "dry_run", false)
	return msg, key, disp, nil
}

// commitMail queues the mail's replies, records it as processed with its
// outcome, and commits.
func (h *handling) commitMail(key, sender, outcome string) error {
	if err := h.flush(); err != nil {
		return err
	}
	if _, err := h.tx.ExecContext(h.ctx, `INSERT INTO pbem_processed (mail_key, processed_at, sender, outcome) VALUES (?, ?, ?, ?)`,
		key, h.now.Unix(), sender, truncate(outcome, 500)); err != nil {
		return fmt.Errorf("pbem: %w", err)
	}
	if err := h.tx.Commit(); err != nil {
		return fmt.Errorf("pbem: commit: %w", err)
	}
	return nil
}

// panicError is a panic in handling a mail, as an error: permanent.
type panicError struct {
	value any
	stack []byte
}

func (e *panicError) Error() string   { return fmt.Sprintf("panic: %v", e.value) }
func (e *panicError) Temporary() bool { return false }

// apologyText is all a sender learns of a failure on icepost's side: the
// cause, which may name games, addresses or code, is the operator's.
const apologyText = `Something went wrong on our side while your mail was being handled, and
it was not carried out: nothing changed in your games. The operator of
this server has the details.

Please try again later. If it happens again, write to the operator.`

// setAside is what becomes of a mail whose handling failed for a reason
// that will not pass (cause): in a new transaction, since the mail's own
// was rolled back, it is recorded as processed with the outcome
// "rejected: internal error: ..." and its sender is sent one short
// apology, within the per-sender limit on error replies; the cause goes
// to the operator's log at Error level; the mail goes to the rejected
// folder. It returns an error, to be tried again later, only when that
// record cannot be written.
func (s *Handler) setAside(ctx context.Context, msg *mailread.Message, key string, cause error) (Disposition, error) {
	from := ""
	if msg != nil {
		from = msg.From
	}
	logArgs := []any{"key", key, "from", from, "err", cause, "dry_run", s.DryRun}
	if pe, ok := errors.AsType[*panicError](cause); ok {
		logArgs = append(logArgs, "stack", string(pe.stack))
	}
	s.log().Error("handling a mail failed for a reason that will not pass: it is set aside", logArgs...)
	if s.DryRun {
		return Rejected, nil
	}
	defer s.writing()()
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return Done, fmt.Errorf("pbem: setting a mail aside: begin: %w", err)
	}
	defer tx.Rollback()
	h := &handling{s: s, ctx: ctx, tx: tx, msg: msg, now: s.now()}
	res, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO pbem_processed (mail_key, processed_at, sender, outcome) VALUES (?, ?, ?, ?)`,
		key, h.now.Unix(), from, truncate("rejected: internal error: "+cause.Error(), 500))
	if err != nil {
		return Done, fmt.Errorf("pbem: setting a mail aside: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return Rejected, err // recorded before: apologised then, if at all
	}
	if err := h.apologize(); err != nil {
		return Done, fmt.Errorf("pbem: setting a mail aside: %w", err)
	}
	if err := h.flush(); err != nil {
		return Done, fmt.Errorf("pbem: setting a mail aside: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return Done, fmt.Errorf("pbem: setting a mail aside: commit: %w", err)
	}
	return Rejected, nil
}

// apologize queues the apology for a mail set aside, when its sender may
// be answered at all: not automatic mail, not a sender who fails the
// operator's authentication check or whom the operator blocked.
func (h *handling) apologize() error {
	if h.msg == nil || h.msg.From == "" || h.msg.Auto || (h.s.AuthServID != "" && !h.verified()) {
		return nil
	}
	if blocked, err := h.senderBlocked(); err != nil || blocked {
		return err
	}
	return h.errorReply(h.msg.From, "your mail could not be handled", apologyText, nil, 0)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// handling is one mail being handled, inside its transaction.
type handling struct {
	s   *Handler
	ctx context.Context
	tx  *sql.Tx
	msg *mailread.Message
	now time.Time
	out []*outmail.Mail
	// condsChanged lists the seats whose conditional moves this mail
	// changed: each gets one board listing them (confirmConditions).
	condsChanged []condChange
	// pictures are the board pictures drawn or being drawn, by key
	// (drawAhead).
	pictures map[string]*pictureJob
	// sender is what the mail shows of who sent it (proof.go).
	sender sender
	// held are the queued mails that wait before they go, and may be
	// replaced meanwhile (turns.go).
	held map[*outmail.Mail]hold
	// confirmations are the movers' confirmations queued by this mail,
	// by game and seat: conditional moves given in the same mail are
	// listed in them (confirmConditions).
	confirmations map[condChange]*outmail.Mail
}

// send queues a mail. Mail to the server's own address is dropped: that
// is the address of a bot's seat, which reads no mail.
func (h *handling) send(m *outmail.Mail) {
	if m.To == h.s.self() {
		return
	}
	m.From = h.s.Address
	m.FromName = h.s.Name
	if m.FromName == "" {
		m.FromName = "icepost"
	}
	m.Date = h.now
	if m.MessageID == "" {
		m.MessageID = "n." + outmail.RandomID() + "@" + h.s.domain()
	}
	h.out = append(h.out, m)
}

// flush writes the queued mails to the outbox.
func (h *handling) flush() error {
	for _, m := range h.out {
		raw, err := m.Bytes()
		if err != nil {
			return err
		}
		due, key := h.now, ""
		if hd, ok := h.held[m]; ok {
			due, key = h.now.Add(hd.delay), hd.key
		}
		if err := outbox.Queue(h.ctx, h.tx, m.To, raw, h.now, due, key); err != nil {
			return fmt.Errorf("pbem: %w", err)
		}
	}
	return nil
}

// replyKind is what an answer that no command asked for is, for the
// per-address limits on them (allowReply).
type replyKind string

const (
	// errorAnswer: a refusal, the help for a mail without a command, an
	// apology. ErrorLimit an hour.
	errorAnswer replyKind = "error"
	// flowAnswer: what the documented flows send: the board to reply to
	// when a mail does not show it comes from its sender or names no
	// game, a "please confirm", the board after a reply to an old one.
	// Normal play meets these often, so their limit is four times
	// ErrorLimit: it is there for loops and floods only.
	flowAnswer replyKind = "flow"
	// limitNotice: the one notice, an hour, that the limit is reached.
	limitNotice replyKind = "notice"
	// playerAnswer: an answer to a mistake of a player with a game, whose
	// mail shows it comes from them (isPlayer): learning by doing is
	// answered every time, up to max(30, 6×ErrorLimit) an hour; the limit
	// is there for mail loops only.
	playerAnswer replyKind = "player"
	// strangerNotice: to a seat's address, about a mail from another
	// address that tried to act for the seat. Once an hour, and no
	// limitNotice after it: a stranger decides when these are written.
	strangerNotice replyKind = "stranger"
)

// allowReply applies the per-address limit on answers of a kind, and
// records one when allowed. When the limit is reached, the first time in
// the hour it queues the notice that says so instead (ok false); after
// that, nothing.
func (h *handling) allowReply(addr string, kind replyKind) (bool, error) {
	limit := h.s.ErrorLimit
	if limit == 0 {
		limit = 5
	}
	switch kind {
	case flowAnswer:
		limit *= 4
	case playerAnswer:
		limit = max(30, 6*limit)
	case strangerNotice:
		limit = 1
	}
	since := h.now.Add(-time.Hour).Unix()
	var n, notices int
	if err := h.tx.QueryRowContext(h.ctx, `SELECT coalesce(sum(kind = ?), 0), coalesce(sum(kind = ?), 0) FROM pbem_error_replies WHERE address = ? AND sent_at > ?`,
		kind, limitNotice, addr, since).Scan(&n, &notices); err != nil {
		return false, err
	}
	if n < limit {
		_, err := h.tx.ExecContext(h.ctx, `INSERT INTO pbem_error_replies (address, sent_at, kind) VALUES (?, ?, ?)`, addr, h.now.Unix(), kind)
		return err == nil, err
	}
	h.s.log().Warn("answer withheld: rate limit", "to", addr, "kind", kind, "limit", limit)
	if notices > 0 || kind == strangerNotice {
		return false, nil
	}
	if _, err := h.tx.ExecContext(h.ctx, `INSERT INTO pbem_error_replies (address, sent_at, kind) VALUES (?, ?, ?)`, addr, h.now.Unix(), limitNotice); err != nil {
		return false, err
	}
	m := &outmail.Mail{To: addr, Subject: "icepost: no more answers to mistakes this hour", Reply: true, Text: fmt.Sprintf(
		"I have answered %d mails of yours in the last hour that did not do what they asked, the most I answer in an hour (so that two machines cannot mail each other for ever). Further ones this hour will get no answer.\n\n"+
			"To go on: reply to the latest board of your game with your move on the first line, or send help for the commands. Moves and commands that work are answered as always.\n", n)}
	h.threadReply(m)
	h.send(m)
	return false, nil
}
