// Package daemon is the mail server: the loop that reads the inbox,
// has the game service (package pbem) handle each mail, files it away
// and sends the outbox (package outbox); beside it, the loops that run
// the queued jobs (bots' moves, analyses) and the clocks' tick. It holds
// the transport and the timing; what a mail or a job does is pbem's, and
// the daemon reaches it through a small surface: Handle, SetAsideQuietly,
// Tick, Resume, RunBots and RunAnalyses, as net/http's Server reaches a
// Handler.
package daemon

import (
	"context"
	"errors"
	"fmt"
	"icepost/pbem"
	"icepost/pbem/mailbox"
	"icepost/pbem/mailerr"
	"icepost/pbem/outbox"
	"icepost/pbem/store"
	"log/slog"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Mailbox is the inbox the daemon reads: *mailbox.Reader is one.
type Mailbox interface {
	// Fetch returns the mails with a UID above afterUID, and the
	// mailbox's UIDVALIDITY.
	Fetch(ctx context.Context, afterUID uint32) ([]mailbox.Mail, uint32, error)
	// Done files handled mails away, Reject sets mails aside: each in
	// one command for all the UIDs given where the server allows.
	Done(ctx context.Context, uids ...uint32) error
	Reject(ctx context.Context, uids ...uint32) error
	// Wait returns when new mail may have come, or after timeout.
	Wait(ctx context.Context, timeout time.Duration) error
}

// Service is a service beside the game service that the daemon ticks:
// its Tick does what time brings, each change in a transaction of the
// game service (pbem.Handler.Transact).
type Service interface {
	Tick(ctx context.Context) error
}

// Server runs the mail loop: read, handle, file, and send the outbox.
type Server struct {
	Handler *pbem.Handler
	Mailbox Mailbox
	Sender  outbox.Mailer
	// Poll is how long to wait for new mail before looking again (IDLE
	// may wake the loop sooner); default one minute.
	Poll time.Duration
	// GiveUp is how long a mail may stay unsent before it is given up;
	// default two days.
	GiveUp time.Duration
	// TickEvery is how often Handler.Tick runs (clocks, digests); default
	// one minute.
	TickEvery time.Duration
	// Senders is how many mails the outbox sends at once, to different
	// recipients; default 4.
	Senders int
	// Services run beside the game service (package events: the
	// tournaments): each ticks with it.
	Services []Service
	// KeepSent is how long a sent mail's body stays in the outbox
	// (outbox.Sender.PruneSent); default outbox.DefaultKeepSent.
	KeepSent time.Duration

	once    sync.Once // makes the channels (setup)
	wake    chan struct{}
	botWake chan struct{}
	// watching is closed at watchOthers' first look (Watching).
	watching chan struct{}
	watched  sync.Once
	// analysisWake wakes the analysis loop.
	analysisWake chan struct{}
	lastTick     time.Time
	dryRunSeen   map[uint32]bool
	inboxRemind  mailerr.Reminder // an operator fault of the inbox
	// outbox sends the outbox (package outbox): made at the first use.
	outbox     *outbox.Sender
	outboxOnce sync.Once
	// inboxErr is the inbox loop's last look at the mailbox: nil when
	// it worked (InboxState).
	inboxErr atomic.Pointer[error]
}

// BotSearches is the server's count of the bots' searches and their
// time: for /metrics (pbem/monitor).
func (d *Server) BotSearches() (uint64, time.Duration) { return d.Handler.BotSearches() }

// InboxState says whether the inbox loop's last look at the mailbox
// worked, and the error when it did not: for /healthz (pbem/monitor).
// Before the first look it says not yet.
func (d *Server) InboxState() (bool, error) {
	p := d.inboxErr.Load()
	if p == nil {
		return false, errors.New("the inbox has not been read yet")
	}
	return *p == nil, *p
}

// Run reads and answers mail until ctx ends. It returns nil on a clean
// stop: the mail in hand is finished first.
func (d *Server) Run(ctx context.Context) error {
	d.setup()
	log := d.log()
	sendDone := make(chan struct{})
	go func() {
		defer close(sendDone)
		d.sendLoop(ctx)
	}()
	// The bots think in a loop of their own (bot.go), so that no search
	// holds up the inbox.
	botDone := make(chan struct{})
	go func() {
		defer close(botDone)
		d.botLoop(ctx)
	}()
	// So do the analyses (analyze.go), which take minutes: no bot waits
	// for one.
	analysisDone := make(chan struct{})
	go func() {
		defer close(analysisDone)
		d.analysisLoop(ctx)
	}()
	// Another process may queue mails and jobs in the same file: the web
	// site's play pages (icepost web -config). Its commits wake the loops.
	watchDone := make(chan struct{})
	go func() {
		defer close(watchDone)
		d.watchOthers(ctx)
	}()
	if err := d.Handler.Resume(ctx); err != nil {
		log.Warn("resuming the clocks", "err", err)
	}
	backoff := time.Second
	for ctx.Err() == nil {
		d.tick(ctx)
		n, err := d.ProcessInbox(ctx)
		if ctx.Err() == nil {
			d.inboxErr.Store(&err)
		}
		if err != nil && ctx.Err() == nil {
			// Tried again either way: a mail that cannot be handled is
			// set aside without an error, so this is the mailbox or the
			// database. One that will not pass needs the operator.
			switch kind := mailerr.Classify(err); {
			case kind == mailerr.Operator:
				// Said once with what to fix, and hourly while it lasts.
				level := slog.LevelDebug
				if d.inboxRemind.Due(d.now(), mailerr.Advice(err)) {
					level = slog.LevelError
				}
				log.Log(ctx, level, mailerr.Advice(err), "err", err, "retry_in", backoff)
			case kind == mailerr.Temporary:
				log.Warn("inbox", "err", err, "temporary", true, "retry_in", backoff)
			default:
				log.Error("inbox", "err", err, "temporary", false, "retry_in", backoff)
			}
			sleep(ctx, backoff)
			backoff = min(backoff*2, 5*time.Minute)
			continue
		}
		if since := d.inboxRemind.Clear(); !since.IsZero() {
			log.Warn("inbox works again: the operator fault is over", "since", since.Format(time.RFC3339))
		}
		backoff = time.Second
		if n > 0 {
			continue // more may have come while we worked
		}
		poll := d.Poll
		if poll == 0 {
			poll = time.Minute
		}
		if err := d.Mailbox.Wait(ctx, poll); err != nil && ctx.Err() == nil {
			log.Warn("waiting for mail", "err", err)
			sleep(ctx, backoff)
		}
	}
	<-sendDone
	<-botDone
	<-analysisDone
	<-watchDone
	return nil
}

// watchEvery is how often watchOthers looks for another process's
// commits.
const watchEvery = 250 * time.Millisecond

// watchOthers wakes the outbox and the job loops whenever a commit was
// made on another connection to the database: a move on the web site's
// play pages queues the other players' boards and the bot's job from
// another process, which cannot poke this one, and they would otherwise
// wait for the loops' next look (a minute). SQLite's PRAGMA data_version,
// read on one connection held for the purpose, changes when any other
// connection commits (this process's own too: a wake then costs one
// more look at the outbox or the jobs). Reading it takes microseconds
// and holds no transaction open.
func (d *Server) watchOthers(ctx context.Context) {
	log := d.log()
	conn, err := d.Handler.DB.Conn(ctx)
	if err != nil {
		if ctx.Err() == nil {
			log.Warn("watching the database for other processes' commits: moves made on the web site wait for the next poll", "err", err)
		}
		return
	}
	defer conn.Close()
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	last, warned := int64(-1), false
	for {
		var v int64
		if err := conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
			if ctx.Err() != nil {
				return
			}
			if !warned {
				log.Warn("watching the database for other processes' commits", "err", err)
				warned = true
			}
		} else {
			if last >= 0 && v != last {
				d.Wake()
			}
			if last < 0 {
				d.watched.Do(func() { close(d.watching) })
			}
			last, warned = v, false
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// ProcessInbox handles every mail the mailbox holds past the last UID
// seen, and returns how many it handled.
func (d *Server) ProcessInbox(ctx context.Context) (int, error) {
	db := d.Handler.DB
	last, err := store.State(ctx, db, "last_uid")
	if err != nil {
		return 0, err
	}
	lastUID, _ := strconv.ParseUint(last, 10, 32)
	mails, validity, err := d.Mailbox.Fetch(ctx, uint32(lastUID))
	if err != nil {
		return 0, err
	}
	known, err := store.State(ctx, db, "uidvalidity")
	if err != nil {
		return 0, err
	}
	if v := strconv.FormatUint(uint64(validity), 10); known != v {
		// UIDs of the old validity mean nothing now. Starting over is
		// safe: mails already handled are known by their Message-ID.
		if known != "" {
			d.log().Warn("UIDVALIDITY changed: scanning the mailbox again", "old", known, "new", v)
		}
		if err := store.SetState(ctx, db, "uidvalidity", v); err != nil {
			return 0, err
		}
		if lastUID != 0 {
			if err := store.SetState(ctx, db, "last_uid", "0"); err != nil {
				return 0, err
			}
			if mails, _, err = d.Mailbox.Fetch(ctx, 0); err != nil {
				return 0, err
			}
		}
	}
	// Each mail is handled in its own transaction, committed without
	// waiting for the disk; then one commit that waits for it makes the
	// whole batch durable, and only then are the mails filed away (and
	// their replies sent). A crash, even of the machine, before that
	// commit loses only handling whose mails are still in the INBOX.
	var done, rejected []uint32
	var maxUID uint32
	var herr error
	for _, m := range mails {
		if ctx.Err() != nil {
			break
		}
		if d.Handler.DryRun {
			// Nothing is filed or recorded in a dry run: remember what
			// was logged so that each mail is logged once.
			if d.dryRunSeen[m.UID] {
				continue
			}
			if d.dryRunSeen == nil {
				d.dryRunSeen = map[uint32]bool{}
			}
			d.dryRunSeen[m.UID] = true
		}
		disp, err := d.handle(ctx, m)
		if err != nil {
			herr = err
			break
		}
		if disp == pbem.Rejected {
			rejected = append(rejected, m.UID)
		} else {
			done = append(done, m.UID)
		}
		maxUID = m.UID
	}
	n := len(done) + len(rejected)
	if d.Handler.DryRun || n == 0 {
		return n, herr
	}
	if err := d.sender().Sync(ctx); err != nil {
		return n, errors.Join(herr, err)
	}
	d.poke() // the replies are durable: send them while the mails are filed
	if err := d.file(ctx, d.Mailbox.Done, done); err != nil {
		return n, errors.Join(herr, err)
	}
	if err := d.file(ctx, d.Mailbox.Reject, rejected); err != nil {
		return n, errors.Join(herr, err)
	}
	w := d.Handler.Writers()
	w.Lock()
	err = store.SetState(ctx, db, "last_uid", strconv.FormatUint(uint64(maxUID), 10))
	w.Unlock()
	if err != nil {
		return n, errors.Join(herr, err)
	}
	d.wakeBots()
	d.wakeAnalyses()
	return n, herr
}

// file files the handled mails uids with f (Mailbox.Done or Reject), in
// one command. When that fails for a reason that will not pass, each mail
// is filed alone, so that one the server refuses to file stays in the
// INBOX without holding up the others: it is handled and recorded, so
// left there it costs a look at each restart (a mail seen before is not
// handled again), while stopping would hold up every mail behind it.
func (d *Server) file(ctx context.Context, f func(context.Context, ...uint32) error, uids []uint32) error {
	if len(uids) == 0 {
		return nil
	}
	err := f(ctx, uids...)
	if err == nil {
		return nil
	}
	if ctx.Err() != nil || mailerr.IsTemporary(err) {
		return fmt.Errorf("filing mails %v: %w", uids, err)
	}
	if len(uids) > 1 {
		for _, uid := range uids {
			if err := d.file(ctx, f, []uint32{uid}); err != nil {
				return err
			}
		}
		return nil
	}
	d.log().Error("a handled mail could not be filed away: it stays in the inbox", "uid", uids[0], "err", err)
	return nil
}

// handle handles one mail. Handler.Handle sets aside a mail whose handling
// panics, with an apology to its sender; a panic that escapes it all the
// same (in setting the mail aside) sets the mail aside here, under the
// key Handle gives it, without an apology, instead of stopping the
// daemon.
func (d *Server) handle(ctx context.Context, m mailbox.Mail) (disp pbem.Disposition, err error) {
	defer func() {
		if p := recover(); p != nil {
			d.log().Error("handling a mail panicked: it is set aside", "uid", m.UID, "panic", p, "stack", string(debug.Stack()))
			disp, err = pbem.Rejected, d.Handler.SetAsideQuietly(ctx, m.Raw, fmt.Sprintf("internal error: panic: %v", p))
		}
	}()
	if m.Truncated {
		d.log().Warn("mail too large: set aside", "uid", m.UID)
		return pbem.Rejected, nil
	}
	return d.Handler.Handle(ctx, m.Raw)
}

// setup makes the loops' channels, once.
func (d *Server) setup() {
	d.once.Do(func() {
		d.wake = make(chan struct{}, 1)
		d.botWake = make(chan struct{}, 1)
		d.analysisWake = make(chan struct{}, 1)
		d.watching = make(chan struct{})
	})
}

// Wake tells the loops that work may be waiting: mails queued, a bot's
// or an analysis' job. Another process's commits wake them by
// themselves (watchOthers).
func (d *Server) Wake() {
	d.setup()
	d.poke()
	d.wakeBots()
	d.wakeAnalyses()
}

// Watching is closed once Run watches the database for other
// processes' commits: a commit made after it wakes the loops at once.
func (d *Server) Watching() <-chan struct{} {
	d.setup()
	return d.watching
}

// Outbox is the daemon's outbox.Sender, made from its settings at the
// first use.
func (d *Server) Outbox() *outbox.Sender { return d.sender() }

func (d *Server) poke() {
	if d.wake == nil {
		return
	}
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

func (d *Server) sendLoop(ctx context.Context) {
	defer d.sender().Stop()
	for ctx.Err() == nil {
		next, err := d.SendOutbox(ctx)
		if err != nil && ctx.Err() == nil {
			d.log().Warn("outbox", "err", err)
		}
		wait := time.Minute
		if !next.IsZero() {
			wait = next.Sub(d.now())
			if wait <= 0 && err == nil {
				continue // more is due than one pass sends
			}
			wait = max(wait, time.Second)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
		case <-d.wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// sender is the daemon's outbox.Sender, made from its settings at the
// first use.
func (d *Server) sender() *outbox.Sender {
	d.outboxOnce.Do(func() {
		d.outbox = &outbox.Sender{DB: d.Handler.DB, Mail: mailer{d}, From: d.Handler.Address, Now: d.now, Log: d.log(),
			GiveUp: d.GiveUp, Workers: d.Senders, DryRun: d.Handler.DryRun, Writers: d.Handler.Writers()}
	})
	return d.outbox
}

// SendOutbox sends every mail of the outbox that is due
// (outbox.Sender.Send), and returns when the next one is due.
func (d *Server) SendOutbox(ctx context.Context) (time.Time, error) {
	return d.sender().Send(ctx)
}

// mailer sends with the daemon's Sender as it is at each send.
type mailer struct{ d *Server }

func (m mailer) Send(ctx context.Context, from string, to []string, msg []byte) error {
	return m.d.Sender.Send(ctx, from, to, msg)
}

// now is the game service's clock.
func (d *Server) now() time.Time {
	if d.Handler.Now != nil {
		return d.Handler.Now()
	}
	return time.Now()
}

// log is the game service's log.
func (d *Server) log() *slog.Logger {
	if d.Handler.Log != nil {
		return d.Handler.Log
	}
	return slog.New(slog.DiscardHandler)
}
