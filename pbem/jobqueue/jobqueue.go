// Package jobqueue keeps the daemon's queued jobs: the work it does
// outside the handling of any mail, because it takes seconds or minutes
// (a bot's search, an analysis).
//
// A job is a row of a table keyed by a game and one number (the ply of a
// bot's turn, the level of an analysis), queued in the transaction that
// made it due, so that it survives a restart. A loop of the daemon's own
// takes the due rows oldest first (Queue.Run) and does each with no
// transaction open; the job then commits its result and deletes its row
// (Queue.Take) in one transaction: a crash before that commit leaves the
// job to be done again, a crash after it leaves the result in and the
// row gone. A job that fails for a reason that will not pass is logged
// at Error level and tried again later, less and less often.
//
// The package knows the tables' shape, not what a job does: the game
// service gives the function that does one.
package jobqueue

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"icepost/pbem/mailerr"
	"icepost/pbem/store"
)

// Queue is one kind of job: its table, and how the log names it.
type Queue struct {
	// Name says what the jobs are, in the log: "bots", "analysis".
	Name string
	// Table is the jobs' table, with the columns game_id, Key,
	// created_at, next_try_at, tries and last_error.
	Table, Key string
	// Failed is the log's line for a job that failed and is tried again.
	Failed string
}

// Job is a row of a Queue's table.
type Job struct {
	Game  int64
	Key   int // the ply of a bot's job, the level of an analysis
	Tries int
}

// Func does one job: nil error when it is done (or dropped as stale).
type Func func(ctx context.Context, j Job) error

// Run does q's jobs that are due at now with run, oldest first, and
// returns how many it finished, calling done, when not nil, after each
// one whose result is committed (the daemon sends its mails then, rather
// than when every due job is done). It returns an error when a job could
// not be done for a reason that may pass (the database busy, ctx ended);
// a job that fails for another reason is tried again later, less and
// less often, and logged at Error level on log.
func (q *Queue) Run(ctx context.Context, db *sql.DB, now func() time.Time, log *slog.Logger, run Func, done func()) (int, error) {
	rows, err := db.QueryContext(ctx, `SELECT game_id, `+q.Key+`, tries FROM `+q.Table+` WHERE next_try_at <= ? ORDER BY created_at, game_id, `+q.Key+` LIMIT 100`, now().Unix())
	if err != nil {
		return 0, err
	}
	var jobs []Job
	for rows.Next() {
		var j Job
		if err := rows.Scan(&j.Game, &j.Key, &j.Tries); err != nil {
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
		log.Error(q.Failed, "game", j.Game, q.Key, j.Key, "tries", j.Tries+1, "err", err)
		delay := time.Minute << min(j.Tries, 10)
		msg := err.Error()
		if len(msg) > 500 {
			msg = msg[:500]
		}
		if _, err := db.ExecContext(ctx, `UPDATE `+q.Table+` SET tries = tries + 1, next_try_at = ?, last_error = ? WHERE game_id = ? AND `+q.Key+` = ?`,
			now().Add(delay).Unix(), msg, j.Game, j.Key); err != nil {
			return n, err
		}
	}
	return n, nil
}

// PanicError is a panic in a job, as its error: permanent, so the job is
// tried again later, less and less often, as for any failure.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string   { return fmt.Sprintf("panic: %v", e.Value) }
func (e *PanicError) Temporary() bool { return false }

// runOne runs one job, a panic in it its error.
func runOne(ctx context.Context, run Func, j Job) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &PanicError{Value: p, Stack: debug.Stack()}
		}
	}()
	return run(ctx, j)
}

// Drop deletes a job that has nothing left to do.
func (q *Queue) Drop(ctx context.Context, db store.Querier, j Job) error {
	_, err := db.ExecContext(ctx, `DELETE FROM `+q.Table+` WHERE game_id = ? AND `+q.Key+` = ?`, j.Game, j.Key)
	return err
}

// Take deletes a job inside the transaction that commits its result, and
// says whether it was still there (another process may have done it
// meanwhile).
func (q *Queue) Take(ctx context.Context, tx store.Querier, j Job) (bool, error) {
	res, err := tx.ExecContext(ctx, `DELETE FROM `+q.Table+` WHERE game_id = ? AND `+q.Key+` = ?`, j.Game, j.Key)
	if err != nil {
		return false, err
	}
	k, err := res.RowsAffected()
	return k == 1, err
}
