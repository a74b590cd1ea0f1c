package analysis

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"icepost/engine"
	"icepost/notation"
	"icepost/rules"
)

// DefaultLevel is the engine level an analysis uses unless told.
const DefaultLevel = 3

// Options says how Analyze searches. The zero value of each field means
// its default.
type Options struct {
	Level int    // the engine's level; default DefaultLevel
	Seed  uint64 // makes the analysis repeatable (engine.Config.Seed)
	// Workers is the number of trees grown at once, which share the
	// level's playouts; default the cores Go may use. Several analyses
	// at once (one a core) want 1 each.
	Workers int
	// Progress, when set, hears after each move analysed how many of
	// the total are done.
	Progress func(done, total int)
}

// The thresholds of the marks: the loss (Move.Loss) from which a move is
// an inaccuracy, a mistake, a blunder.
const (
	InaccuracyLoss = 0.05
	MistakeLoss    = 0.10
	BlunderLoss    = 0.20
)

// markFor is the mark of a loss.
func markFor(loss float64) Mark {
	switch {
	case loss >= BlunderLoss:
		return Blunder
	case loss >= MistakeLoss:
		return Mistake
	case loss >= InaccuracyLoss:
		return Inaccuracy
	}
	return Good
}

// Analyze analyses rec's main line: it replays the record and judges
// each move against the move the engine prefers in the same position
// (engine.Player.Judge: a search of the level's size, then as many fresh
// playouts through each of the two moves), one Player going down the
// game so that each search starts from the tree below the move played.
// Before is the fresh value of the engine's move, After that of the move
// played (its exact result when the move ends the game), each the
// mover's mean result. Two moves are marked whatever the estimates say:
// one that misses a win in one is a blunder, with the win as the better
// move (Before 1; After 1 too when the mover still wins at once on its
// next turn whatever the others play: the win put off a turn); one that
// lets the next seat win at once is at least a mistake (After 0), with a
// move that does not as the better one (Before its estimate), unless
// every legal move does or the ones that do not are lost as well by the
// estimates (below InaccuracyLoss): then no mark.
//
// The level's playouts are shared among the Workers (engine.Config.Shared):
// more cores make it faster, not deeper. Analyze is safe to call from
// several goroutines (each call has its own Player); with the same Seed,
// Level and Workers it returns the same report. It ends with ctx's error
// when ctx ends.
func Analyze(ctx context.Context, rec *notation.Record, opt Options) (*Report, error) {
	if opt.Level == 0 {
		opt.Level = DefaultLevel
	}
	g, err := notation.Replay(rec)
	if err != nil {
		return nil, err
	}
	// No time budget: a search cut short by the clock would make the
	// analysis depend on the machine's load (ctx still ends it).
	p, err := engine.New(engine.Config{Level: opt.Level, Seed: opt.Seed, Workers: opt.Workers, MoveTime: 24 * time.Hour, Shared: true})
	if err != nil {
		return nil, err
	}
	n := len(g.Moves)
	r := &Report{Level: opt.Level, Seats: g.Options.Seats, Moves: make([]Move, n)}
	for k := range n {
		a, err := judge(ctx, p, g.States[k], g.Moves[k], g.States[k+1])
		if err != nil {
			return nil, fmt.Errorf("analysis: move %d (%s): %w", k+1, g.Token(k+1), err)
		}
		a.Ply, a.Token = k+1, rec.Main.Moves[k].Token
		r.Moves[k] = a
		if opt.Progress != nil {
			opt.Progress(k+1, n)
		}
	}
	return r, nil
}

