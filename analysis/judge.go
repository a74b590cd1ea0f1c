package analysis

import (
	"context"
	"math"

	"icepost/engine"
	"icepost/rules"
	"icepost/solve"
)

// LineLength is the most plies of the engine's line after a mistake: the
// better move and what follows it.
const LineLength = 5

// judge judges the moves of one game, in order, with one Player.
type judge struct {
	ctx   context.Context
	p     *engine.Player
	level int
	exact *exact // nil unless the game has two seats
}

// move analyses the move m played in s (the k-th position of the main
// line), which led to next.
//
// Before is the fresh value of the engine's move, After that of the move
// played (its exact result when the move ends the game), each the
// mover's mean result; when the move played scores at least as well, it
// is the engine's move (Before = After). Rules that do not trust the
// estimates come first:
//
//   - a move that misses a win in one is a blunder, with the win as the
//     better move (Before 1; After 1 too when the mover still wins at
//     once on its next turn whatever the others play: the win put off);
//   - with two seats, a move that misses a forced win in two or three
//     (package solve's proof) and keeps none is a blunder, with the win's
//     line;
//   - a move that lets the next seat win at once, or (two seats) walks
//     into a forced win of the next seat's, has After 0 and is at least a
//     mistake, the better move the engine's best of the moves that do
//     not; unless none does, or the better move is lost as well by the
//     estimates (below InaccuracyLoss): then no mark.
//
// Every estimate is rounded to two decimals, as the record writes it,
// before the mark is read from the loss: the mark agrees with the
// numbers shown. An estimate of 1.00 that no proof backs is shown 0.99.
func (j *judge) move(k int, s rules.State, m rules.Move, next rules.State) (Move, error) {
	mover := s.ToMove()
	a := Move{Seat: mover}
	b := float64(engine.Base(j.level))
	seq := engine.Sequential{Chunk: int(freshChunk * b), Min: int(freshMin * b), Max: int(freshMax * b), Decided: decided, Candidates: candidates}
	letsNext := lets(next)
	var safe []rules.Move
	if letsNext {
		safe = safeMoves(s)
		seq.Among = safe
	}
	jd, err := j.p.Measure(j.ctx, s, m, seq)
	if err != nil {
		return a, err
	}
	defer j.p.Keep(m)
	if err := j.ctx.Err(); err != nil && jd.Stopped {
		return a, err
	}
	best, before, after := jd.Best, jd.BestValue, jd.PlayedValue
	if math.IsNaN(after) {
		after = before
	}
	over := next.Outcome().Over
	if over {
		res := make([]float64, s.Options().Seats)
		engine.Result(next, res)
		after = res[mover-1]
	}
	there := j.exact.at(k + 1)
	walksIn := there.In >= 2 && next.ToMove() != mover
	if letsNext || walksIn {
		// The next seat wins at once, or forces a win: the mover's
		// result is 0, whatever playouts that miss the win say.
		after = 0
	}
	// proved says the mover's 1.00 after m is a proof, not an estimate.
	proved := func() bool {
		return over && wins(next, mover) || j.exact.keeps(k, m, true)
	}
	set := func(bf, af float64, provedBefore bool, provedAfter func() bool) {
		// After rounded, and Before as After plus the loss rounded once
		// (not the difference of two roundings, which would add a
		// hundredth of noise at each threshold).
		a.After = round2(af)
		if a.After == 1 && !provedAfter() {
			a.After = 0.99
		}
		a.Before = round2(a.After + round2(max(0, bf-af)))
		if a.Before == 1 && !provedBefore {
			a.Before = 0.99
		}
		if provedBefore && bf == 1 {
			// A proved win is 1.00, though After, an estimate near
			// it, is shown 0.99.
			a.Before = 1
		}
		a.Before = max(a.Before, a.After)
	}
	better := func(bm rules.Move, solved []rules.Move) {
		a.Better, a.BetterEval = s.FormatMove(bm), a.Before
		a.Line = j.line(s, bm, solved)
	}

	if win, ok := winInOne(s, mover); ok && !wins(next, mover) {
		if keepsWin(next, mover) {
			// The win is put off a turn, not lost: the mover's result
			// is 1 after either move, whatever playouts that miss the
			// win say. Still a blunder, as issue 32 asks ("always"):
			// a player wants to hear of the win they did not take.
			after = 1
		}
		set(1, after, true, func() bool { return after == 1 || proved() })
		a.Mark, a.WinIn = Blunder, 1
		better(win, []rules.Move{win})
		return a, nil
	}
	here := j.exact.at(k)
	if here.In >= 2 && j.exact.keeps(k, m, false) {
		// The move keeps a forced win: the best there is, whatever
		// the estimates say.
		set(1, 1, true, func() bool { return true })
		return a, nil
	}
	if here.In >= 2 {
		// A forced win missed, and none kept (keeps above; the move
		// the proof begins with keeps it): the proof says so.
		set(1, after, true, func() bool { return false })
		a.Mark, a.WinIn = Blunder, here.In
		better(here.Line[0], here.Line)
		return a, nil
	}
	if letsNext {
		// The better move is the engine's choice among the moves that
		// do not let the next seat win (Among).
		if len(safe) == 0 {
			a.Mark = Good // every move lets the next seat win
			return a, nil
		}
		return j.forced(a, s, best, before, here, better, set)
	}
	if walksIn {
		// The move walks into the next seat's forced win: proved lost.
		if lost, known := j.exact.losesAfter(s, best); best == m || known && lost {
			// The engine's move loses by force as well.
			a.Mark = Good
			return a, nil
		}
		return j.forced(a, s, best, before, here, better, set)
	}
	if best == m || after >= before {
		// The move played scores at least as well: it is the engine's.
		best, before = m, after
	}
	set(before, after, here.In > 0, proved)
	a.Mark = markFor(a.Loss())
	if a.Mark >= Mistake && best != m {
		better(best, nil)
	}
	return a, nil
}

