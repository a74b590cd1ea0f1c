package mailbox

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"icepost/pbem/mailerr"
)

// Mail is one message read from the inbox.
type Mail struct {
	// UID is the message's IMAP UID, valid with the UIDVALIDITY that Fetch
	// returned alongside it.
	UID uint32
	// Raw is the message as stored on the server (RFC 5322, CRLF lines).
	Raw []byte
	// Truncated says that the message is larger than
	// IMAPConfig.MaxMessageSize and Raw holds only its beginning.
	Truncated bool
}

// KeywordDone is the IMAP keyword set on a processed message when the server
// cannot move it to the done or rejected folder. Fetch skips messages that
// carry it.
const KeywordDone = "$icepost-done"

// Inbox is one logged-in IMAP connection with the configured mailbox
// selected. It is not safe for concurrent use. When an Inbox returns an
// error that is not an *imap.Error, the connection is gone: Close it and
// Dial again (Reader does that).
type Inbox struct {
	cfg         IMAPConfig
	c           *imapclient.Client
	uidValidity uint32
	delim       rune
	folders     map[string]bool // folders known to exist
	newMail     chan struct{}   // signalled on EXISTS; capacity 1
}

// Dial connects to the server, logs in and selects the mailbox.
func Dial(ctx context.Context, cfg IMAPConfig) (*Inbox, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.DialTimeout)
	defer cancel()

	conn, err := dialTCP(ctx, cfg.Addr, cfg.TLS, cfg.TLSConfig, cfg.DialTimeout)
	if err != nil {
		return nil, fmt.Errorf("mailbox: %w", mailerr.At("IMAP", cfg.Addr, mailerr.StepDial, err))
	}
	// Until Dial returns, a cancelled or expired ctx closes the connection,
	// which unblocks whatever command is waiting.
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	defer stop()

	in := &Inbox{cfg: cfg, folders: map[string]bool{}, newMail: make(chan struct{}, 1)}
	opts := &imapclient.Options{
		TLSConfig: tlsConfig(cfg.TLSConfig, cfg.Addr),
		UnilateralDataHandler: &imapclient.UnilateralDataHandler{
			Mailbox: func(d *imapclient.UnilateralDataMailbox) {
				if d.NumMessages != nil {
					in.signal()
				}
			},
		},
	}
	// Each failure says the step it came at, which tells a refused
	// login from a refused command (mailerr).
	fail := func(step mailerr.Step, err error) (*Inbox, error) {
		conn.Close()
		if ctx.Err() != nil {
			err = fmt.Errorf("%w (%w)", ctx.Err(), err)
		}
		return nil, fmt.Errorf("mailbox: %w", mailerr.At("IMAP", cfg.Addr, step, err))
	}
	// In plain text, the greeting is awaited here, so that a server that
	// speaks TLS at once is named as such (greeting.go).
	greeted := conn
	if cfg.TLS != TLSImplicit {
		if greeted, err = awaitGreeting(ctx, conn, cfg.Addr, cfg.TLS, cfg.DialTimeout); err != nil {
			return fail(mailerr.StepDial, err)
		}
	}
	greeting := mailerr.StepDial
	if cfg.TLS == TLSStartTLS {
		in.c, err = imapclient.NewStartTLS(greeted, opts)
		if err != nil {
			return fail(mailerr.StepTLS, err)
		}
		greeting = mailerr.StepTLS
	} else {
		in.c = imapclient.New(greeted, opts)
	}
	if err := in.c.WaitGreeting(); err != nil {
		return fail(greeting, err)
	}
	if err := in.login(ctx); err != nil {
		return fail(mailerr.StepLogin, err)
	}
	in.delim = '/'
	if l, err := in.c.List("", "", nil).Collect(); err == nil && len(l) > 0 && l[0].Delim != 0 {
		in.delim = l[0].Delim
	}
	sel, err := in.c.Select(cfg.Mailbox, nil).Wait()
	if err != nil {
		return fail(mailerr.StepSelect, fmt.Errorf("%s: %w", cfg.Mailbox, err))
	}
	in.uidValidity = sel.UIDValidity
	return in, nil
}

