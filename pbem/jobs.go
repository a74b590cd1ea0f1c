package pbem

import (
	"context"
	"runtime/debug"
	"time"

	"icepost/pbem/mailerr"
	"icepost/pbem/store"
)

// Queued jobs: the work the daemon does outside the handling of any mail,
// because it takes seconds or minutes (a bot's search, an analysis). A
// job is a row of a table keyed by a game and one number (the ply of a
// bot's turn, the level of an analysis), queued in the transaction that
// made it due, so that it survives a restart. A loop of the daemon's own
// (jobLoop) takes the due rows oldest first and does each with no
// transaction open, then commits its result, and deletes the row, in one
// transaction: a crash before that commit leaves the job to be done
// again, a crash after it leaves the result in and the row gone. A job
// that fails for a reason that will not pass is logged at Error level and
// tried again later, less and less often.

// jobQueue is one kind of job: its table, and how the log names it.
type jobQueue struct {
	// name says what the jobs are, in the log: "bots", "analysis".
	name string
	// table is the jobs' table, with the columns game_id, key, created_at,
	// next_try_at, tries and last_error.
	table, key string
	// failed is the log's line for a job that failed and is tried again.
	failed string
}

// jobFunc does one job: nil error when it is done (or dropped as stale).
type jobFunc func(ctx context.Context, j job) error

// job is a row of a jobQueue's table.
type job struct {
	game  int64
	key   int // the ply of a bot's job, the level of an analysis
	tries int
}

// runJobs does q's jobs that are due with run, oldest first, and returns how many
// it finished, calling done, when not nil, after each one whose result
// is committed (the daemon sends its mails then, rather than when every
// due job is done). It returns an error when a job could not be done for
// a reason that may pass (the database busy, ctx ended); a job that fails
// for another reason is tried again later, less and less often, and
// logged at Error level.
func (s *Server) runJobs(ctx context.Context, q *jobQueue, run jobFunc, done func()) (int, error) {
	if s.DryRun {
		return 0, nil
	}
	rows, err := s.DB.QueryContext(ctx, `SELECT game_id, `+q.key+`, tries FROM `+q.table+` WHERE next_try_at <= ? ORDER BY created_at, game_id, `+q.key+` LIMIT 100`, s.now().Unix())
	if err != nil {
		return 0, err
	}
	var jobs []job
	for rows.Next() {
		var j job
		if err := rows.Scan(&j.game, &j.key, &j.tries); err != nil {
			rows.Close()
			return 0, err
		}
		jobs = append(jobs, j)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	n := 0
	for _, j := range jobs {
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
		err := runOne(ctx, run, j)
		if err == nil {
			n++
			if done != nil {
				done()
			}
			continue
		}
		if ctx.Err() != nil || mailerr.IsTemporary(err) {
			return n, err
		}
		s.log().Error(q.failed, "game", j.game, q.key, j.key, "tries", j.tries+1, "err", err)
		delay := time.Minute << min(j.tries, 10)
		if _, err := s.DB.ExecContext(ctx, `UPDATE `+q.table+` SET tries = tries + 1, next_try_at = ?, last_error = ? WHERE game_id = ? AND `+q.key+` = ?`,
			s.now().Add(delay).Unix(), truncate(err.Error(), 500), j.game, j.key); err != nil {
			return n, err
		}
	}
	return n, nil
}

// runOne runs one job, a panic in it its error (permanent: the job is
// tried again later, less and less often, as for any failure).
func runOne(ctx context.Context, run jobFunc, j job) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &panicError{value: p, stack: debug.Stack()}
		}
	}()
	return run(ctx, j)
}

// dropJob deletes a job that has nothing left to do.
func (s *Server) dropJob(ctx context.Context, q *jobQueue, j job) error {
	_, err := s.DB.ExecContext(ctx, `DELETE FROM `+q.table+` WHERE game_id = ? AND `+q.key+` = ?`, j.game, j.key)
	return err
}

// takeJob deletes a job inside the transaction that commits its result,
// and says whether it was still there (another process may have done it
// meanwhile).
func takeJob(ctx context.Context, tx store.Querier, q *jobQueue, j job) (bool, error) {
	res, err := tx.ExecContext(ctx, `DELETE FROM `+q.table+` WHERE game_id = ? AND `+q.key+` = ?`, j.game, j.key)
	if err != nil {
		return false, err
	}
	k, err := res.RowsAffected()
	return k == 1, err
}

// jobLoop runs q's jobs with run until ctx ends: when wake says one may have been
// queued, and every poll otherwise. Each committed job pokes the outbox,
// so that its mails leave at once (synced first, as every reply queued
// outside a batch), not once every due job is done.
func (d *Daemon) jobLoop(ctx context.Context, q *jobQueue, run jobFunc, wake <-chan struct{}) {
	log := d.Server.log()
	backoff := time.Second
	for ctx.Err() == nil {
		n, err := d.Server.runJobs(ctx, q, run, d.poke)
		wait := time.Minute
		if d.Poll > 0 {
			wait = d.Poll
		}
		if err != nil && ctx.Err() == nil {
			log.Warn(q.name, "err", err, "retry_in", backoff)
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
