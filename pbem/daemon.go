package pbem

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"icepost/pbem/mailbox"
	"icepost/pbem/mailerr"
	"icepost/pbem/store"
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

// Sender sends one mail: *mailbox.Sender is one. An error that
// mailerr.Classify calls temporary is tried again later; an operator fault
// stops sending until it passes, and keeps every mail; any other gives
// the mail up.
type Sender interface {
	Send(ctx context.Context, from string, to []string, msg []byte) error
}

// Daemon runs the mail loop: read, handle, file, and send the outbox.
type Daemon struct {
	Server  *Server
	Mailbox Mailbox
	Sender  Sender
	// Poll is how long to wait for new mail before looking again (IDLE
	// may wake the loop sooner); default one minute.
	Poll time.Duration
	// GiveUp is how long a mail may stay unsent before it is given up;
	// default two days.
	GiveUp time.Duration
	// TickEvery is how often Server.Tick runs (clocks, digests); default
	// one minute.
	TickEvery time.Duration
	// Senders is how many mails the outbox sends at once, to different
	// recipients; default 4.
	Senders int
	// KeepSent is how long a sent mail's body stays in the outbox
	// (PruneSent); default DefaultKeepSent.
	KeepSent time.Duration

	wake    chan struct{}
	botWake chan struct{}
	// analysisWake wakes the analysis loop (analyze.go).
	analysisWake chan struct{}
	synced       atomic.Int64 // outbox rows up to this id are durable (syncDB)
	lastTick     time.Time
	dryRunSeen   map[uint32]bool
	hold         outboxHold       // sending stopped by an operator fault (outbox.go)
	inboxRemind  mailerr.Reminder // an operator fault of the inbox
	// unrecorded are sends whose outcome could not be written (a full
	// disk): SendOutbox writes them before it sends anything else.
	unrecorded []sendOutcome
	// inboxErr is the inbox loop's last look at the mailbox: nil when
	// it worked (InboxState).
	inboxErr atomic.Pointer[error]
}

// BotSearches is the server's count of the bots' searches and their
// time: for /metrics (pbem/monitor).
func (d *Daemon) BotSearches() (uint64, time.Duration) { return d.Server.BotSearches() }

// InboxState says whether the inbox loop's last look at the mailbox
// worked, and the error when it did not: for /healthz (pbem/monitor).
// Before the first look it says not yet.
func (d *Daemon) InboxState() (bool, error) {
	p := d.inboxErr.Load()
	if p == nil {
		return false, errors.New("the inbox has not been read yet")
	}
	return *p == nil, *p
}

