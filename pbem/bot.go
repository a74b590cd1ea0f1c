package pbem

// The computer opponent by mail: a seat the server plays itself. A
// challenge names it with the word bot (and level=N); the seat has the
// server's own address, to which nothing is ever sent, and a name that
// says its level.
//
// The bot never thinks inside the handling of a mail. The transaction that
// makes a bot's turn come (a move, the start of the game, an undo, a draw
// offer) queues a job in pbem_bot_jobs, keyed by the game and its ply;
// the daemon's bot loop takes the due jobs oldest first, searches each
// position outside any transaction (within Bots.MoveTime), and then, in
// one transaction, checks that the game still stands at that ply, plays
// the move through the same path as a player's (played), queues the
// boards and deletes the job. A crash before that commit leaves the job to
// be done again; after it, the move and its boards are in, and the job is
// gone: nothing is lost or played twice.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"icepost/analysis"
	"icepost/engine"
	"icepost/pbem/jobqueue"
)

// botWord is the word of a challenge that names a seat the server plays.
const botWord = "bot"

// Bots are the operator's settings for the computer opponent: the [bots]
// table of the configuration file. The zero value is level 2 by default,
// five seconds a move, all cores.
type Bots struct {
	// Level is the level of a bot a challenge names without level=N:
	// 1 (a beginner) to engine.MaxLevel; default 2.
	Level int `toml:"level"`
	// MoveTime bounds one search: a move or the answer to a draw offer;
	// default 5s.
	MoveTime Duration `toml:"move_time"`
	// Workers is the number of cores one search uses; default all.
	// An analysis (analyze by mail) uses as many.
	Workers int `toml:"workers"`
	// AnalysisLevel is the engine level of the analyses players ask for
	// by mail (analyze): 1 to engine.MaxLevel; default
	// analysis.DefaultLevel.
	AnalysisLevel int `toml:"analysis_level"`
}

func (b Bots) level() int {
	if b.Level < 1 || b.Level > engine.MaxLevel {
		return 2
	}
	return b.Level
}

func (b Bots) moveTime() time.Duration {
	if b.MoveTime.Duration <= 0 {
		return 5 * time.Second
	}
	return b.MoveTime.Duration
}

// Check reports settings that cannot work.
func (b Bots) Check() error {
	if b.Level < 0 || b.Level > engine.MaxLevel {
		return fmt.Errorf("bots: level is from 1 to %d (0 for the default, 2)", engine.MaxLevel)
	}
	if b.AnalysisLevel < 0 || b.AnalysisLevel > engine.MaxLevel {
		return fmt.Errorf("bots: analysis_level is from 1 to %d (0 for the default, %d)", engine.MaxLevel, analysis.DefaultLevel)
	}
	if b.MoveTime.Duration < 0 {
		return fmt.Errorf("bots: move_time = %q: a duration here is positive (leave it out for the default, 5s)", b.MoveTime.Duration)
	}
	if b.Workers < 0 {
		return fmt.Errorf("bots: workers = %d: the cores a search uses is 1 or more, or 0 for all", b.Workers)
	}
	return nil
}

// botName is the player name of a bot's seat.
func botName(level int) string { return engine.Name(level) }

// parseLevel reads a challenge's level=N.
func parseLevel(value string) (int, error) {
	n, err := strconv.Atoi(value)
	if err != nil || n < 1 || n > engine.MaxLevel {
		return 0, userErrorf(nil, "level=%s: a bot's level is a whole number from 1 (a beginner) to %d (the strongest).", value, engine.MaxLevel)
	}
	return n, nil
}

// allAccepted says every seat has accepted the challenge.
func (g *game) allAccepted() bool {
	for _, st := range g.seats {
		if !st.accepted {
			return false
		}
	}
	return true
}

// botMask has bit i-1 set for each bot seat i.
func (g *game) botMask() int {
	mask := 0
	for i, st := range g.seats {
		if st.bot > 0 {
			mask |= 1 << i
		}
	}
	return mask
}

