package outbox

import (
	"context"
	"time"
)

// DefaultKeepSent is how long a sent mail's body stays in the outbox when
// the configuration says nothing (keep_sent): 30 days.
const DefaultKeepSent = 30 * 24 * time.Hour

// pruneBatch is how many mails one transaction of PruneSent empties, so
// that a first pruning of a large outbox does not hold up the daemon's
// other writers for long.
const pruneBatch = 500

// PruneSent empties the body of every mail of the outbox sent before
// before, and returns how many it emptied. The rows stay, with their
// recipient and times: the outbox's rows are not what makes handling
// exactly once (pbem_processed is, and it is never pruned), and a sent
// row is never read again by the daemon; a mail not sent, or given up,
// keeps its body. The file does not shrink: SQLite reuses the room for
// new mail (VACUUM gives it back to the file system).
func (s *Sender) PruneSent(ctx context.Context, before time.Time) (int, error) {
	if s.DryRun {
		return 0, nil
	}
	total := 0
	for {
		n, err := s.pruneSome(ctx, before)
		total += n
		if err != nil || n < pruneBatch {
			return total, err
		}
	}
}

func (s *Sender) pruneSome(ctx context.Context, before time.Time) (int, error) {
	defer s.lock()()
	// The inner query's conditions are the index pbem_outbox_kept's.
	res, err := s.DB.ExecContext(ctx, `UPDATE pbem_outbox SET message = x'' WHERE id IN (
		SELECT id FROM pbem_outbox WHERE sent_at IS NOT NULL AND length(message) > 0 AND sent_at < ? LIMIT ?)`,
		before.Unix(), pruneBatch)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}
