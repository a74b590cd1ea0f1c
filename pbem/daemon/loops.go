package daemon

import (
	"context"
	"fmt"
	"time"

	"icepost/pbem/outbox"
)

// The loops beside the inbox's: the bots' and the analyses' jobs, and
// the tick of the clocks, the digests and the outbox's pruning.

// botLoop runs the bots' jobs until ctx ends: when a mail or a tick may
// have queued one (wakeBots), and every poll otherwise.
func (d *Server) botLoop(ctx context.Context) { d.jobLoop(ctx, "bots", d.Handler.RunBots, d.botWake) }

// wakeBots tells the bot loop that a job may have been queued.
func (d *Server) wakeBots() { wakeUp(d.botWake) }

// analysisLoop makes the analyses until ctx ends: when a mail may have
// queued one (wakeAnalyses), and every poll otherwise. It is a loop of
// its own, beside the bots', so that an analysis of minutes holds up no
// bot's move.
func (d *Server) analysisLoop(ctx context.Context) {
	d.jobLoop(ctx, "analysis", d.Handler.RunAnalyses, d.analysisWake)
}

// wakeAnalyses tells the analysis loop that a job may have been queued.
func (d *Server) wakeAnalyses() { wakeUp(d.analysisWake) }

// tick runs Tick when it is due; the server's loop calls it on every
// turn.
func (d *Server) tick(ctx context.Context) {
	every := d.TickEvery
	if every == 0 {
		every = time.Minute
	}
	now := d.now()
	if !d.lastTick.IsZero() && now.Sub(d.lastTick) < every {
		return
	}
	d.lastTick = now
	d.Tick(ctx)
}

// Tick does now what the loop does every TickEvery: the game service's
// clocks and digests (Handler.Tick), the Services' ticks, the outbox's
// pruning, and a look for bots' jobs.
func (d *Server) Tick(ctx context.Context) {
	if err := d.Handler.Tick(ctx); err != nil && ctx.Err() == nil {
		d.log().Warn("tick", "err", err)
	}
	for _, s := range d.Services {
		if err := s.Tick(ctx); err != nil && ctx.Err() == nil {
			d.log().Warn("tick", "service", fmt.Sprintf("%T", s), "err", err)
		}
	}
	d.prune(ctx)
	d.poke() // a service's mails
	d.wakeBots()
}

// jobLoop runs one kind of job with run until ctx ends: when wake says one may have been
// queued, and every poll otherwise. Each committed job pokes the outbox,
// so that its mails leave at once (synced first, as every reply queued
// outside a batch), not once every due job is done.
func (d *Server) jobLoop(ctx context.Context, name string, run func(ctx context.Context, done func()) (int, error), wake <-chan struct{}) {
	log := d.log()
	backoff := time.Second
	for ctx.Err() == nil {
		n, err := run(ctx, d.poke)
		wait := time.Minute
		if d.Poll > 0 {
			wait = d.Poll
		}
		if err != nil && ctx.Err() == nil {
			log.Warn(name, "err", err, "retry_in", backoff)
			wait, backoff = backoff, min(backoff*2, 5*time.Minute)
		} else {
			backoff = time.Second
			if n > 0 {
				continue // more may be due
			}
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
		case <-wake:
		case <-t.C:
		}
		t.Stop()
	}
}

// wakeUp tells a job loop, through its channel, that a job may have been
// queued.
func wakeUp(c chan struct{}) {
	if c == nil {
		return
	}
	select {
	case c <- struct{}{}:
	default:
	}
}

// prune runs PruneSent with the daemon's KeepSent; the daemon's tick
// calls it.
func (d *Server) prune(ctx context.Context) {
	keep := d.KeepSent
	if keep <= 0 {
		keep = outbox.DefaultKeepSent
	}
	n, err := d.sender().PruneSent(ctx, d.now().Add(-keep))
	if err != nil && ctx.Err() == nil {
		d.log().Warn("pruning the outbox", "err", err)
	}
	if n > 0 {
		d.log().Info("outbox pruned: bodies of mails sent before keep_sent emptied", "mails", n, "keep_sent", keep)
	}
}
