package archive

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"icepost/analysis"
	"icepost/engine"
	"icepost/notation"
)

// The computer analysis of stored games (icepost archive analyze). The
// analysis lives in the game's record, where package analysis writes it
// (analysis.Annotate: an [%eval] comment after each move, the marks as
// NAGs, the better move as a variation, the Annotator tag with the
// level), so that show, export and the web site give it with the game.
// What searches and the lists of players ask of it is kept beside the
// record, written in the same transaction (migration 8): the level of
// each analysed game (analysis) and each seat's moves, summed loss and
// marks (analysis_seats). The moves and the result never change, so the
// game keeps its dedupe key and its entries in the position index.

// AnalyzeOptions say how Analyze works. The zero value of each field
// means its default.
type AnalyzeOptions struct {
	// Level is the engine's level; default analysis.DefaultLevel.
	Level int
	// Workers is how many games are analysed at once, each on one
	// core; default the cores Go may use.
	Workers int
	// Seed makes the analyses repeatable: a game's analysis is
	// analysis.Analyze's with this Seed, so it is the one icepost
	// analyze -seed Seed makes of the same record, whichever worker
	// takes it.
	Seed uint64
	// Limit analyses at most this many games (0: every game selected).
	Limit int
	// Progress, when set, hears after each game how many of the
	// selected games are done.
	Progress func(done, total int)
	// Bad, when set, hears of each game that could not be analysed (a
	// record the rules now refuse, one that would grow past
	// MaxRecordBytes); the other games go on.
	Bad func(id int64, err error)
}

// AnalyzeStats says what Analyze did.
type AnalyzeStats struct {
	Selected int // games the query selected that had no analysis at the level
	Analysed int // analysed by the engine and stored
	// Read is the games whose record already held an analysis at the
	// level (a record imported analysed): stored from the record,
	// without searching.
	Read int
	// Skipped is the games another process analysed (or deleted) while
	// this one worked on them: nothing stored.
	Skipped int
	Failed  int // reported to Bad
	Moves   int // moves analysed by the engine
}

// ErrAnalysis: an analysed game's rows (analysis, analysis_seats) do not
// say what the analysis in its record says.
var ErrAnalysis = errors.New("the stored analysis does not match the record")

// errChanged: a game's record changed while it was analysed.
var errChanged = errors.New("the game's record changed while it was analysed; run archive analyze again")

