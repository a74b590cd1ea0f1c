package archive

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync"
	"time"

	"icepost/notation"
	"icepost/notation/aprecord"
)

// entrySum mixes an entry into 64 bits; a game's entries add up to a sum
// that verify compares with the replayed game's.
func entrySum(e entry) uint64 {
	x := e.hash ^ uint64(e.ply)<<40 ^ uint64(e.code)*0x9e3779b97f4a7c15
	x ^= x >> 31
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 29
	return x
}

// gameSum is the sum of the entries a replayed game should have in the
// index.
func gameSum(id int64, g *notation.Game, winner sql.NullInt64, tokenIDs map[string]uint32) (uint64, error) {
	w := -1
	if winner.Valid {
		w = int(winner.Int64)
	}
	moves := g.Record.Main.Moves
	var sum uint64
	for ply, s := range g.States {
		var code uint32
		if ply < len(moves) {
			mid, ok := tokenIDs[moves[ply].Token]
			if !ok {
				return 0, fmt.Errorf("%w: move %q is not numbered", ErrIndex, moves[ply].Token)
			}
			code = mid<<2 | outcomeFor(w, uint8(s.ToMove()))
		}
		sum += entrySum(entry{hash: uint64(PositionHash(s)), game: id, ply: uint32(ply), code: code})
	}
	return sum, nil
}

// verify replays every stored game under the current rules and calls bad
// for each one that no longer validates, then checks the position index
// against the games (VerifyWith). It returns how many games it checked
// and how many failed.
func (a *Archive) verify(ctx context.Context, bad func(id int64, err error)) (checked, failed int, err error) {
	return a.VerifyWith(ctx, VerifyOptions{Bad: bad})
}

// VerifyOptions tune VerifyWith.
type VerifyOptions struct {
	// Bad is called for each game that no longer validates or whose
	// positions the index does not hold exactly (id 0: entries of no
	// stored game).
	Bad func(id int64, err error)
	// Progress, when set, is called now and then with the games checked
	// and the games stored.
	Progress func(done, total int)
}

// ErrIndex: the position index does not match the games stored.
var ErrIndex = errors.New("the position index does not match the games")

// ErrTextIndex: the full-text index does not match the games stored.
var ErrTextIndex = errors.New("the full-text index does not match the games")