// Run reads and answers mail until ctx ends. It returns nil on a clean
// stop: the mail in hand is finished first.
func (d *Daemon) Run(ctx context.Context) error {
	d.wake = make(chan struct{}, 1)
	d.botWake = make(chan struct{}, 1)
	d.analysisWake = make(chan struct{}, 1)
	log := d.Server.log()
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
	if err := d.Server.Resume(ctx); err != nil {
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
				if d.inboxRemind.Due(d.Server.now(), mailerr.Advice(err)) {
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
func (d *Daemon) watchOthers(ctx context.Context) {
	log := d.Server.log()
	conn, err := d.Server.DB.Conn(ctx)
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
				d.poke()
				d.wakeBots()
				d.wakeAnalyses()
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
func (d *Daemon) ProcessInbox(ctx context.Context) (int, error) {
	db := d.Server.DB
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
			d.Server.log().Warn("UIDVALIDITY changed: scanning the mailbox again", "old", known, "new", v)
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
		if d.Server.DryRun {
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
		if disp == Rejected {
			rejected = append(rejected, m.UID)
		} else {
			done = append(done, m.UID)
		}
		maxUID = m.UID
	}
	n := len(done) + len(rejected)
	if d.Server.DryRun || n == 0 {
		return n, herr
	}
	if err := d.syncDB(ctx); err != nil {
		return n, errors.Join(herr, err)
	}
	d.poke() // the replies are durable: send them while the mails are filed
	if err := d.file(ctx, d.Mailbox.Done, done); err != nil {
		return n, errors.Join(herr, err)
	}
	if err := d.file(ctx, d.Mailbox.Reject, rejected); err != nil {
		return n, errors.Join(herr, err)
	}
	unlock := d.Server.writing()
	err = store.SetState(ctx, db, "last_uid", strconv.FormatUint(uint64(maxUID), 10))
	unlock()
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
func (d *Daemon) file(ctx context.Context, f func(context.Context, ...uint32) error, uids []uint32) error {
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
	d.Server.log().Error("a handled mail could not be filed away: it stays in the inbox", "uid", uids[0], "err", err)
	return nil
}

// handle handles one mail. Server.Handle sets aside a mail whose handling
// panics, with an apology to its sender; a panic that escapes it all the
// same (in setting the mail aside) sets the mail aside here, under the
// key Handle gives it, without an apology, instead of stopping the
// daemon.
func (d *Daemon) handle(ctx context.Context, m mailbox.Mail) (disp Disposition, err error) {
	defer func() {
		if p := recover(); p != nil {
			d.Server.log().Error("handling a mail panicked: it is set aside", "uid", m.UID, "panic", p, "stack", string(debug.Stack()))
			disp, err = Rejected, nil
			if !d.Server.DryRun {
				_, err = d.Server.DB.ExecContext(ctx, `INSERT OR IGNORE INTO pbem_processed (mail_key, processed_at, sender, outcome) VALUES (?, ?, '', ?)`,
					keyOf(m.Raw), d.Server.now().Unix(), truncate(fmt.Sprintf("rejected: internal error: panic: %v", p), 500))
			}
		}
	}()
	if m.Truncated {
		d.Server.log().Warn("mail too large: set aside", "uid", m.UID)
		return Rejected, nil
	}
	return d.Server.Handle(ctx, m.Raw)
}

// syncDB is Server.syncDB, and remembers which outbox rows it made
// durable, so that SendOutbox syncs only for rows queued since.
func (d *Daemon) syncDB(ctx context.Context) error {
	id, err := d.Server.syncDB(ctx)
	if err != nil {
		return err
	}
	for {
		old := d.synced.Load()
		if id <= old || d.synced.CompareAndSwap(old, id) {
			return nil
		}
	}
}

func (d *Daemon) poke() {
	if d.wake == nil {
		return
	}
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

func (d *Daemon) sendLoop(ctx context.Context) {
	defer d.recordUnrecorded()
	for ctx.Err() == nil {
		next, err := d.SendOutbox(ctx)
		if err != nil && ctx.Err() == nil {
			d.Server.log().Warn("outbox", "err", err)
		}
		wait := time.Minute
		if !next.IsZero() {
			wait = next.Sub(d.Server.now())
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

// outboxItem is a mail of the outbox to send.
type outboxItem struct {
	id       int64
	to       string
	msg      []byte
	attempts int
	created  int64
}

// SendOutbox sends every mail that is due, and returns when the next one
// not yet due is (zero when none). Mails to different recipients go out
// on up to Daemon.Senders connections at once; the mails to one recipient
// go out one after another, in the order they were queued.
//
// An operator fault (a login refused, a certificate not trusted: see
// mailerr) stops sending: the mails stay queued as they were, and
// SendOutbox tries again with one mail, from a minute later doubling up
// to five minutes, until one goes through (outbox.go).
func (d *Daemon) SendOutbox(ctx context.Context) (time.Time, error) {
	// Mails sent whose outcome could not be written are written first:
	// until a write succeeds, nothing is sent, since they would be sent
	// again and their outcome could not be written either.
	if len(d.unrecorded) > 0 {
		if err := d.recordSent(ctx, d.unrecorded); err != nil {
			return time.Time{}, fmt.Errorf("%d mails sent are not yet recorded, and nothing more is sent until they are: %w", len(d.unrecorded), err)
		}
		d.unrecorded = nil
	}
	db := d.Server.DB
	now := d.Server.now()
	if err := d.loadHold(ctx); err != nil {
		return time.Time{}, err
	}
	probe := d.hold.held()
	if probe && now.Before(d.hold.probeAt) {
		return d.hold.probeAt, nil
	}
	rows, err := db.QueryContext(ctx, `SELECT id, recipient, message, attempts, created_at FROM pbem_outbox
		WHERE sent_at IS NULL AND failed_at IS NULL AND next_try_at <= ? ORDER BY id LIMIT 100`, now.Unix())
	if err != nil {
		return time.Time{}, err
	}
	var items []outboxItem
	for rows.Next() {
		var it outboxItem
		if err := rows.Scan(&it.id, &it.to, &it.msg, &it.attempts, &it.created); err != nil {
			rows.Close()
			return time.Time{}, err
		}
		items = append(items, it)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return time.Time{}, err
	}
	if probe && len(items) > 1 {
		items = items[:1] // the oldest mail due tells whether the fault is over
	}
	// A reply goes out only once the commit that queued it is durable:
	// the inbox loop syncs each batch (ProcessInbox); others, the bots'
	// moves and the clocks, are synced here.
	if len(items) > 0 && items[len(items)-1].id > d.synced.Load() {
		if err := d.syncDB(ctx); err != nil {
			return time.Time{}, err
		}
	}
	// One queue per recipient, in the order of their first mail.
	var queues [][]outboxItem
	at := map[string]int{}
	for _, it := range items {
		i, ok := at[it.to]
		if !ok {
			i = len(queues)
			at[it.to] = i
			queues = append(queues, nil)
		}
		queues[i] = append(queues[i], it)
	}
	workers := d.Senders
	if workers <= 0 {
		workers = 4
	}
	workers = min(workers, len(queues))
	// The senders hand what became of each mail to one recorder, which
	// writes it as soon as it gets the database, with whatever else came
	// meanwhile in the same transaction: a sender never waits for a
	// handled mail's transaction to end.
	outcomes := make(chan sendOutcome, len(items))
	recorded := make(chan error, 1)
	var failed atomic.Bool
	go func() {
		var err error
		d.unrecorded, err = d.record(ctx, outcomes, &failed)
		recorded <- err
	}()
	// An operator fault stops every sender after the mail in hand: the
	// next would meet it too.
	var fault atomic.Pointer[error]
	var reached atomic.Bool // a send got an answer about its mail
	work := make(chan []outboxItem)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for q := range work {
				for _, it := range q {
					if failed.Load() || fault.Load() != nil || ctx.Err() != nil {
						break
					}
					o := d.sendOne(ctx, it)
					if o.fault != nil {
						fault.CompareAndSwap(nil, &o.fault)
					} else if !o.stopped {
						reached.Store(true)
					}
					outcomes <- o
				}
			}
		})
	}
	for _, q := range queues {
		work <- q
	}
	close(work)
	wg.Wait()
	close(outcomes)
	if err := <-recorded; err != nil {
		return time.Time{}, err
	}
	if err := ctx.Err(); err != nil {
		return time.Time{}, err
	}
	if f := fault.Load(); f != nil {
		return d.holdSending(ctx, now, *f)
	}
	if reached.Load() && d.hold.held() {
		if err := d.resumeSending(ctx, now); err != nil {
			return time.Time{}, err
		}
	}
	var next int64
	err = db.QueryRowContext(ctx, `SELECT coalesce(min(next_try_at), 0) FROM pbem_outbox WHERE sent_at IS NULL AND failed_at IS NULL`).Scan(&next)
	if err != nil || next == 0 {
		return time.Time{}, err
	}
	return time.Unix(next, 0), nil
}

// sendOutcome is what became of one mail of the outbox.
type sendOutcome struct {
	id      int64
	at      time.Time
	sent    bool
	giveUp  bool      // failed for good
	retryAt time.Time // failed for now
	err     string
	stopped bool  // not sent: the daemon is stopping
	fault   error // not sent: an operator fault; the mail stays as it was
}

// sendOne sends one mail of the outbox and says what became of it: sent,
// given up, or to be tried again later.
func (d *Daemon) sendOne(ctx context.Context, it outboxItem) sendOutcome {
	giveUp := d.GiveUp
	if giveUp == 0 {
		giveUp = 48 * time.Hour
	}
	err := d.Sender.Send(ctx, d.Server.Address, []string{it.to}, it.msg)
	o := sendOutcome{id: it.id, at: d.Server.now(), sent: err == nil}
	if err == nil {
		return o
	}
	o.err = err.Error()
	kind := mailerr.Classify(err)
	switch {
	case ctx.Err() != nil:
		o.stopped = true // not refused: due again at the next start
	case kind == mailerr.Operator:
		o.fault = err // about no mail: holdSending logs it
	default:
		temp := kind == mailerr.Temporary
		d.Server.log().Warn("sending", "to", it.to, "err", err, "temporary", temp)
		// The two days count from the mail's queueing, or from the end
		// of the last operator fault: a fault is nobody's mail's.
		from := time.Unix(it.created, 0)
		if d.hold.resumed.After(from) {
			from = d.hold.resumed
		}
		if !temp || o.at.Sub(from) > giveUp {
			o.giveUp = true
		} else {
			o.retryAt = o.at.Add(time.Minute << min(it.attempts, 6)) // 1 min doubling to about an hour
		}
	}
	return o
}

// record writes the outcomes of sendOne as they come, all that have come
// in one transaction. When it cannot (a full disk), it sets failed, so
// that no more is sent, and returns the error with the outcomes not
// written, those of the mails still being sent included: the next
// SendOutbox writes them before it sends anything, so that a mail is not
// sent again because its outcome could not be written. Only a stop of
// the process before they are written sends them again (at least once,
// never lost).
func (d *Daemon) record(ctx context.Context, outcomes <-chan sendOutcome, failed *atomic.Bool) ([]sendOutcome, error) {
	for o := range outcomes {
		batch := []sendOutcome{o}
	more:
		for {
			select {
			case o, ok := <-outcomes:
				if !ok {
					break more
				}
				batch = append(batch, o)
			default:
				break more
			}
		}
		if err := d.recordSent(ctx, batch); err != nil {
			failed.Store(true)
			for o := range outcomes {
				batch = append(batch, o)
			}
			return batch, err
		}
	}
	return nil, nil
}

// recordUnrecorded tries once more, as the send loop stops, to write the
// outcomes that could not be written; those it cannot are sent again by
// the next process.
func (d *Daemon) recordUnrecorded() {
	if len(d.unrecorded) == 0 {
		return
	}
	if err := d.recordSent(context.Background(), d.unrecorded); err != nil {
		d.Server.log().Error("stopping with mails sent but not recorded: the next start sends them again", "mails", len(d.unrecorded), "err", err)
		return
	}
	d.unrecorded = nil
}

func (d *Daemon) recordSent(ctx context.Context, batch []sendOutcome) error {
	// A mail sent is recorded even when the daemon is stopping, so that
	// the next start does not send it again.
	ctx = context.WithoutCancel(ctx)
	defer d.Server.writing()()
	tx, err := d.Server.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, o := range batch {
		switch {
		case o.stopped:
			continue
		case o.fault != nil:
			// Kept as it was, not counted as a try; the error says
			// why it waits (icepost outbox list).
			_, err = tx.ExecContext(ctx, `UPDATE pbem_outbox SET last_error = ? WHERE id = ?`, o.err, o.id)
		case o.sent:
			_, err = tx.ExecContext(ctx, `UPDATE pbem_outbox SET sent_at = ?, attempts = attempts + 1 WHERE id = ?`, o.at.Unix(), o.id)
		case o.giveUp:
			_, err = tx.ExecContext(ctx, `UPDATE pbem_outbox SET failed_at = ?, attempts = attempts + 1, last_error = ? WHERE id = ?`, o.at.Unix(), o.err, o.id)
		default:
			_, err = tx.ExecContext(ctx, `UPDATE pbem_outbox SET next_try_at = ?, attempts = attempts + 1, last_error = ? WHERE id = ?`, o.retryAt.Unix(), o.err, o.id)
		}
		if err != nil {
			return err
		}
	}
	return tx.Commit()
}
