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
	"strings"
	"time"

	"icepost/notation"
	"icepost/pbem/mailread"
	"icepost/rules/games"
)

// Archiver stores a finished game inside the daemon's transaction.
type Archiver interface {
	AddGame(ctx context.Context, tx *sql.Tx, g *notation.Game, source string) error
}

// Server decides what each incoming mail does. Its fields are set once
// before use.
type Server struct {
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
	// AuthServID, when set, requires a DMARC or DKIM pass in an
	// Authentication-Results header from this authserv-id (the operator's
	// own mail server); other such headers are ignored.
	AuthServID string
	// DryRun: read and decide, log what would be done, change nothing.
	DryRun bool
	// Deadlines: time controls, vacations and digests (see clock.go).
	Deadlines Deadlines
}

// Disposition says where a handled mail goes.
type Disposition int

const (
	Done     Disposition = iota // handled: file it in the done folder
	Rejected                    // set aside: it could not be read
)

func (s *Server) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Server) log() *slog.Logger {
	if s.Log != nil {
		return s.Log
	}
	return slog.New(slog.DiscardHandler)
}

func (s *Server) domain() string {
	_, d, _ := strings.Cut(s.Address, "@")
	return d
}

// plusAddress is the server's address with a detail: games+DETAIL@host.
func (s *Server) plusAddress(detail string) string {
	local, domain, _ := strings.Cut(s.Address, "@")
	return local + "+" + detail + "@" + domain
}

// mailKey identifies a mail for exactly-once processing: its Message-ID,
// or a hash of its bytes when it has none.
func mailKey(msg *mailread.Message, raw []byte) string {
	if msg != nil && msg.MessageID != "" && len(msg.MessageID) < 500 {
		return "id:" + msg.MessageID
	}
	sum := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Handle processes one mail exactly once. It returns an error only when
// the mail could not be handled for a reason that may pass (the database);
// the caller then leaves the mail where it is and tries again later. Bad
// input is never an error: it gets a reply or is set aside.
func (s *Server) Handle(ctx context.Context, raw []byte) (Disposition, error) {
	msg, readErr := mailread.Read(bytes.NewReader(raw), games.Grammar{})
	key := mailKey(msg, raw)
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return Done, fmt.Errorf("pbem: begin: %w", err)
	}
	defer tx.Rollback()
	var prev string
	switch err := tx.QueryRowContext(ctx, `SELECT outcome FROM pbem_processed WHERE mail_key = ?`, key).Scan(&prev); {
	case err == nil:
		s.log().Info("mail seen before", "key", key, "outcome", prev)
		if strings.HasPrefix(prev, "rejected") {
			return Rejected, nil
		}
		return Done, nil
	case !errors.Is(err, sql.ErrNoRows):
		return Done, fmt.Errorf("pbem: %w", err)
	}

	h := &handling{s: s, ctx: ctx, tx: tx, msg: msg, now: s.now()}
	disp := Done
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
			return Done, err
		}
	}
	s.log().Info("mail", "key", key, "from", sender, "outcome", outcome, "dry_run", s.DryRun)
	if s.DryRun {
		for _, m := range h.out {
			s.log().Info("would send", "to", m.To, "subject", m.Subject)
		}
		return disp, nil
	}
	if err := h.flush(); err != nil {
		return Done, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO pbem_processed (mail_key, processed_at, sender, outcome) VALUES (?, ?, ?, ?)`,
		key, h.now.Unix(), sender, truncate(outcome, 500)); err != nil {
		return Done, fmt.Errorf("pbem: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return Done, fmt.Errorf("pbem: commit: %w", err)
	}
	return disp, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// handling is one mail being handled, inside its transaction.
type handling struct {
	s   *Server
	ctx context.Context
	tx  *sql.Tx
	msg *mailread.Message
	now time.Time
	out []*outMail
	// errorReply is set when an error reply is queued, for the rate limit.
	errorReplies int
}

// send queues a mail.
func (h *handling) send(m *outMail) {
	m.From = h.s.Address
	m.FromName = h.s.Name
	if m.FromName == "" {
		m.FromName = "icepost"
	}
	m.Date = h.now
	if m.MessageID == "" {
		m.MessageID = "n." + randomID() + "@" + h.s.domain()
	}
	h.out = append(h.out, m)
}

// flush writes the queued mails to the outbox.
func (h *handling) flush() error {
	for _, m := range h.out {
		if _, err := h.tx.ExecContext(h.ctx, `INSERT INTO pbem_outbox (recipient, message, created_at, next_try_at) VALUES (?, ?, ?, ?)`,
			m.To, m.bytes(), h.now.Unix(), h.now.Unix()); err != nil {
			return fmt.Errorf("pbem: outbox: %w", err)
		}
	}
	return nil
}

// allowErrorReply applies the per-sender limit on error replies and
// records one when allowed.
func (h *handling) allowErrorReply(addr string) (bool, error) {
	limit := h.s.ErrorLimit
	if limit == 0 {
		limit = 5
	}
	var n int
	if err := h.tx.QueryRowContext(h.ctx, `SELECT count(*) FROM pbem_error_replies WHERE address = ? AND sent_at > ?`,
		addr, h.now.Add(-time.Hour).Unix()).Scan(&n); err != nil {
		return false, err
	}
	if n >= limit {
		return false, nil
	}
	_, err := h.tx.ExecContext(h.ctx, `INSERT INTO pbem_error_replies (address, sent_at) VALUES (?, ?)`, addr, h.now.Unix())
	return err == nil, err
}

// authenticated checks Authentication-Results from the operator's own
// server when AuthServID is set.
func (h *handling) authenticated() bool {
	id := h.s.AuthServID
	if id == "" {
		return true
	}
	for _, ar := range h.msg.AuthResults {
		head, rest, _ := strings.Cut(ar, ";")
		if f := strings.Fields(head); len(f) == 0 || !strings.EqualFold(f[0], id) {
			continue
		}
		l := strings.ToLower(rest)
		if strings.Contains(l, "dmarc=pass") || strings.Contains(l, "dkim=pass") {
			return true
		}
	}
	return false
}

// findToken returns the first valid token the mail carries: in a plus
// address, In-Reply-To, References (newest first), or the subject.
func (h *handling) findToken() (token, bool) {
	secret := h.s.Secret
	for _, p := range h.msg.PlusParts {
		if t, ok := parseToken(secret, p); ok {
			return t, true
		}
	}
	if t, ok := tokenFromID(secret, h.msg.InReplyTo); ok {
		return t, true
	}
	for i := len(h.msg.References) - 1; i >= 0; i-- {
		if t, ok := tokenFromID(secret, h.msg.References[i]); ok {
			return t, true
		}
	}
	for _, tag := range h.msg.SubjectTags {
		for _, f := range strings.Fields(tag) {
			if t, ok := parseToken(secret, f); ok {
				return t, true
			}
		}
	}
	return token{}, false
}
