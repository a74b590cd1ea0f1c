package pbem

// Computer analysis by mail (docs/mail.md, "Computer analysis"): after a
// game ends, a player writes analyze (in a reply to the game's last
// board, or analyze N), and gets the engine's analysis of every move: a
// short text with each player's worst moves and the better ones, the
// record with the analysis in it as an attachment (package analysis
// writes it there), and the graph of the estimates as a picture.
//
// An analysis takes minutes, so it is a queued job like a bot's move
// (package jobqueue), never done inside the handling of a mail. The mail that asks
// for an analysis not made yet queues a request (pbem_analysis_requests,
// one per game, level and seat) and the job (pbem_analysis_jobs, one per
// game and level); the daemon's analysis loop analyses the game with no
// transaction open, and then one transaction stores the analysis
// (pbem_analyses), queues the answer of every request waiting for it, and
// deletes the job and the requests. So a game is analysed once per level,
// whoever asks and however often; a request for one made already is
// answered from the stored analysis in its mail's own transaction; and a
// crash at any point loses or doubles no answer.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"icepost/analysis"
	"icepost/notation"
	"icepost/pbem/jobqueue"
	"icepost/pbem/mailread"
	"icepost/pbem/replytoken"
	"icepost/pbem/store"
)

// analysisJobs is the analyses' queue: a row of pbem_analysis_jobs for
// each game and level to analyse.
var analysisJobs = &jobqueue.Queue{Name: "analysis", Table: "pbem_analysis_jobs", Key: "level",
	Failed: "an analysis failed: it is tried again later"}

// finishedGame is the filter of analyze: a new mail without a number is
// about the sender's one finished game.
var finishedGame = &gameFilter{statuses: []string{statusFinished},
	none: "you have no finished game to analyze. Send \"games\" to list your games in progress; analyze one when it has ended."}

// analysisLevel is the engine level of the analyses by mail: the
// operator's [bots] analysis_level, or analysis.DefaultLevel.
func (b Bots) analysisLevel() int {
	if b.AnalysisLevel < 1 {
		return analysis.DefaultLevel
	}
	return b.AnalysisLevel
}

// analyze is the command analyze: the analysis of a finished game, sent
// when made (or at once when made already).
func (h *handling) analyze(r *request) error {
	g, seatNo := r.g, r.seat
	switch {
	case g.status == statusActive:
		return userErrorf(g, "Game %d is still going: analyze it after it ends (reply analyze to its last board).", g.id)
	case g.status != statusFinished:
		return userErrorf(nil, "game %d was %s, not played to its end: there is nothing to analyze.", g.id, g.status)
	case g.ply() == 0:
		return userErrorf(g, "Game %d ended before anyone moved: it has no moves to analyze.", g.id)
	}
	level := h.s.Bots.analysisLevel()
	rec, err := storedAnalysis(h.ctx, h.tx, g.id, level)
	if err != nil {
		return err
	}
	if rec != "" {
		m, err := h.analysisMail(g, seatNo, rec)
		if err != nil {
			return err
		}
		h.threadReply(m)
		h.send(m)
		return nil
	}
	res, err := h.tx.ExecContext(h.ctx, `INSERT OR IGNORE INTO pbem_analysis_requests (game_id, level, seat, created_at) VALUES (?, ?, ?, ?)`,
		g.id, level, seatNo, h.now.Unix())
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return h.analysisNote(g, seatNo, "You asked for this analysis already: it comes by mail as soon as it is made, once.")
	}
	if _, err := h.tx.ExecContext(h.ctx, `INSERT OR IGNORE INTO pbem_analysis_jobs (game_id, level, created_at, next_try_at) VALUES (?, ?, ?, ?)`,
		g.id, level, h.now.Unix(), h.now.Unix()); err != nil {
		return err
	}
	// No acknowledgement when the analysis starts at once: its answer is
	// the one mail. Behind other analyses, the wait may be long: a short
	// note says so.
	var ahead int
	if err := h.tx.QueryRowContext(h.ctx, `SELECT count(*) FROM pbem_analysis_jobs WHERE NOT (game_id = ? AND level = ?)`, g.id, level).Scan(&ahead); err != nil {
		return err
	}
	if ahead > 0 {
		return h.analysisNote(g, seatNo, fmt.Sprintf("Your analysis is queued behind %s of other games, made one after another: it comes by mail when it is done, which may take a while.", plural(ahead, "analysis", "analyses")))
	}
	return nil
}

// analysisNote is a short answer to analyze, in the game's thread.
func (h *handling) analysisNote(g *game, seatNo int, text string) error {
	m := h.threadMail(g, seatNo, replytoken.Token{})
	m.Text = text + "\n"
	m.Reply = true
	h.threadReply(m)
	h.send(m)
	return nil
}

// storedAnalysis is the analysed record of a game at a level, "" when
// none is stored.
func storedAnalysis(ctx context.Context, q store.Querier, id int64, level int) (string, error) {
	var rec string
	err := q.QueryRowContext(ctx, `SELECT record FROM pbem_analyses WHERE game_id = ? AND level = ?`, id, level).Scan(&rec)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return rec, err
}

// RunAnalyses makes the analyses that are due, oldest first, and returns
// how many it finished (as RunBots).
func (s *Handler) RunAnalyses(ctx context.Context, done func()) (int, error) {
	return s.runJobs(ctx, analysisJobs, s.runAnalysisJob, done)
}