// Analyze analyses, in place, the games q selects (its Limit and Offset
// are ignored; opt.Limit bounds the games) that have no analysis at
// opt.Level yet, oldest first, opt.Workers at a time. Each game is read,
// analysed (analysis.Analyze), and stored in one transaction: the
// annotated record and its rows in analysis and analysis_seats. A run
// that is stopped (its context ended, or the process killed) keeps every
// game it stored, and the next run takes up the others: no game is
// stored twice. A game whose record already holds an analysis at the
// level is stored from it without searching. The error is the first
// that is not one game's (the database's, or the context's).
func (a *Archive) Analyze(ctx context.Context, q Query, opt AnalyzeOptions) (AnalyzeStats, error) {
	var st AnalyzeStats
	if opt.Level == 0 {
		opt.Level = analysis.DefaultLevel
	}
	if opt.Level < 1 || opt.Level > engine.MaxLevel {
		return st, queryErr("level %d: levels go from 1 to %d", opt.Level, engine.MaxLevel)
	}
	if opt.Limit < 0 {
		return st, queryErr("limit is 0 or more")
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	q.Limit, q.Offset = 0, 0
	b, err := a.where(ctx, q)
	if err != nil {
		return st, err
	}
	b.add("NOT EXISTS (SELECT 1 FROM analysis an WHERE an.game_id = g.id AND an.level = ?)", opt.Level)
	ids, err := a.ids(ctx, "games g", b, "g.id", opt.Limit, 0)
	if err != nil {
		return st, err
	}
	st.Selected = len(ids)
	if len(ids) == 0 {
		return st, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan int64)
	var mu sync.Mutex
	var firstErr error
	done := 0
	var wg sync.WaitGroup
	for range min(opt.Workers, len(ids)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range work {
				res, moves, err := a.analyzeGame(ctx, id, opt)
				mu.Lock()
				switch {
				case err != nil && ctx.Err() != nil:
					if firstErr == nil {
						firstErr = ctx.Err()
					}
				case err != nil && res == gameFailed:
					st.Failed++
					if opt.Bad != nil {
						opt.Bad(id, err)
					}
				case err != nil:
					if firstErr == nil {
						firstErr = fmt.Errorf("game %d: %w", id, err)
					}
					cancel()
				case res == gameAnalysed:
					st.Analysed++
					st.Moves += moves
				case res == gameRead:
					st.Read++
				case res == gameSkipped:
					st.Skipped++
				}
				done++
				if opt.Progress != nil && firstErr == nil {
					opt.Progress(done, len(ids))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, id := range ids {
		select {
		case work <- id:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	return st, firstErr
}

// What became of one game.
type gameResult int

const (
	gameAnalysed gameResult = iota
	gameRead
	gameSkipped
	gameFailed // the game's own fault: reported, and the run goes on
)

// analyzeGame analyses and stores one game; moves is how many moves the
// engine analysed.
func (a *Archive) analyzeGame(ctx context.Context, id int64, opt AnalyzeOptions) (gameResult, int, error) {
	var packed []byte
	err := a.db.QueryRowContext(ctx, `SELECT record FROM games WHERE id = ?`, id).Scan(&packed)
	if errors.Is(err, sql.ErrNoRows) {
		return gameSkipped, 0, nil // deleted since it was selected
	}
	if err != nil {
		return 0, 0, err
	}
	rec, err := unpackOne(packed, a.tokens(ctx))
	if err != nil {
		return gameFailed, 0, err
	}
	res, moves := gameAnalysed, 0
	var rep *analysis.Report
	if analysis.Level(rec) == opt.Level {
		// Imported analysed: the record says it all.
		if r, ok, err := analysis.Read(rec); err == nil && ok {
			rep, res = r, gameRead
		}
	}
	if rep == nil {
		rep, err = analysis.Analyze(ctx, rec, analysis.Options{Level: opt.Level, Seed: opt.Seed, Workers: 1})
		if err != nil {
			if ctx.Err() != nil {
				return 0, 0, ctx.Err()
			}
			return gameFailed, 0, err
		}
		moves = len(rep.Moves)
	}
	out, rep, err := annotate(rec, rep)
	if err != nil {
		return gameFailed, 0, err
	}
	stored, err := a.storeAnalysis(ctx, id, packed, out, rec, rep)
	if err != nil {
		if errors.Is(err, errChanged) {
			return gameFailed, 0, err
		}
		return 0, 0, err
	}
	if !stored {
		return gameSkipped, 0, nil
	}
	return res, moves, nil
}

// seatAnalysis sums one seat's moves of a report.
type seatAnalysis struct {
	moves                          int
	loss                           float64
	inaccuracies, mistakes, blunds int
}

func seatSums(rep *analysis.Report) map[int]*seatAnalysis {
	out := map[int]*seatAnalysis{}
	for _, m := range rep.Moves {
		s := out[m.Seat]
		if s == nil {
			s = &seatAnalysis{}
			out[m.Seat] = s
		}
		s.moves++
		s.loss += m.Loss()
		switch m.Mark {
		case analysis.Inaccuracy:
			s.inaccuracies++
		case analysis.Mistake:
			s.mistakes++
		case analysis.Blunder:
			s.blunds++
		}
	}
	return out
}

// storeAnalysis writes game id's annotated record (packed) and its rows
// in one transaction, if the game still holds the record it was
// analysed from (was) and has no analysis at rep's level; it reports
// whether it stored.
func (a *Archive) storeAnalysis(ctx context.Context, id int64, was, packed []byte, rec *notation.Record, rep *analysis.Report) (bool, error) {
	stored := false
	err := a.write(ctx, func(ctx context.Context, tx *sql.Tx) error {
		var err error
		stored, err = storeAnalysisTx(ctx, tx, id, was, packed, rec, rep)
		return err
	})
	return stored, err
}

// storeAnalysisTx is storeAnalysis in the caller's transaction.
func storeAnalysisTx(ctx context.Context, tx *sql.Tx, id int64, was, packed []byte, rec *notation.Record, rep *analysis.Report) (bool, error) {
	var cur []byte
	var level sql.NullInt64
	err := tx.QueryRowContext(ctx, `SELECT g.record, an.level FROM games g LEFT JOIN analysis an ON an.game_id = g.id WHERE g.id = ?`, id).Scan(&cur, &level)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil // deleted meanwhile
	}
	if err != nil {
		return false, err
	}
	if level.Valid && int(level.Int64) == rep.Level {
		return false, nil // another process did it
	}
	if !bytes.Equal(cur, was) {
		return false, errChanged
	}
	if _, err := tx.ExecContext(ctx, `UPDATE games SET record = ? WHERE id = ?`, packed, id); err != nil {
		return false, err
	}
	// The tags table holds the record's tags that have no column:
	// the Annotator tag is one.
	if _, err := tx.ExecContext(ctx, `DELETE FROM tags WHERE game_id = ?`, id); err != nil {
		return false, err
	}
	for _, t := range rec.Tags {
		if columnTag(t.Name) {
			continue
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO tags(game_id, name, value) VALUES (?, ?, ?)`, id, t.Name, t.Value); err != nil {
			return false, err
		}
	}
	if err := insertAnalysis(ctx, tx, id, rep); err != nil {
		return false, err
	}
	return true, nil
}

// insertAnalysis writes, inside tx, the rows of game id's analysis rep:
// its level in analysis, each seat's sums in analysis_seats, in place of
// any it had.
func insertAnalysis(ctx context.Context, tx *sql.Tx, id int64, rep *analysis.Report) error {
	if _, err := tx.ExecContext(ctx, `INSERT INTO analysis(game_id, level, analysed) VALUES (?, ?, ?)
		ON CONFLICT(game_id) DO UPDATE SET level = excluded.level, analysed = excluded.analysed`, id, rep.Level, time.Now().Unix()); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM analysis_seats WHERE game_id = ?`, id); err != nil {
		return err
	}
	for seat, s := range seatSums(rep) {
		if _, err := tx.ExecContext(ctx, `INSERT INTO analysis_seats(game_id, seat, moves, loss, inaccuracies, mistakes, blunders)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, id, seat, s.moves, s.loss, s.inaccuracies, s.mistakes, s.blunds); err != nil {
			return err
		}
	}
	return nil
}

// AnalysisSummary is what the analysed games say of a player's moves.
type AnalysisSummary struct {
	Games int // analysed games
	Moves int // their moves
	// Loss is the average loss per move: how much a move lowered the
	// player's estimate, from 0 to 1 (the engine's chance of winning).
	Loss                             float64
	Inaccuracies, Mistakes, Blunders int
}

// analysisCols sums analysis_seats an over a player's seats.
const analysisCols = `count(an.game_id), coalesce(sum(an.moves), 0), coalesce(sum(an.loss), 0),
	coalesce(sum(an.inaccuracies), 0), coalesce(sum(an.mistakes), 0), coalesce(sum(an.blunders), 0)`

func scanAnalysis(sc interface{ Scan(...any) error }, lead ...any) (AnalysisSummary, error) {
	var s AnalysisSummary
	var sum float64
	if err := sc.Scan(append(lead, &s.Games, &s.Moves, &sum, &s.Inaccuracies, &s.Mistakes, &s.Blunders)...); err != nil {
		return s, err
	}
	if s.Moves > 0 {
		s.Loss = sum / float64(s.Moves)
	}
	return s, nil
}

// playerAnalysis is the analysis of player id's moves.
func (a *Archive) playerAnalysis(ctx context.Context, id int64) (AnalysisSummary, error) {
	return scanAnalysis(a.db.QueryRowContext(ctx, `SELECT `+analysisCols+`
		FROM seats s JOIN analysis_seats an ON an.game_id = s.game_id AND an.seat = s.seat WHERE s.player_id = ?`, id))
}

// PlayerAnalyses returns the analysis of every player with an analysed
// game, by name (as Players lists them).
func (a *Archive) PlayerAnalyses(ctx context.Context) (map[string]AnalysisSummary, error) {
	rows, err := a.db.QueryContext(ctx, `SELECT p.name, `+analysisCols+`
		FROM analysis_seats an JOIN seats s ON s.game_id = an.game_id AND s.seat = an.seat
		JOIN players p ON p.id = s.player_id GROUP BY p.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]AnalysisSummary{}
	for rows.Next() {
		var name string
		s, err := scanAnalysis(rows, &name)
		if err != nil {
			return nil, err
		}
		out[name] = s
	}
	return out, rows.Err()
}

// checkAnalysis checks that game id's rows, analysed at level, say what
// the analysis in its record (rec) says (VerifyWith).
func (a *Archive) checkAnalysis(ctx context.Context, id int64, level int, rec *notation.Record) error {
	rep, ok, err := analysis.Read(rec)
	if err != nil || !ok || rep.Level != level {
		return fmt.Errorf("%w: analysed at level %d, but the record holds no analysis at that level", ErrAnalysis, level)
	}
	want := seatSums(rep)
	rows, err := a.db.QueryContext(ctx, `SELECT seat, moves, loss, inaccuracies, mistakes, blunders FROM analysis_seats WHERE game_id = ?`, id)
	if err != nil {
		return err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var seat int
		var s seatAnalysis
		if err := rows.Scan(&seat, &s.moves, &s.loss, &s.inaccuracies, &s.mistakes, &s.blunds); err != nil {
			return err
		}
		n++
		w := want[seat]
		if w == nil || w.moves != s.moves || math.Abs(w.loss-s.loss) > 1e-9 || w.inaccuracies != s.inaccuracies || w.mistakes != s.mistakes || w.blunds != s.blunds {
			return fmt.Errorf("%w: seat %d", ErrAnalysis, seat)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if n != len(want) {
		return fmt.Errorf("%w: %d seats stored, %d in the record", ErrAnalysis, n, len(want))
	}
	return nil
}

// AddAnalysis stores, inside tx, an analysis made elsewhere (the mail
// daemon's, which a player asked for) into the archived game the
// daemon added as source (AddGame's Provenance.MailGame), so that the
// web site and the searches have it as if archive analyze had made it.
// It stores nothing, and says so, when the archive holds no such game
// or has its analysis at that level already.
func AddAnalysis(ctx context.Context, tx *sql.Tx, source string, rep *analysis.Report) (bool, error) {
	var id int64
	var packed []byte
	err := tx.QueryRowContext(ctx, `SELECT id, record FROM games WHERE mail_game = ? ORDER BY id LIMIT 1`, source).Scan(&id, &packed)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	rec, err := unpackOne(packed, tokensFrom(ctx, tx, &tokenCache{}))
	if err != nil {
		return false, fmt.Errorf("archive: game %d: %w", id, err)
	}
	if analysis.Level(rec) == rep.Level {
		return false, nil
	}
	out, read, err := annotate(rec, rep)
	if err != nil {
		return false, fmt.Errorf("archive: game %d: %w", id, err)
	}
	return storeAnalysisTx(ctx, tx, id, packed, out, rec, read)
}

// unpackOne reads a game's stored record (packed) back.
func unpackOne(packed []byte, tokens func(ids []uint32) ([]string, error)) (*notation.Record, error) {
	text, err := unpackRecord(packed, tokens)
	if err != nil {
		return nil, err
	}
	recs, errs := notation.Parse("", text)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	if len(recs) != 1 {
		return nil, fmt.Errorf("%d records where one was expected", len(recs))
	}
	return recs[0], nil
}

// annotate writes rep into rec (analysis.Annotate) and returns the record
// packed to store, and the report read back from it: the rows hold what
// the record says (its estimates have two decimals), so that they and a
// reader of the record agree.
func annotate(rec *notation.Record, rep *analysis.Report) ([]byte, *analysis.Report, error) {
	if err := analysis.Annotate(rec, rep); err != nil {
		return nil, nil, err
	}
	read, ok, err := analysis.Read(rec)
	if err != nil || !ok {
		return nil, nil, fmt.Errorf("the annotated record does not read back (%v)", err)
	}
	out := notation.AppendFormat(nil, rec)
	if len(out) > MaxRecordBytes {
		return nil, nil, fmt.Errorf("%w: annotated, the record would be %d bytes; the archive takes up to %d", ErrTooLarge, len(out), MaxRecordBytes)
	}
	return packRecord(out), read, nil
}