// login logs in as the settings say: LOGIN with the password, or
// AUTHENTICATE with an OAuth2 token.
func (in *Inbox) login(ctx context.Context) error {
	cfg := in.cfg
	if cfg.Auth == AuthPassword {
		if err := in.c.Login(cfg.Username, cfg.Password).Wait(); err != nil {
			return fmt.Errorf("as %s: %w", cfg.Username, err)
		}
		return nil
	}
	mech := cfg.Auth.mechanism()
	caps := in.c.Caps()
	if !caps.Has(imap.Cap("AUTH=" + mech)) {
		e := &mailerr.MechanismError{Mechanism: mech}
		for c := range caps {
			if m, ok := strings.CutPrefix(string(c), "AUTH="); ok {
				e.Offered = append(e.Offered, m)
			}
		}
		slices.Sort(e.Offered)
		return e
	}
	return oauthLogin(ctx, cfg.Auth, cfg.OAuth2, cfg.Addr, cfg.Username, in.c.Authenticate)
}

func (in *Inbox) signal() {
	select {
	case in.newMail <- struct{}{}:
	default:
	}
}

// Close logs out and closes the connection.
func (in *Inbox) Close() error {
	done := make(chan struct{})
	go func() {
		in.c.Logout().Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
	return in.c.Close()
}

// run calls f with the client; a ctx cancelled meanwhile closes the
// connection (the Inbox is then unusable) and its error is returned.
func (in *Inbox) run(ctx context.Context, f func(c *imapclient.Client) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { in.c.Close() })
	err := f(in.c)
	if !stop() {
		return ctx.Err()
	}
	return err
}

