// Package outbox keeps the mails icepost sends until they are sent:
// queued in the transaction that decided them (Queue), sent once that
// commit is durable, tried again while the failure may pass, given up
// after two days, held (every mail kept) while a fault of the operator's
// settings stops sending, and pruned of their bodies once sent long
// enough. The game service only queues; the daemon's send loop runs a
// Sender; the operator's commands list and retry.
package outbox

import (
	"context"
	"fmt"
	"time"

	"icepost/pbem/store"
)

// Queue adds a mail to the outbox in tx, the transaction that decided
// it: raw is the whole message, for one recipient, due at due (now, or
// later for a mail that may yet be superseded). A mail queued with a
// supersede key is taken back by Supersede with that key while it is
// not sent.
func Queue(ctx context.Context, tx store.Querier, to string, raw []byte, now, due time.Time, supersede string) error {
	var key any
	if supersede != "" {
		key = supersede
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO pbem_outbox (recipient, message, created_at, next_try_at, supersede) VALUES (?, ?, ?, ?, ?)`,
		to, raw, now.Unix(), due.Unix(), key); err != nil {
		return fmt.Errorf("outbox: %w", err)
	}
	return nil
}

// Supersede takes back, in tx, the mails queued with the key that are
// not sent yet, and says how many there were.
func Supersede(ctx context.Context, tx store.Querier, key string) (int, error) {
	res, err := tx.ExecContext(ctx, `DELETE FROM pbem_outbox WHERE supersede = ? AND sent_at IS NULL`, key)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}
