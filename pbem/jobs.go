package pbem

import (
	"context"
	"time"

	"icepost/pbem/jobqueue"
)

// runJobs does q's jobs that are due with run (jobqueue.Queue.Run), on
// the server's database, clock and log; nothing in a dry run.
func (s *Server) runJobs(ctx context.Context, q *jobqueue.Queue, run jobqueue.Func, done func()) (int, error) {
	if s.DryRun {
		return 0, nil
	}
	return q.Run(ctx, s.DB, s.now, s.log(), run, done)
}

// jobLoop runs q's jobs with run until ctx ends: when wake says one may have been
// queued, and every poll otherwise. Each committed job pokes the outbox,
// so that its mails leave at once (synced first, as every reply queued
// outside a batch), not once every due job is done.
func (d *Daemon) jobLoop(ctx context.Context, q *jobqueue.Queue, run jobqueue.Func, wake <-chan struct{}) {
	log := d.Server.log()
	backoff := time.Second
	for ctx.Err() == nil {
		n, err := d.Server.runJobs(ctx, q, run, d.poke)
		wait := time.Minute
		if d.Poll > 0 {
			wait = d.Poll
		}
		if err != nil && ctx.Err() == nil {
			log.Warn(q.Name, "err", err, "retry_in", backoff)
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