// botDue says a bot has something to do in g: its move, or an answer to
// a draw offer.
func (g *game) botDue() bool {
	if g.status != statusActive {
		return false
	}
	if g.seats[g.state().ToMove()-1].bot > 0 {
		return true
	}
	return g.drawOffers != 0 && g.botMask()&^g.drawOffers != 0
}

// queueBot queues the bot's job when a bot has something to do in g as
// saved; saveGame calls it, so every change that gives a bot the turn
// queues it in the same transaction.
func (h *handling) queueBot(g *game) error {
	if !g.botDue() {
		return nil
	}
	_, err := h.tx.ExecContext(h.ctx, `INSERT OR IGNORE INTO pbem_bot_jobs (game_id, ply, created_at, next_try_at) VALUES (?, ?, ?, ?)`,
		g.id, g.ply(), h.now.Unix(), h.now.Unix())
	return err
}

// botUndo is the number of moves a request to undo from seat takes back
// in a game where seat is the only person and bots answered its last
// move: that move and the bots' since (the bots agree at once). 0 when
// this is not such a case.
func (g *game) botUndo(seat int) int {
	if g.botMask() != (1<<len(g.seats)-1)&^(1<<(seat-1)) {
		return 0
	}
	k := g.ply()
	for k > 0 && g.seats[g.play.States[k-1].ToMove()-1].bot > 0 {
		k--
	}
	if k == g.ply() || k == 0 {
		return 0
	}
	return g.ply() - k + 1
}

// botJobs is the bots' queue: a row of pbem_bot_jobs for each game and
// ply at which a bot must move or answer a draw offer (package jobqueue).
var botJobs = &jobqueue.Queue{Name: "bots", Table: "pbem_bot_jobs", Key: "ply",
	Failed: "a bot's move failed: it is tried again later"}

// RunBots does the bots' work that is due, oldest first, one search each,
// and returns how many jobs it finished. It returns an error when a job
// could not be done for a reason that may pass (the database busy, ctx
// ended); a job that fails for another reason is tried again later, less
// and less often, and logged at Error level. It calls done, when not
// nil, after each job whose result is committed.
func (s *Handler) RunBots(ctx context.Context, done func()) (int, error) {
	return s.runJobs(ctx, botJobs, s.runBotJob, done)
}

// runBotJob does one job: a search, then its result in one transaction.
func (s *Handler) runBotJob(ctx context.Context, j jobqueue.Job) error {
	// The position, read in a transaction that writes nothing.
	g, err := s.readGame(ctx, j.Game)
	if err != nil && !errors.Is(err, errNoGame) {
		return err
	}
	if g == nil || g.ply() != j.Key || !g.botDue() {
		return botJobs.Drop(ctx, s.DB, j) // the game went on, or ended, since
	}
	mover := g.state().ToMove()
	level := g.seats[mover-1].bot
	if level == 0 {
		level = g.seats[firstBit(g.botMask()&^g.drawOffers)].bot
	}
	p := s.botTrees.take(g.id, level)
	if p == nil {
		p, err = engine.New(engine.Config{Level: level, Seed: uint64(g.id)*1_000_003 + uint64(g.ply()),
			MoveTime: s.Bots.moveTime(), Workers: s.Bots.Workers})
		if err != nil {
			return err
		}
	}
	began := time.Now()
	c, err := p.Move(ctx, g.state())
	if err != nil {
		return err
	}
	s.botSearches.add(time.Since(began))
	s.botTrees.give(g.id, level, p)

	defer s.writing()()
	tx, err := s.DB.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("pbem: begin: %w", err)
	}
	defer tx.Rollback()
	h := s.newHandling(ctx, tx)
	now, err := h.loadGame(j.Game)
	if err != nil {
		return err
	}
	if now.ply() != g.ply() || now.status != g.status || now.drawOffers != g.drawOffers {
		// A player acted while the bot thought: its result is for a
		// position that is gone. The job is done again (or dropped as
		// stale) on the next turn of the loop.
		return nil
	}
	if ok, err := botJobs.Take(ctx, tx, j); err != nil || !ok {
		return err // done by another process meanwhile
	}
	what, err := h.botAct(now, c)
	if err != nil {
		return err
	}
	if err := h.flush(); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("pbem: commit: %w", err)
	}
	s.log().Info("bot", "game", g.id, "ply", g.ply(), "did", what, "playouts", c.Playouts, "win", fmt.Sprintf("%.2f", c.Win))
	return nil
}

