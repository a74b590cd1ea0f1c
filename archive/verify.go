package archive

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Verify replays every stored game under the current rules and calls bad
// for each one that no longer validates. It returns how many games it
// checked and how many failed.
func (a *Archive) Verify(ctx context.Context, bad func(id int64, err error)) (checked, failed int, err error) {
	rows, err := a.db.QueryContext(ctx, `SELECT id, record FROM games ORDER BY id`)
	if err != nil {
		return 0, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var packed []byte
		if err := rows.Scan(&id, &packed); err != nil {
			return checked, failed, err
		}
		checked++
		text, err := unpackRecord(packed)
		if err == nil {
			_, err = replayText(fmt.Sprintf("game %d", id), text)
		}
		if err != nil {
			failed++
			if bad != nil {
				bad(id, err)
			}
		}
	}
	return checked, failed, rows.Err()
}

// Quarantined is a record that did not replay.
type Quarantined struct {
	ID     int64
	Text   string
	Reason string
	Source string
	Line   int
	Added  time.Time
}

// Quarantine lists the quarantined records, oldest first.
func (a *Archive) Quarantine(ctx context.Context) ([]Quarantined, error) {
	rows, err := a.db.QueryContext(ctx, `SELECT id, text, reason, coalesce(source, ''), coalesce(source_line, 0), added FROM quarantine ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Quarantined
	for rows.Next() {
		var q Quarantined
		var added int64
		if err := rows.Scan(&q.ID, &q.Text, &q.Reason, &q.Source, &q.Line, &added); err != nil {
			return nil, err
		}
		q.Added = time.Unix(added, 0)
		out = append(out, q)
	}
	return out, rows.Err()
}

// RetryQuarantine replays every quarantined record again (after a rules
// fix, say): those that now validate move into the archive (or are found
// to be duplicates) and leave the quarantine; the others keep their place
// with the new reason.
func (a *Archive) RetryQuarantine(ctx context.Context) (ImportStats, error) {
	var st ImportStats
	qs, err := a.Quarantine(ctx)
	if err != nil {
		return st, err
	}
	tx, err := a.db.BeginTx(ctx, nil)
	if err != nil {
		return st, err
	}
	defer tx.Rollback()
	ins, err := newInserter(ctx, tx)
	if err != nil {
		return st, err
	}
	defer ins.close()
	for _, q := range qs {
		outs := process(q.Source, chunk{text: []byte(q.Text), line: max(q.Line, 1)})
		var reasons []error
		for _, o := range outs {
			if o.reason != nil {
				reasons = append(reasons, o.reason)
			}
		}
		if len(reasons) > 0 {
			st.Quarantined++
			if _, err := tx.ExecContext(ctx, `UPDATE quarantine SET reason = ? WHERE id = ?`, errors.Join(reasons...).Error(), q.ID); err != nil {
				return st, err
			}
			continue
		}
		for _, o := range outs {
			_, dup, err := ins.add(ctx, o.row)
			if err != nil {
				return st, err
			}
			if dup {
				st.Duplicates++
			} else {
				st.Imported++
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM quarantine WHERE id = ?`, q.ID); err != nil {
			return st, err
		}
	}
	return st, tx.Commit()
}
