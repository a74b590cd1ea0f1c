package analysis

import (
	"context"
	"fmt"

	"icepost/engine"
	"icepost/notation"
	"icepost/rules"
)

// DefaultLevel is the engine level an analysis uses unless told.
const DefaultLevel = 3

// Options says how Analyze searches. The zero value of each field means
// its default.
type Options struct {
	Level   int    // the engine's level; default DefaultLevel
	Seed    uint64 // makes the analysis repeatable (engine.Config.Seed)
	Workers int    // trees grown at once; default the cores Go may use
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

// Analyze analyses rec's main line: it replays the record, searches each
// position before a move, and returns the Report Annotate writes. A move
// that misses a win in one is a blunder, with the winning move as the
// better one, whatever the estimates say.
func Analyze(ctx context.Context, rec *notation.Record, opt Options) (*Report, error) {
	if opt.Level == 0 {
		opt.Level = DefaultLevel
	}
	g, err := notation.Replay(rec)
	if err != nil {
		return nil, err
	}
	p, err := engine.New(engine.Config{Level: opt.Level, Seed: opt.Seed, Workers: opt.Workers})
	if err != nil {
		return nil, err
	}
	n := len(g.Moves)
	r := &Report{Level: opt.Level, Seats: g.Options.Seats, Moves: make([]Move, n)}
	// best[k] is the search of the position before move k+1; its Win is
	// the mover's estimate there.
	searches := make([]engine.Choice, n+1)
	for k := 0; k <= n; k++ {
		s := g.States[k]
		if s.Outcome().Over || s.ToMove() == 0 {
			continue
		}
		c, err := p.Move(ctx, s)
		if err != nil {
			return nil, fmt.Errorf("analysis: ply %d: %w", k+1, err)
		}
		searches[k] = c
		if k > 0 && opt.Progress != nil {
			opt.Progress(k, n)
		}
	}
	for k := range n {
		s, next := g.States[k], g.States[k+1]
		mover := s.ToMove()
		a := Move{Ply: k + 1, Seat: mover, Token: g.Token(k + 1), Before: searches[k].Win}
		a.After = estimate(next, mover, searches[k+1])
		a.Mark = markFor(a.Loss())
		if win, ok := winInOne(s, mover); ok && !wins(next, mover) {
			a.Mark, a.Better, a.BetterEval = Blunder, s.FormatMove(win), 1
		} else if a.Mark >= Mistake && searches[k].Move != g.Moves[k] {
			a.Better, a.BetterEval = s.FormatMove(searches[k].Move), searches[k].Win
		}
		r.Moves[k] = a
	}
	if opt.Progress != nil {
		opt.Progress(n, n)
	}
	return r, nil
}

// estimate is seat's estimate in s, which c searched (when s is not over).
func estimate(s rules.State, seat int, c engine.Choice) float64 {
	if s.Outcome().Over || s.ToMove() == 0 {
		r := make([]float64, s.Options().Seats)
		engine.Result(s, r)
		return r[seat-1]
	}
	if s.ToMove() == seat {
		return c.Win
	}
	if s.Options().Seats == 2 {
		return 1 - c.Win
	}
	return c.Values[seat-1]
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
