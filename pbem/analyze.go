package pbem

// Computer analysis by mail (docs/mail.md, "Computer analysis"): after a
// game ends, a player writes analyze (in a reply to the game's last
// board, or analyze N), and gets the engine's analysis of every move: a
// short text with each player's worst moves and the better ones, the
// record with the analysis in it as an attachment (package analysis
// writes it there), and the graph of the estimates as a picture.
//
// An analysis takes minutes, so it is a queued job like a bot's move
// (jobs.go), never done inside the handling of a mail. The mail that asks
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
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"icepost/analysis"
	"icepost/notation"
	"icepost/pbem/mailread"
	"icepost/render"
)

// analysisJobs is the analyses' queue: a row of pbem_analysis_jobs for
// each game and level to analyse.
var analysisJobs = &jobQueue{name: "analysis", table: "pbem_analysis_jobs", key: "level",
	failed: "an analysis failed: it is tried again later"}

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
	m := h.threadMail(g, seatNo, replyToken{})
	m.Text = text + "\n"
	m.Reply = true
	h.threadReply(m)
	h.send(m)
	return nil
}

// storedAnalysis is the analysed record of a game at a level, "" when
// none is stored.
func storedAnalysis(ctx context.Context, q querier, id int64, level int) (string, error) {
	var rec string
	err := q.QueryRowContext(ctx, `SELECT record FROM pbem_analyses WHERE game_id = ? AND level = ?`, id, level).Scan(&rec)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return rec, err
}

// RunAnalyses makes the analyses that are due, oldest first, and returns
// how many it finished (as RunBots).
func (s *Server) RunAnalyses(ctx context.Context) (int, error) {
	return s.runJobs(ctx, analysisJobs, s.runAnalysisJob, nil)
}