// Fetch returns the messages whose UID is greater than afterUID, oldest
// first, at most IMAPConfig.MaxBatch of them (call again with the last UID
// for more), and the mailbox's UIDVALIDITY. Messages flagged \Deleted or
// KeywordDone are skipped. When the UIDVALIDITY differs from the one
// afterUID was read under, afterUID means nothing: call again with 0.
// Fetch leaves \Seen alone.
func (in *Inbox) Fetch(ctx context.Context, afterUID uint32) ([]Mail, uint32, error) {
	var mails []Mail
	err := in.run(ctx, func(c *imapclient.Client) error {
		// A server shows a session new messages only when it sends
		// EXISTS, at the end of a command: without IDLE, nothing has
		// made it do so since the last Fetch.
		if err := c.Noop().Wait(); err != nil {
			return fmt.Errorf("mailbox: NOOP: %w", err)
		}
		// UID n:* always matches the highest UID, even below n: filter.
		crit := &imap.SearchCriteria{
			UID:     []imap.UIDSet{{imap.UIDRange{Start: imap.UID(afterUID + 1), Stop: 0}}},
			NotFlag: []imap.Flag{imap.FlagDeleted, KeywordDone},
		}
		data, err := c.UIDSearch(crit, nil).Wait()
		if err != nil {
			return fmt.Errorf("mailbox: UID SEARCH: %w", err)
		}
		var uids []imap.UID
		for _, u := range data.AllUIDs() {
			if uint32(u) > afterUID {
				uids = append(uids, u)
			}
		}
		slices.Sort(uids)
		if len(uids) > in.cfg.MaxBatch {
			uids = uids[:in.cfg.MaxBatch]
		}
		if len(uids) == 0 {
			return nil
		}
		section := &imap.FetchItemBodySection{
			Peek:    true,
			Partial: &imap.SectionPartial{Offset: 0, Size: in.cfg.MaxMessageSize},
		}
		msgs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{
			UID:         true,
			RFC822Size:  true,
			BodySection: []*imap.FetchItemBodySection{section},
		}).Collect()
		if err != nil {
			return fmt.Errorf("mailbox: UID FETCH: %w", err)
		}
		for _, m := range msgs {
			if uint32(m.UID) <= afterUID {
				continue
			}
			raw := m.FindBodySection(section)
			mails = append(mails, Mail{
				UID:       uint32(m.UID),
				Raw:       raw,
				Truncated: m.RFC822Size > int64(len(raw)),
			})
		}
		slices.SortFunc(mails, func(a, b Mail) int { return int(int64(a.UID) - int64(b.UID)) })
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return mails, in.uidValidity, nil
}

// Done files processed messages into IMAPConfig.DoneFolder, all in one
// command.
func (in *Inbox) Done(ctx context.Context, uids ...uint32) error {
	return in.file(ctx, uids, in.cfg.DoneFolder)
}

// Reject files messages that cannot be processed into
// IMAPConfig.RejectedFolder, all in one command.
func (in *Inbox) Reject(ctx context.Context, uids ...uint32) error {
	return in.file(ctx, uids, in.cfg.RejectedFolder)
}

// file moves the messages to folder, creating the folder when missing.
// When the server refuses (no permission, no such folder and no right to
// create it), the messages are flagged \Seen and KeywordDone instead, so
// that they are not read again. Whatever the number of messages, it takes
// the same round trips: a UID SEARCH, and a UID MOVE (or COPY, STORE and
// EXPUNGE) of the set.
func (in *Inbox) file(ctx context.Context, uids []uint32, folder string) error {
	if len(uids) == 0 {
		return nil
	}
	folder = in.serverName(folder)
	return in.run(ctx, func(c *imapclient.Client) error {
		// A message already gone (filed by an earlier attempt, or by
		// someone else) is done with. Asking first also spares clients
		// the empty COPYUID some servers answer for a missing UID.
		want := make([]imap.UID, len(uids))
		for i, u := range uids {
			want[i] = imap.UID(u)
		}
		data, err := c.UIDSearch(&imap.SearchCriteria{UID: []imap.UIDSet{imap.UIDSetNum(want...)}}, nil).Wait()
		if err != nil {
			return fmt.Errorf("mailbox: UID SEARCH %v: %w", uids, err)
		}
		there := data.AllUIDs()
		if len(there) == 0 {
			return nil
		}
		set := imap.UIDSetNum(there...)
		err = in.ensureFolder(c, folder)
		if err == nil {
			err = move(c, set, folder)
		}
		if err == nil {
			return nil
		}
		var ierr *imap.Error
		if !errors.As(err, &ierr) {
			return err
		}
		in.cfg.Logger.Warn("cannot move mail; flagging it instead", "uids", set.String(), "folder", folder, "err", err)
		flags := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagSeen, KeywordDone}}
		if err := c.Store(set, flags, nil).Close(); err != nil {
			return fmt.Errorf("mailbox: flag UID %s: %w", set, err)
		}
		return nil
	})
}

// serverName writes a folder path given with "/" in the server's hierarchy
// delimiter.
func (in *Inbox) serverName(folder string) string {
	if in.delim == '/' || in.delim == 0 {
		return folder
	}
	return strings.ReplaceAll(folder, "/", string(in.delim))
}

func (in *Inbox) ensureFolder(c *imapclient.Client, folder string) error {
	if in.folders[folder] {
		return nil
	}
	l, err := c.List("", folder, nil).Collect()
	if err != nil {
		return fmt.Errorf("mailbox: LIST %s: %w", folder, err)
	}
	if len(l) == 0 {
		err := c.Create(folder, nil).Wait()
		var ierr *imap.Error
		if err != nil && !(errors.As(err, &ierr) && ierr.Code == imap.ResponseCodeAlreadyExists) {
			return fmt.Errorf("mailbox: CREATE %s: %w", folder, err)
		}
		in.cfg.Logger.Info("created IMAP folder", "folder", folder)
	}
	in.folders[folder] = true
	return nil
}