// verifyText checks that each game up to maxID has its row in game_text
// under its textKey and in its game's language, and that no other row is
// there.
func verifyText(ctx context.Context, db *sql.DB, maxID int64, bad func(int64, error)) error {
	rows, err := db.QueryContext(ctx, `SELECT g.id FROM games g WHERE g.id <= ? AND NOT EXISTS
		(SELECT 1 FROM game_text t WHERE t.docid = `+textKeySQL+` AND t.lang = `+textLanguageSQL+`)`, maxID)
	if err != nil {
		return fmt.Errorf("checking the full-text index: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return err
		}
		bad(id, fmt.Errorf("%w: the game's words are not indexed under its date and game", ErrTextIndex))
	}
	if err := rows.Err(); err != nil {
		return err
	}
	var stray int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM game_text t WHERE NOT EXISTS
		(SELECT 1 FROM games g WHERE g.id = t.docid & `+strconv.Itoa(textIDMask)+`)`).Scan(&stray); err != nil {
		return fmt.Errorf("checking the full-text index: %w", err)
	}
	if stray > 0 {
		bad(0, fmt.Errorf("%w: %d rows of games not stored", ErrTextIndex, stray))
	}
	return nil
}

// VerifyWith replays every stored game (on every core) and checks that
// the position index holds exactly one entry per position of each stored
// game and nothing else, that the full-text index holds each game's
// words under its key and language and nothing else, and that the rows
// of an analysed game
// (analysis, analysis_seats) say what the analysis in its record says.
func (a *Archive) VerifyWith(ctx context.Context, opt VerifyOptions) (checked, failed int, err error) {
	var total int
	var maxID int64
	if err := a.db.QueryRowContext(ctx, `SELECT count(*), coalesce(max(id), 0) FROM games`).Scan(&total, &maxID); err != nil {
		return 0, 0, err
	}
	// Entries per game in the index, by id, and a sum of the entries
	// (entrySum) that the replayed game must give: the same count could
	// hide a wrong position or move.
	counts := make([]int32, maxID+1)
	sums := make([]uint64, maxID+1)
	stray := 0
	rows, err := a.db.QueryContext(ctx, `SELECT data FROM pos_blocks`)
	if err != nil {
		return 0, 0, err
	}
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&data); err != nil {
			rows.Close()
			return 0, 0, err
		}
		if err := decodeBlock(data, func(e entry) bool {
			switch {
			case e.game > 0 && e.game <= maxID:
				counts[e.game]++
				sums[e.game] += entrySum(e)
			case e.game <= 0:
				stray++
			} // a game stored since the count is not checked
			return true
		}); err != nil {
			rows.Close()
			return 0, 0, err
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, 0, err
	}

	if err := a.loadAllTokens(ctx); err != nil {
		return 0, 0, err
	}
	toks := a.tokens(ctx)
	a.toks.mu.Lock()
	tokenIDs := make(map[string]uint32, len(a.toks.m))
	for id, t := range a.toks.m {
		tokenIDs[t] = id
	}
	a.toks.mu.Unlock()
	type job struct {
		id     int64
		plies  int
		winner sql.NullInt64
		packed []byte
		level  sql.NullInt64 // the analysis's, when analysed (analysis.go)
		sum    uint64
		err    error
	}
	jobs := make(chan *job, 64)
	results := make(chan *job, 64)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for j := range jobs {
				text, err := unpackRecord(j.packed, toks)
				var g *notation.Game
				if err == nil {
					g, err = replayText(fmt.Sprintf("game %d", j.id), text)
				}
				if err == nil {
					j.sum, err = gameSum(j.id, g, j.winner, tokenIDs)
				}
				if err == nil && j.level.Valid {
					err = a.checkAnalysis(ctx, j.id, int(j.level.Int64), g.Record)
				}
				j.err = err
				results <- j
			}
		})
	}
	readErr := make(chan error, 1)
	go func() {
		defer close(jobs)
		rows, err := a.db.QueryContext(ctx, `SELECT g.id, g.plies, g.winner, g.record, an.level FROM games g
			LEFT JOIN analysis an ON an.game_id = g.id WHERE g.id <= ? ORDER BY g.id`, maxID)
		if err != nil {
			readErr <- err
			return
		}
		defer rows.Close()
		for rows.Next() {
			j := &job{}
			if err := rows.Scan(&j.id, &j.plies, &j.winner, &j.packed, &j.level); err != nil {
				readErr <- err
				return
			}
			select {
			case jobs <- j:
			case <-ctx.Done():
				readErr <- ctx.Err()
				return
			}
		}
		readErr <- rows.Err()
	}()
	go func() {
		wg.Wait()
		close(results)
	}()
	bad := func(id int64, err error) {
		failed++
		if opt.Bad != nil {
			opt.Bad(id, err)
		}
	}
	last := time.Now()
	for j := range results {
		checked++
		if j.err != nil {
			bad(j.id, j.err)
		} else if n := counts[j.id]; int(n) != j.plies+1 {
			bad(j.id, fmt.Errorf("%w: %d positions indexed for a game of %d", ErrIndex, n, j.plies+1))
		} else if sums[j.id] != j.sum {
			bad(j.id, fmt.Errorf("%w: the indexed positions or moves are not the game's", ErrIndex))
		}
		counts[j.id] = -1 // seen
		if opt.Progress != nil && time.Since(last) > 100*time.Millisecond {
			last = time.Now()
			opt.Progress(checked, total)
		}
	}
	if err := <-readErr; err != nil {
		return checked, failed, err
	}
	for _, n := range counts {
		if n > 0 {
			stray += int(n)
		}
	}
	if stray > 0 {
		bad(0, fmt.Errorf("%w: %d entries of games not stored", ErrIndex, stray))
	}
	if err := verifyText(ctx, a.db, maxID, bad); err != nil {
		return checked, failed, err
	}
	if opt.Progress != nil {
		opt.Progress(checked, total)
	}
	return checked, failed, nil
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
	ins, err := newInserter(ctx, tx, nil)
	if err != nil {
		return st, err
	}
	defer ins.close()
	for _, q := range qs {
		outs := process(q.Source, chunk{text: []byte(q.Text), line: max(q.Line, 1), json: aprecord.IsJSON([]byte(q.Text))}, ins.moves)
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
	if err := ins.flush(ctx, maxLevel); err != nil {
		return st, err
	}
	return st, tx.Commit()
}