// runAnalysisJob makes one analysis with no transaction open, then, in
// one transaction, stores it, answers every request waiting for it and
// deletes the job.
func (s *Handler) runAnalysisJob(ctx context.Context, j jobqueue.Job) error {
	g, err := s.readGame(ctx, j.Game)
	if err != nil && !errors.Is(err, errNoGame) {
		return err
	}
	if g == nil || g.status != statusFinished || g.ply() == 0 {
		return s.dropAnalysis(ctx, j) // nothing to analyse: the operator's doing
	}
	rec := g.record()
	log := s.log()
	began := time.Now()
	last := began
	// Seed 0, icepost analyze's and archive analyze's default: the same
	// game gets the same analysis by mail as there.
	rep, err := analysis.Analyze(ctx, rec, analysis.Options{Level: j.Key, Workers: s.Bots.Workers,
		Progress: func(done, total int) {
			if time.Since(last) >= 10*time.Second || done == 1 {
				last = time.Now()
				log.Debug("analysing", "game", g.id, "level", j.Key, "done", done, "moves", total)
			}
		}})
	if ctx.Err() != nil {
		// Stopped: the job stays, to be done again by the next process.
		return ctx.Err()
	}
	if err != nil {
		return err
	}
	took := time.Since(began)
	s.analyses.add(took)
	if err := analysis.Annotate(rec, rep); err != nil {
		return err
	}
	text := rec.String()

	defer s.writing()()
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("pbem: begin: %w", err)
	}
	defer tx.Rollback()
	if ok, err := analysisJobs.Take(ctx, tx, j); err != nil || !ok {
		return err // done by another process meanwhile
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO pbem_analyses (game_id, level, record, created_at) VALUES (?, ?, ?, ?)`,
		j.Game, j.Key, text, s.now().Unix()); err != nil {
		return err
	}
	if text, err = storedAnalysis(ctx, tx, j.Game, j.Key); err != nil {
		return err
	}
	if err := s.archiveAnalysis(ctx, tx, j.Game, text); err != nil {
		return err
	}
	h := s.newHandling(ctx, tx)
	now, err := h.loadGame(j.Game)
	if err != nil {
		return err
	}
	seats, err := store.Column[int](ctx, tx, `SELECT seat FROM pbem_analysis_requests WHERE game_id = ? AND level = ? ORDER BY created_at, seat`, j.Game, j.Key)
	if err != nil {
		return err
	}
	for _, seatNo := range seats {
		if seatNo < 1 || seatNo > len(now.seats) {
			continue
		}
		m, err := h.analysisMail(now, seatNo, text)
		if err != nil {
			return err
		}
		h.send(m)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM pbem_analysis_requests WHERE game_id = ? AND level = ?`, j.Game, j.Key); err != nil {
		return err
	}
	if err := h.flush(); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("pbem: commit: %w", err)
	}
	log.Info("analysis", "game", j.Game, "level", j.Key, "moves", len(rep.Moves), "took", took.Round(time.Millisecond), "answers", len(seats))
	return nil
}

// dropAnalysis deletes a job with nothing to analyse, and its requests.
func (s *Handler) dropAnalysis(ctx context.Context, j jobqueue.Job) error {
	defer s.writing()()
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := analysisJobs.Take(ctx, tx, j); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM pbem_analysis_requests WHERE game_id = ? AND level = ?`, j.Game, j.Key); err != nil {
		return err
	}
	return tx.Commit()
}

// madeAnalyses is how many analyses the server made since the process
// started, and their time in all. The operator's metrics do not show it
// (they show the queue); the tests read it (export_test.go).
func (s *Handler) madeAnalyses() (n uint64, total time.Duration) {
	return s.analyses.n.Load(), time.Duration(s.analyses.nanos.Load())
}

// namesGame says whether a command names the game it is about by its
// number (analyze 12): it is then about that game, whatever the reply
// token's.
func namesGame(c mailread.Command) bool {
	return c.Arg == mailread.OptionalGame && c.Number > 0
}

// AnalysisArchive is an Archiver that also takes the analyses players
// ask for by mail, into the game it archived when the game ended, so
// that the web site shows them and the archive's searches count them
// (cmd/icepost's adapter calls archive.AddAnalysis).
type AnalysisArchive interface {
	Archiver
	AddAnalysis(ctx context.Context, tx *sql.Tx, source string, rep *analysis.Report) error
}

// archiveAnalysis hands the analysed record of game id (text) to the
// archive, when it takes analyses, in the job's transaction. The
// archive's refusal is logged, not the job's failure.
func (s *Handler) archiveAnalysis(ctx context.Context, tx *sql.Tx, id int64, text string) error {
	aa, ok := s.Archive.(AnalysisArchive)
	if !ok {
		return nil
	}
	recs, errs := notation.Parse("", []byte(text))
	if len(errs) > 0 || len(recs) != 1 {
		return fmt.Errorf("pbem: the stored analysis of game %d does not parse: %v", id, errs)
	}
	rep, ok, err := analysis.Read(recs[0])
	if err != nil || !ok {
		return fmt.Errorf("pbem: the stored analysis of game %d does not read back (%v)", id, err)
	}
	if err := aa.AddAnalysis(ctx, tx, archiveSource(id), rep); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// The players' answers matter more than the archive's copy:
		// archive analyze can make that one again.
		s.log().Warn("the archive did not take the analysis of a game by mail; icepost archive analyze can make it", "game", id, "err", err)
	}
	return nil
}