// botAct applies a search's result to g, inside the job's transaction:
// the answer to a draw offer, then the move when it is a bot's turn.
func (h *handling) botAct(g *game, c engine.Choice) (string, error) {
	var did []string
	if pending := g.botMask() &^ g.drawOffers; g.drawOffers != 0 && pending != 0 {
		accept, repeats := true, g.play.Repeats()
		for i := range g.seats {
			if pending&(1<<i) != 0 && !engine.AcceptsDraw(c.Values[i], len(g.seats), repeats) {
				accept = false
			}
		}
		name := g.seats[firstBit(pending)].name
		switch {
		case accept && g.drawOffers|pending == 1<<len(g.seats)-1:
			if err := g.endWith("agreement", 0, ""); err != nil {
				return "", err
			}
			if err := h.archive(g); err != nil {
				return "", err
			}
			if err := h.saveGame(g); err != nil {
				return "", err
			}
			h.sendBoards(g, fmt.Sprintf("%s accepted the draw.\n\n%s", name, g.endText()))
			return "accepted the draw", nil
		case accept:
			g.drawOffers |= pending
			did = append(did, "accepts the draw offer")
			if g.seats[g.state().ToMove()-1].bot == 0 {
				if err := h.saveGame(g); err != nil {
					return "", err
				}
				h.sendBoards(g, fmt.Sprintf("%s agrees to a draw. Waiting for the others.", name))
				return strings.Join(did, "; "), nil
			}
		default:
			did = append(did, "declines the draw offer")
			if g.seats[g.state().ToMove()-1].bot == 0 {
				g.drawOffers = 0
				if err := h.saveGame(g); err != nil {
					return "", err
				}
				h.sendBoards(g, fmt.Sprintf("%s declines the draw: it does not think it is losing. Play on. (It accepts one in a position that has come back %d times.)", name, engine.RepeatDraw))
				return strings.Join(did, "; "), nil
			}
		}
	}
	mover := g.state().ToMove()
	if g.seats[mover-1].bot == 0 {
		return strings.Join(did, "; "), nil
	}
	s := g.state()
	if err := g.play.Play(c.Move, ""); err != nil {
		return "", fmt.Errorf("the bot chose %s, which did not play: %w", s.FormatMove(c.Move), err)
	}
	if err := h.played(g, mover, s, c.Move, ""); err != nil {
		return "", err
	}
	return strings.Join(append(did, "played "+s.FormatMove(c.Move)), "; "), nil
}

// firstBit is the index of the lowest bit set in mask.
func firstBit(mask int) int {
	for i := 0; ; i++ {
		if mask&(1<<i) != 0 {
			return i
		}
	}
}

// readGame loads a game in a transaction that writes nothing.
func (s *Handler) readGame(ctx context.Context, id int64) (*game, error) {
	tx, err := s.DB.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("pbem: begin: %w", err)
	}
	defer tx.Rollback()
	return s.newHandling(ctx, tx).loadGame(id)
}

// searchTimes counts the bots' searches and their time, for the
// operator's metrics (Handler.BotSearches).
type searchTimes struct {
	n     atomic.Uint64
	nanos atomic.Int64
}

func (t *searchTimes) add(d time.Duration) {
	t.n.Add(1)
	t.nanos.Add(int64(d))
}

// BotSearches is how many searches the bots made since the process
// started, and their time in all: for pbem/monitor.
func (s *Handler) BotSearches() (n uint64, total time.Duration) {
	return s.botSearches.n.Load(), time.Duration(s.botSearches.nanos.Load())
}