// judge analyses the move m played in s, which led to next.
func judge(ctx context.Context, p *engine.Player, s rules.State, m rules.Move, next rules.State) (Move, error) {
	mover := s.ToMove()
	a := Move{Seat: mover}
	j, err := p.Judge(ctx, s, m)
	if err != nil {
		return a, err
	}
	if err := ctx.Err(); err != nil && j.Stopped {
		return a, err
	}
	a.Before, a.After = j.BestValue, j.PlayedValue
	if math.IsNaN(a.After) {
		a.After = a.Before
	}
	if j.Best == m {
		a.Before = a.After
	}
	if o := next.Outcome(); o.Over {
		res := make([]float64, s.Options().Seats)
		engine.Result(next, res)
		a.After = res[mover-1]
		a.Before = max(a.Before, a.After)
	}
	// The better move's estimate: Before for the engine's own move (the
	// same fresh playouts), else the search's mean for it.
	better := func(b rules.Move) {
		a.Better, a.BetterEval = s.FormatMove(b), a.Before
		if i := slices.Index(j.Moves, b); b != j.Best && i >= 0 && !math.IsNaN(j.Values[i]) {
			a.BetterEval = j.Values[i]
		}
	}
	if win, ok := winInOne(s, mover); ok && !wins(next, mover) {
		if keepsWin(next, mover) {
			// The win is put off a turn, not lost: the mover's result
			// is 1 after either move, whatever playouts that miss the
			// win say. Still a blunder, as issue 32 asks ("always"):
			// a player wants to hear of the win they did not take.
			a.After = 1
		}
		a.Before = 1
		a.Mark = Blunder
		better(win)
		a.BetterEval = 1
		return a, nil
	}
	if lets(next) {
		// The next seat wins at once: the mover's result is 0, whatever
		// playouts that miss the win say.
		a.After = 0
		safe, ok := safeMove(s, j.Best)
		if ok {
			better(safe)
		}
		// What the mover could keep is what the safe move keeps (the
		// engine's own move may let the next seat win too).
		a.Before = 0
		if ok {
			a.Before = a.BetterEval
		}
		if !ok || a.BetterEval < InaccuracyLoss {
			// Every move lets the next seat win, or the ones that do not
			// lose as well (with 3 and 4 seats, to another seat): this
			// one is no worse.
			a.Mark, a.Better, a.BetterEval = Good, "", 0
			return a, nil
		}
		a.Mark = max(markFor(a.Loss()), Mistake)
		return a, nil
	}
	a.Mark = markFor(a.Loss())
	if a.Mark >= Mistake && j.Best != m {
		better(j.Best)
	}
	return a, nil
}

// lets reports whether the seat to move in s can win at once.
func lets(s rules.State) bool {
	if s.Outcome().Over || s.ToMove() == 0 {
		return false
	}
	_, ok := winInOne(s, s.ToMove())
	return ok
}

// safeMove returns a move of s after which the next seat cannot win at
// once: pref when it is one, else the first legal move that is, and false
// when every move lets the next seat win.
func safeMove(s rules.State, pref rules.Move) (rules.Move, bool) {
	try := func(m rules.Move) bool {
		next, err := s.Play(m)
		return err == nil && !lets(next)
	}
	if try(pref) {
		return pref, true
	}
	for _, m := range s.Moves(nil) {
		if m != pref && try(m) {
			return m, true
		}
	}
	return rules.Move{}, false
}

// keepBudget bounds the positions keepsWin looks at: two seats of
// Pikemen, the most moves, need about 120 replies times 120 moves; with
// three and four seats it gives up (a few tenths of a second).
const keepBudget = 20_000

// keepsWin reports whether seat, having just moved into s, wins at once
// on its next turn whatever the other seats play in between: a missed
// win in one that only puts the win off a turn. It says false when it
// cannot tell within keepBudget positions (three and four seats).
func keepsWin(s rules.State, seat int) bool {
	budget := keepBudget
	var keeps func(s rules.State) bool
	keeps = func(s rules.State) bool {
		if o := s.Outcome(); o.Over {
			return o.Winner == seat
		}
		ms := s.Moves(nil)
		if budget -= len(ms); budget < 0 {
			return false
		}
		if s.ToMove() == seat {
			_, ok := winInOne(s, seat)
			return ok
		}
		for _, m := range ms {
			next, err := s.Play(m)
			if err != nil || !keeps(next) {
				return false
			}
		}
		return true
	}
	return keeps(s)
}

// winInOne returns a legal move of s that wins it for seat at once.
func winInOne(s rules.State, seat int) (rules.Move, bool) {
	for _, m := range s.Moves(nil) {
		next, err := s.Play(m)
		if err == nil && wins(next, seat) {
			return m, true
		}
	}
	return rules.Move{}, false
}

// wins reports whether s is over with seat the winner.
func wins(s rules.State, seat int) bool {
	o := s.Outcome()
	return o.Over && o.Winner == seat
}

// MissedWin reports whether m, the analysis of a move played in s, is a
// win in one missed: its better move, played in s, wins the game for
// the mover at once. Such a move is always a blunder, even when the win
// was only put off a turn (After 1), which the estimates alone would not
// say; the displays say it in words.
func MissedWin(s rules.State, m Move) bool {
	if m.Mark != Blunder || m.Better == "" || s.ToMove() != m.Seat {
		return false
	}
	next, _, err := rules.Play(s, m.Better)
	return err == nil && wins(next, m.Seat)
}