// move moves messages with MOVE when the server has it, else with COPY,
// STORE \Deleted and (UID) EXPUNGE. Unlike imapclient.Move's fallback, it
// flags nothing as deleted unless the copy succeeded.
func move(c *imapclient.Client, set imap.UIDSet, folder string) error {
	if c.Caps().Has(imap.CapMove) {
		if _, err := c.Move(set, folder).Wait(); err != nil {
			return fmt.Errorf("mailbox: UID MOVE %s to %s: %w", set, folder, err)
		}
		return nil
	}
	if _, err := c.Copy(set, folder).Wait(); err != nil {
		return fmt.Errorf("mailbox: UID COPY %s to %s: %w", set, folder, err)
	}
	del := &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}
	if err := c.Store(set, del, nil).Close(); err != nil {
		return fmt.Errorf("mailbox: flag UID %s deleted: %w", set, err)
	}
	var err error
	if c.Caps().Has(imap.CapUIDPlus) {
		err = c.UIDExpunge(set).Close()
	} else {
		// Plain EXPUNGE also removes other messages flagged \Deleted.
		err = c.Expunge().Close()
	}
	if err != nil {
		return fmt.Errorf("mailbox: expunge UID %s: %w", set, err)
	}
	return nil
}

// Wait returns when new mail may have arrived, or when timeout has passed,
// whichever comes first; either way the caller should Fetch again. With
// IDLE it returns as soon as the server announces a new message (and
// leaves and re-enters IDLE every IMAPConfig.IdleRefresh, which notices a
// dead connection); without, it sleeps IMAPConfig.PollInterval (or
// timeout, when shorter). It returns an error when the connection fails or
// ctx is done.
func (in *Inbox) Wait(ctx context.Context, timeout time.Duration) error {
	select {
	case <-in.newMail: // announced during an earlier command
		return nil
	default:
	}
	if in.cfg.DisableIdle || !in.c.Caps().Has(imap.CapIdle) {
		return in.poll(ctx, min(timeout, in.cfg.PollInterval))
	}
	deadline := time.Now().Add(timeout)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return nil
		}
		woke, err := in.idleOnce(ctx, min(left, in.cfg.IdleRefresh))
		if err != nil || woke {
			return err
		}
	}
}

func (in *Inbox) poll(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-in.c.Closed():
		return net.ErrClosed
	}
}

// logIdling is the Debug line logged when the server has taken an IDLE.
const logIdling = "IMAP idling: the server announces new mail"

// idleOnce runs one IDLE command for at most d. It reports whether new mail
// was announced.
func (in *Inbox) idleOnce(ctx context.Context, d time.Duration) (woke bool, err error) {
	idle, err := in.c.Idle()
	if err != nil {
		return false, fmt.Errorf("mailbox: IDLE: %w", err)
	}
	// The server has taken the IDLE: from now on it announces new mail.
	// (The tests wait for this line before they deliver.)
	in.cfg.Logger.Debug(logIdling, "addr", in.cfg.Addr, "for", d)
	t := time.NewTimer(d)
	defer t.Stop()
	var ctxErr error
	select {
	case <-in.newMail:
		woke = true
	case <-t.C:
	case <-ctx.Done():
		ctxErr = ctx.Err()
	case <-in.c.Closed():
		idle.Close()
		return false, fmt.Errorf("mailbox: connection closed during IDLE: %w", net.ErrClosed)
	}
	if err := idle.Close(); err != nil {
		in.c.Close()
		return false, fmt.Errorf("mailbox: leave IDLE: %w", err)
	}
	// The watchdog: a server that does not answer DONE is gone.
	done := make(chan error, 1)
	go func() { done <- idle.Wait() }()
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		in.c.Close()
		err = errors.New("no answer to DONE within 30s")
	}
	if ctxErr != nil {
		return false, ctxErr
	}
	if err != nil {
		return false, fmt.Errorf("mailbox: IDLE: %w", err)
	}
	return woke, nil
}