// forced marks a move whose result is proved 0 (it lets the next seat
// win): at least a mistake, with best, the engine's move that does not,
// as the better one; no mark when best is lost as well by the estimates.
func (j *judge) forced(a Move, s rules.State, best rules.Move, before float64, here solve.Result, better func(rules.Move, []rules.Move), set func(float64, float64, bool, func() bool)) (Move, error) {
	set(before, 0, here.In > 0, func() bool { return false })
	if markFor(a.Loss()) == Good {
		// The move that does not lose at once loses as well (with 3 and
		// 4 seats, to another seat a little later): this one is no worse.
		return a, nil
	}
	a.Mark = max(markFor(a.Loss()), Mistake)
	better(best, nil)
	return a, nil
}

// line returns the better move bm's line as tokens, bm first: the
// solver's proof when it begins with bm, else the engine's principal
// variation, up to LineLength plies.
func (j *judge) line(s rules.State, bm rules.Move, solved []rules.Move) []string {
	moves := solved
	if len(moves) == 0 || moves[0] != bm {
		moves = j.p.Line(bm, LineLength)
	}
	var out []string
	for _, mv := range moves[:min(len(moves), LineLength)] {
		if s.Outcome().Over {
			break
		}
		next, err := s.Play(mv)
		if err != nil {
			break
		}
		out = append(out, s.FormatMove(mv))
		s = next
	}
	return out
}

// round2 is v with two decimals, as the record writes it, within 0..1.
func round2(v float64) float64 { return math.Round(min(max(v, 0), 1)*100) / 100 }

// exactBudget bounds the positions one question to the solver visits
// (solve.Win's budget): past it the solver claims nothing, and the
// analysis falls back on its estimates. Pikemen's middle game is the
// costly case (docs/engine.md, "Exact search").
const exactBudget = 1_000_000

// exact asks package solve about the positions of a game of two seats,
// each at most once. A nil *exact (three and four seats) knows nothing.
type exact struct {
	ctx    context.Context
	states []rules.State
	res    []*solve.Result
}

// newExact returns the solver's view of the positions of a main line,
// nil unless the game has two seats.
func newExact(ctx context.Context, states []rules.State) *exact {
	if len(states) == 0 || states[0].Options().Seats != 2 {
		return nil
	}
	return &exact{ctx: ctx, states: states, res: make([]*solve.Result, len(states))}
}

// at returns the forced win of the seat to move in the k-th position
// (In 0 when there is none, or when the solver could not tell).
func (x *exact) at(k int) solve.Result {
	if x == nil || k >= len(x.states) {
		return solve.Result{}
	}
	if x.res[k] == nil {
		r, err := solve.Win(x.ctx, x.states[k], solve.MaxMoves, exactBudget)
		if err != nil || r.Exhausted {
			r = solve.Result{Exhausted: true}
		}
		x.res[k] = &r
	}
	return *x.res[k]
}

// keeps reports whether m, played in the k-th position, still forces a
// win for its mover within solve.MaxMoves of its moves. When the solver
// cannot tell, it answers unknown.
func (x *exact) keeps(k int, m rules.Move, unknown bool) bool {
	if x == nil {
		return unknown
	}
	if r := x.at(k); r.In > 0 && r.Line[0] == m {
		return true
	}
	r, err := solve.WinWith(x.ctx, x.states[k], m, solve.MaxMoves, exactBudget)
	if err != nil || r.Exhausted {
		return unknown
	}
	return r.In > 0
}

// losesAfter reports whether m, played in s, lets the other seat force a
// win, and whether the solver could tell.
func (x *exact) losesAfter(s rules.State, m rules.Move) (lost, known bool) {
	if x == nil {
		return false, false
	}
	next, err := s.Play(m)
	if err != nil || next.Outcome().Over {
		return false, err == nil
	}
	if next.ToMove() == s.ToMove() {
		return false, false
	}
	r, err := solve.Win(x.ctx, next, solve.MaxMoves, exactBudget)
	if err != nil || r.Exhausted {
		return false, false
	}
	return r.In > 0, true
}
