package outbox

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"mime"
	"net/textproto"
	"strconv"
	"time"

	"icepost/pbem/store"
)

// The operator's view of the outbox (icepost outbox list and retry,
// serve -check): what waits, what was given up, and whether a fault
// holds the sending.

// Mail is one mail of the outbox as the operator lists it.
type Mail struct {
	ID        int64
	To        string
	Subject   string
	Queued    time.Time
	Attempts  int
	NextTry   time.Time // when it is due, while it waits
	Failed    time.Time // when it was given up; zero while it waits
	LastError string
}

// Held says whether an operator fault stops the daemon's sending
// now (as the daemon last recorded it), since when, and what to fix.
func Held(ctx context.Context, db *sql.DB) (since time.Time, advice string, err error) {
	v, err := store.State(ctx, db, stateHeldSince)
	if err != nil || v == "" {
		return time.Time{}, "", err
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	advice, err = store.State(ctx, db, stateHeldFault)
	return time.Unix(n, 0), advice, err
}

// List lists the mails not sent, oldest first: those waiting to be sent
// and those given up, or (failedOnly) only those given up.
func List(ctx context.Context, db *sql.DB, failedOnly bool) ([]Mail, error) {
	q := `SELECT id, recipient, message, created_at, attempts, next_try_at, coalesce(failed_at, 0), last_error
		FROM pbem_outbox WHERE sent_at IS NULL`
	if failedOnly {
		q += ` AND failed_at IS NOT NULL`
	}
	rows, err := db.QueryContext(ctx, q+` ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Mail
	for rows.Next() {
		var (
			m                      Mail
			msg                    []byte
			queued, next, failedAt int64
		)
		if err := rows.Scan(&m.ID, &m.To, &msg, &queued, &m.Attempts, &next, &failedAt, &m.LastError); err != nil {
			return nil, err
		}
		m.Subject = subjectOf(msg)
		m.Queued, m.NextTry = time.Unix(queued, 0), time.Unix(next, 0)
		if failedAt != 0 {
			m.Failed, m.NextTry = time.Unix(failedAt, 0), time.Time{}
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// subjectOf reads a queued mail's Subject, decoded.
func subjectOf(msg []byte) string {
	h, err := textproto.NewReader(bufio.NewReader(bytes.NewReader(msg))).ReadMIMEHeader()
	if err != nil && len(h) == 0 {
		return ""
	}
	subject := h.Get("Subject")
	if dec, err := new(mime.WordDecoder).DecodeHeader(subject); err == nil {
		subject = dec
	}
	return subject
}

// ErrNoMail is the error of Retry for a mail that is not in the
// outbox, or was sent.
var ErrNoMail = errors.New("no such mail waiting or given up in the outbox")

// Retry makes a mail of the outbox that was given up (or waits for
// its next try) due at at (now), so that the running daemon sends it within a
// minute: id, or every mail not sent when id is 0. It returns how many it
// made due. A mail given up gets its two days of tries again, counted from
// now; a mail sent is never sent again.
func Retry(ctx context.Context, db *sql.DB, id int64, at time.Time) (int, error) {
	now := at.Unix()
	q := `UPDATE pbem_outbox SET next_try_at = ?, failed_at = NULL,
		created_at = CASE WHEN failed_at IS NULL THEN created_at ELSE ? END
		WHERE sent_at IS NULL`
	args := []any{now, now}
	if id != 0 {
		q += ` AND id = ?`
		args = append(args, id)
	}
	res, err := db.ExecContext(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err == nil && n == 0 && id != 0 {
		return 0, fmt.Errorf("%w: %d", ErrNoMail, id)
	}
	return int(n), err
}

// Counts returns how many mails of the outbox wait to be sent and
// how many were given up.
func Counts(ctx context.Context, db *sql.DB) (waiting, failed int, err error) {
	err = db.QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE failed_at IS NULL), count(*) FILTER (WHERE failed_at IS NOT NULL)
		FROM pbem_outbox WHERE sent_at IS NULL`).Scan(&waiting, &failed)
	return waiting, failed, err
}
