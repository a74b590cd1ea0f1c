package pbem

import (
	"context"

	"icepost/pbem/jobqueue"
)

// runJobs does q's jobs that are due with run (jobqueue.Queue.Run), on
// the server's database, clock and log; nothing in a dry run.
func (s *Handler) runJobs(ctx context.Context, q *jobqueue.Queue, run jobqueue.Func, done func()) (int, error) {
	if s.DryRun {
		return 0, nil
	}
	return q.Run(ctx, s.DB, s.now, s.log(), run, done)
}