// runAnalysisJob makes one analysis with no transaction open, then, in
// one transaction, stores it, answers every request waiting for it and
// deletes the job.
func (s *Server) runAnalysisJob(ctx context.Context, j job) error {
	g, err := s.readGame(ctx, j.game)
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
	rep, err := analysis.Analyze(ctx, rec, analysis.Options{Level: j.key, Seed: uint64(g.id), Workers: s.Bots.Workers,
		Progress: func(done, total int) {
			if time.Since(last) >= 10*time.Second || done == 1 {
				last = time.Now()
				log.Debug("analysing", "game", g.id, "level", j.key, "done", done, "moves", total)
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
	if ok, err := takeJob(ctx, tx, analysisJobs, j); err != nil || !ok {
		return err // done by another process meanwhile
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO pbem_analyses (game_id, level, record, created_at) VALUES (?, ?, ?, ?)`,
		j.game, j.key, text, s.now().Unix()); err != nil {
		return err
	}
	if text, err = storedAnalysis(ctx, tx, j.game, j.key); err != nil {
		return err
	}
	if err := s.archiveAnalysis(ctx, tx, j.game, text); err != nil {
		return err
	}
	h := s.newHandling(ctx, tx)
	now, err := h.loadGame(j.game)
	if err != nil {
		return err
	}
	seats, err := column[int](ctx, tx, `SELECT seat FROM pbem_analysis_requests WHERE game_id = ? AND level = ? ORDER BY created_at, seat`, j.game, j.key)
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
	if _, err := tx.ExecContext(ctx, `DELETE FROM pbem_analysis_requests WHERE game_id = ? AND level = ?`, j.game, j.key); err != nil {
		return err
	}
	if err := h.flush(); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("pbem: commit: %w", err)
	}
	log.Info("analysis", "game", j.game, "level", j.key, "moves", len(rep.Moves), "took", took.Round(time.Millisecond), "answers", len(seats))
	return nil
}

// dropAnalysis deletes a job with nothing to analyse, and its requests.
func (s *Server) dropAnalysis(ctx context.Context, j job) error {
	defer s.writing()()
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := takeJob(ctx, tx, analysisJobs, j); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM pbem_analysis_requests WHERE game_id = ? AND level = ?`, j.game, j.key); err != nil {
		return err
	}
	return tx.Commit()
}

// analysisLoop makes the analyses until ctx ends: when a mail may have
// queued one (wakeAnalyses), and every poll otherwise. It is a loop of
// its own, beside the bots', so that an analysis of minutes holds up no
// bot's move.
func (d *Daemon) analysisLoop(ctx context.Context) {
	d.jobLoop(ctx, analysisJobs, d.Server.runAnalysisJob, d.analysisWake)
}

// wakeAnalyses tells the analysis loop that a job may have been queued.
func (d *Daemon) wakeAnalyses() { wakeUp(d.analysisWake) }

// Analyses is how many analyses the server made since the process
// started, and their time in all: for the operator's metrics.
func (s *Server) Analyses() (n uint64, total time.Duration) {
	return s.analyses.n.Load(), time.Duration(s.analyses.nanos.Load())
}

// analysisMail is the answer to analyze: the game's analysis for a seat,
// from the analysed record rec.
func (h *handling) analysisMail(g *game, seatNo int, rec string) (*outMail, error) {
	recs, errs := notation.Parse(fmt.Sprintf("analysis of game %d", g.id), []byte(rec))
	if len(errs) > 0 || len(recs) != 1 {
		return nil, fmt.Errorf("pbem: the stored analysis of game %d does not read: %w", g.id, errs.Err())
	}
	rep, ok, err := analysis.Read(recs[0])
	if err != nil {
		return nil, fmt.Errorf("pbem: the stored analysis of game %d: %w", g.id, err)
	}
	if !ok {
		return nil, fmt.Errorf("pbem: the stored record of game %d holds no analysis", g.id)
	}
	chart := evalChart(rep)
	var b strings.Builder
	fmt.Fprintf(&b, "Computer analysis of %s\n", g.title())
	for i, st := range g.seats {
		fmt.Fprintf(&b, "  seat %d: %s\n", i+1, st.name)
	}
	fmt.Fprintf(&b, "\n%s\n\n", g.endText())
	if rep.Seats == 2 {
		fmt.Fprintf(&b, "%s's chance of winning after each move, as the engine (level %d) estimates it: above the middle line, %s is ahead.\n\n",
			g.seats[0].name, rep.Level, g.seats[0].name)
	} else {
		fmt.Fprintf(&b, "Each player's expected share of the result after each of their moves, as the engine (level %d) estimates it.\n\n", rep.Level)
	}
	b.WriteString(chart)
	b.WriteString("\n")
	b.WriteString(worstMoves(g, rep))
	fmt.Fprintf(&b, "The whole game is attached (%s), with the estimate before and after every move as a comment ([%%before 0.71] [%%eval 0.63]), the marks ?! (an inaccuracy), ? (a mistake) and ?? (a blunder), and the engine's move as a variation after each mistake. Any reader of the record format skips what it does not know; icepost show, validate and fmt read it all.\n",
		analysisFile(g))
	m := h.threadMail(g, seatNo, replyToken{})
	m.Text = b.String()
	m.Reply = true
	m.Attachments = []attachment{{Name: analysisFile(g), Type: "text/plain", Data: []byte(rec)}}
	m.Picture = h.evalPicture(g, rep, chart)
	return m, nil
}

// analysisFile is the name of the analysed record's attachment.
func analysisFile(g *game) string { return fmt.Sprintf("game-%d-analysis.txt", g.id) }

// worstMoves lists, for each seat of a person or a bot, its average loss
// a move and its three worst marked moves, with the engine's better move.
func worstMoves(g *game, rep *analysis.Report) string {
	var b strings.Builder
	marked := rep.Marked()
	for seatNo := 1; seatNo <= len(g.seats); seatNo++ {
		mean, n := rep.MeanLoss(seatNo)
		if n == 0 {
			continue
		}
		var own []analysis.Move
		for _, m := range marked {
			if m.Seat == seatNo {
				own = append(own, m)
			}
		}
		fmt.Fprintf(&b, "%s (seat %d): %s, %d of them marked; on average a move lost %.2f.\n",
			g.seats[seatNo-1].name, seatNo, plural(n, "move", "moves"), len(own), mean)
		if len(own) > 3 {
			own = own[:3]
		}
		for _, m := range own {
			article := "a"
			if m.Mark == analysis.Inaccuracy {
				article = "an"
			}
			line := fmt.Sprintf("  move %d, %s%s  %s %s: %.2f before, %.2f after", m.Ply, m.Token, m.Mark.Symbol(), article, m.Mark, m.Before, m.After)
			switch {
			case m.Ply-1 < len(g.play.States) && analysis.MissedWin(g.play.States[m.Ply-1], m):
				line = fmt.Sprintf("  move %d, %s%s  %s %s: it missed a win, %s wins at once", m.Ply, m.Token, m.Mark.Symbol(), article, m.Mark, m.Better)
			case m.Better != "":
				line += fmt.Sprintf("; better %s (%.2f)", m.Better, m.BetterEval)
			}
			b.WriteString(line + "\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Chart's size: its plot is at most chartWidth columns (up to four a
// move in a short game, several moves a column in a long one) and
// chartHeight rows.
const (
	chartWidth  = 64
	chartHeight = 9
)

// evalChart draws the estimates as text, for the text part (the HTML
// shows the picture in its place): with two seats, the first seat's
// chance after each move (1 at the top, 0 at the bottom, a line in the
// middle); with more, the mover's share after each move, drawn with its
// seat's number. Code lines (mailbody.go), each at most 78 characters.
func evalChart(rep *analysis.Report) string {
	n := len(rep.Moves)
	per := max(1, min(4, chartWidth/max(n, 1))) // columns a move
	cols := min(n*per, chartWidth)
	grid := make([][]byte, chartHeight)
	for r := range grid {
		grid[r] = []byte(strings.Repeat(" ", cols))
		if rep.Seats == 2 && r == chartHeight/2 {
			grid[r] = []byte(strings.Repeat("-", cols))
		}
	}
	for c := range cols {
		// A column shows its move, or the last of the moves it covers.
		k := c / per
		if n > chartWidth {
			k = (c+1)*n/cols - 1
		}
		m := rep.Moves[min(k, n-1)]
		v, mark := m.After, byte('0'+m.Seat)
		if rep.Seats == 2 {
			if m.Seat != 1 {
				v = 1 - v
			}
			mark = '*'
		}
		row := chartHeight - 1 - int(v*float64(chartHeight-1)+0.5)
		grid[min(max(row, 0), chartHeight-1)][c] = mark
	}
	var b strings.Builder
	for r, line := range grid {
		label := "    "
		switch r {
		case 0:
			label = "1.0 "
		case chartHeight / 2:
			label = "0.5 "
		case chartHeight - 1:
			label = "0.0 "
		}
		fmt.Fprintf(&b, "    %s|%s\n", label, strings.TrimRight(string(line), " "))
	}
	scale := ""
	if n > chartWidth {
		scale = fmt.Sprintf(", about %d a column", (n+cols-1)/cols)
	}
	if rep.Seats > 2 {
		scale += ", drawn with the mover's seat"
	}
	fmt.Fprintf(&b, "        +%s\n         moves 1 to %d%s\n", strings.Repeat("-", cols), n, scale)
	return b.String()
}

// plural is n and a noun, singular or plural.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// namesGame says whether a command names the game it is about by its
// number (analyze 12): it is then about that game, whatever the reply
// token's.
func namesGame(c mailread.Command) bool {
	return c.Arg == mailread.OptionalGame && c.Number > 0
}

// evalPicture is the graph of the estimates as a PNG (render.EvalGraph),
// which the HTML part shows in place of chart, the text part's drawing of
// it. A graph that fails to draw leaves the text chart in the HTML.
func (h *handling) evalPicture(g *game, rep *analysis.Report, chart string) *mailPicture {
	pic := &mailPicture{Board: chart}
	graph := render.EvalGraph{Seats: rep.Seats, Title: fmt.Sprintf("%s #%d: computer analysis, level %d", g.gameName(), g.id, rep.Level)}
	for _, st := range g.seats {
		graph.Names = append(graph.Names, st.name)
	}
	for _, m := range rep.Moves {
		graph.Points = append(graph.Points, render.EvalPoint{Ply: m.Ply, Seat: m.Seat, Value: m.After, Mark: int(m.Mark)})
	}
	var b bytes.Buffer
	if err := graph.PNG(&b); err != nil {
		h.s.log().Error("drawing an analysis graph failed: the mail shows the text chart", "game", g.id, "err", err)
		return pic
	}
	counts := [4]int{}
	for _, m := range rep.Moves {
		counts[m.Mark]++
	}
	pic.Alt = fmt.Sprintf("A graph of the engine's estimates after each of the %d moves: %d inaccuracies, %d mistakes, %d blunders.",
		len(rep.Moves), counts[analysis.Inaccuracy], counts[analysis.Mistake], counts[analysis.Blunder])
	pic.Image = inlineImage{ContentID: fmt.Sprintf("analysis-%d-%d.%s@%s", g.id, rep.Level, randomID(), h.s.domain()),
		Name: fmt.Sprintf("game-%d-analysis.png", g.id), Type: "image/png", Data: b.Bytes()}
	return pic
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
func (s *Server) archiveAnalysis(ctx context.Context, tx *sql.Tx, id int64, text string) error {
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
