// Package solve is icepost's exact search: it proves a forced win for
// the seat to move in a game of two seats, within one to three of its own
// moves, or says there is none. The engine (package engine) only
// estimates; a player trusts "wins in 2" only when it is proved, and an
// analysis must never show a position as won when a defence exists. The
// analysis (package analysis) asks it about the positions it judges, and
// the archive finds its puzzles with it: positions of real games where a
// player missed a forced win.
//
// It knows no game: it sees rules.State and plays into rules.Mutable,
// and asks a game's Mutable for FirstWin (a move that wins at once,
// found without playing any) where the game offers it, as the engine's
// playouts do. docs/engine.md, "Exact search", says how it searches and
// what it costs.
package solve

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"icepost/rules"
)

// MaxMoves is the longest win Win looks for, in the mover's own moves.
const MaxMoves = 3

// DefaultBudget is the number of positions a call of Win visits at most
// when it is given 0. Pikemen has the most moves of the games (100 to
// 200 a position); a search of its middle game for a win in three
// visits 3.5 million positions on average and 8 million at most
// (BenchmarkWin3: about 17 ns a position, so 0.06 s and 0.14 s), and
// this many keep a call under about 0.2 s on the machine of
// docs/engine.md ("Exact search"). The other games need far fewer (at
// most 250,000).
const DefaultBudget = 12_000_000

// Result is what Win found.
type Result struct {
	// In is the fewest own moves to a forced win (1..n); 0: none within n.
	In int
	// Line is the principal variation: the mover's move, the opponent's
	// best defence (the one that lasts longest), and so on up to the
	// winning move; nil when In is 0.
	Line []rules.Move
	// Exhausted: the budget ran out (or ctx ended) before an answer,
	// and nothing is claimed (In is 0, Line nil).
	Exhausted bool
}

// ErrSeats is the error of Win for a game of more than two seats.
var ErrSeats = errors.New("solve: only games of two seats can be solved")

// Win looks for a forced win for the seat to move in s within n of its
// own moves (n from 1 to MaxMoves): a move such that, whatever the
// opponent replies, the mover wins within n-1 more own moves. A win is
// the game over with the mover as its winner (Outcome().Winner); a draw,
// or the game's end by its own rules with the other seat ahead, is not
// one. It searches a win in one first, then two, then three, so In is the
// shortest.
//
// The mover's moves count, not the plies: a game that the opponent's
// reply ends with the mover the winner is won before the mover's next
// move, so within k+1 own moves when the reply follows its k-th (an
// IceSickle round's last jump may be forced so). Line then ends with
// that reply, and holds In-1 of the mover's moves.
//
// Two seats only (ErrSeats otherwise). budget bounds the positions
// visited (each move played counts one; 0 means DefaultBudget); when it
// runs out, or ctx ends, the result says Exhausted and claims nothing
// (the error is nil for the budget, ctx's error for ctx). Once a win is
// proved, finding its line (the longest defence at each reply) may
// visit as many again: a call visits at most twice the budget. A
// position whose game is over has no win: a zero Result.
//
// Win is safe to call from several goroutines; each call has its own
// positions.
func Win(ctx context.Context, s rules.State, n, budget int) (Result, error) {
	if err := checkArgs(s, n); err != nil {
		return Result{}, err
	}
	if s.Outcome().Over || s.ToMove() == 0 {
		return Result{}, nil
	}
	if budget <= 0 {
		budget = DefaultBudget
	}
	return newSearcher(ctx, s, budget).win(s, n)
}

// checkArgs is the check of Win's and WinWith's arguments.
func checkArgs(s rules.State, n int) error {
	if n < 1 || n > MaxMoves {
		return fmt.Errorf("solve: a win in %d moves asked; ask for 1 to %d", n, MaxMoves)
	}
	if seats := s.Options().Seats; seats != 2 {
		return fmt.Errorf("%w (this %s has %d)", ErrSeats, s.Game().Name(), seats)
	}
	return nil
}

// WinWith is Win with the mover's first move given: whether m, a legal
// move of s, forces a win within n own moves (m counted), In the fewest,
// and the line that begins with m. A puzzle's answer is checked with it:
// any move that still forces the win in the moves left is right, not
// only the one of the stored solution.
func WinWith(ctx context.Context, s rules.State, m rules.Move, n, budget int) (Result, error) {
	if err := checkArgs(s, n); err != nil {
		return Result{}, err
	}
	if s.Outcome().Over || s.ToMove() == 0 {
		return Result{}, nil
	}
	if !rules.IsLegal(s, m) {
		return Result{}, fmt.Errorf("solve: %s is not a legal move here", s.FormatMove(m))
	}
	if budget <= 0 {
		budget = DefaultBudget
	}
	x := newSearcher(ctx, s, budget)
	x.first, x.only = m, true
	return x.win(s, n)
}

// win is Win once its arguments are checked.
func (x *searcher) win(s rules.State, n int) (Result, error) {
	for k := 1; k <= n; k++ {
		x.reset(s)
		if x.or(0, k) {
			line := x.line(s, k)
			return Result{In: k, Line: line}, nil
		}
		if x.exhausted {
			return Result{Exhausted: true}, x.ctxErr
		}
	}
	return Result{}, nil
}

// A game's Mutable may offer these (the engine uses them too; see its
// winFinder and progresser).
type (
	winFinder  interface{ FirstWin(moves []rules.Move) int }
	progresser interface{ Progress(seat int) int }
)

// searcher is one call of Win: a Mutable and a move list a ply, the seat
// it solves for, what is left of the budget.
type searcher struct {
	ctx       context.Context
	mover     int
	left      int // positions still allowed
	exhausted bool
	ctxErr    error
	root      rules.Mutable
	stack     []rules.Mutable // stack[ply]: the position at that ply
	bufs      [][]rules.Move  // the moves listed at each ply
	order     [][]scored      // a mover's moves in the order tried, at each ply
	killer    []rules.Move    // at an opponent's ply, the reply that last refuted
	hasKiller []bool          // killer[ply] is set
	best      []rules.Move    // at a mover's ply, the move that won
	won       []rules.Move    // at a mover's ply, the move that won there last: tried first
	hasWon    []bool          // won[ply] is set
	trial     rules.Mutable   // where a win in one is looked for
	wf        bool            // the game's Mutable is a winFinder
	pg        bool            // the game's Mutable is a progresser
	visits    int             // since ctx was last asked
	budget    int             // Win's budget
	visited   int             // positions visited, for the benchmarks
	first     rules.Move      // WinWith's move, the only one at ply 0 while only is set
	only      bool
}

// scored is a move and what it gains the mover at once, to order by.
type scored struct {
	m    rules.Move
	gain int
}

func newSearcher(ctx context.Context, s rules.State, budget int) *searcher {
	x := &searcher{ctx: ctx, mover: s.ToMove(), left: budget, budget: budget, root: rules.NewMutable(s)}
	x.trial = rules.NewMutable(s)
	_, x.wf = x.trial.(winFinder)
	_, x.pg = x.trial.(progresser)
	return x
}

// reset puts s at ply 0.
func (x *searcher) reset(s rules.State) {
	x.root = rules.NewMutable(s)
	x.at(0).Set(x.root)
}

// at returns the Mutable of ply, growing the stack.
func (x *searcher) at(ply int) rules.Mutable {
	for len(x.stack) <= ply {
		x.stack = append(x.stack, rules.NewMutable(x.root.Copy()))
		x.bufs = append(x.bufs, make([]rules.Move, 0, 256))
		x.order = append(x.order, make([]scored, 0, 256))
		x.killer = append(x.killer, rules.Move{})
		x.hasKiller = append(x.hasKiller, false)
		x.best = append(x.best, rules.Move{})
		x.won = append(x.won, rules.Move{})
		x.hasWon = append(x.hasWon, false)
	}
	return x.stack[ply]
}

// visit counts one position; it reports false when the budget or ctx
// has run out.
func (x *searcher) visit() bool {
	if x.exhausted {
		return false
	}
	x.left--
	x.visits++
	x.visited++
	if x.left < 0 {
		x.exhausted = true
		return false
	}
	if x.visits >= 1<<12 {
		x.visits = 0
		if err := x.ctx.Err(); err != nil {
			x.exhausted, x.ctxErr = true, err
			return false
		}
	}
	return true
}

// value is what the mover's moves are ordered by in m: its progress
// (a game without scores that offers it), else its score.
func (x *searcher) value(m rules.Mutable) int {
	if x.pg {
		return m.(progresser).Progress(x.mover)
	}
	return m.Score(x.mover)
}

// or reports whether the mover, to move at ply, wins within k of its
// own moves (k >= 1); when it does, best[ply] is a move that does.
func (x *searcher) or(ply, k int) bool {
	cur := x.at(ply)
	ms := cur.Moves(x.bufs[ply][:0])
	if ply == 0 && x.only {
		ms = append(ms[:0], x.first) // WinWith: the one move given
	}
	x.bufs[ply] = ms
	if len(ms) == 0 {
		return false
	}
	// The move that won at this ply last is tried first: where the
	// mover wins, it is often the same threat whatever the opponent
	// replied before.
	if x.hasWon[ply] {
		if i := slices.Index(ms, x.won[ply]); i > 0 {
			ms[0], ms[i] = ms[i], ms[0]
		}
	}
	if x.wf {
		// The game finds a win at once without playing the moves;
		// counted as if it had played them.
		for range ms {
			if !x.visit() {
				return false
			}
		}
		if i := cur.(winFinder).FirstWin(ms); i >= 0 {
			x.setWon(ply, ms[i])
			return true
		}
		if k == 1 {
			return false
		}
	}
	// Play each move once: a win at once ends the search; the others
	// are ordered by what they gain the mover, the likeliest to force a
	// win first.
	before := x.value(cur)
	order := x.order[ply][:0]
	for _, m := range ms {
		if !x.visit() {
			return false
		}
		x.trial.Set(cur)
		x.trial.PlayLegal(m)
		if o := x.trial.Outcome(); o.Over {
			if o.Winner == x.mover {
				x.setWon(ply, m)
				return true
			}
			continue // lost or drawn at once
		}
		if k > 1 {
			order = append(order, scored{m, x.value(x.trial) - before})
		}
	}
	x.order[ply] = order
	if k == 1 {
		return false
	}
	slices.SortStableFunc(order, func(a, b scored) int { return b.gain - a.gain })
	if x.hasWon[ply] {
		if i := slices.IndexFunc(order, func(o scored) bool { return o.m == x.won[ply] }); i > 0 {
			w := order[i]
			copy(order[1:i+1], order[:i])
			order[0] = w
		}
	}
	child := x.at(ply + 1)
	cur = x.stack[ply]
	order = x.order[ply]
	for i := range order {
		m := order[i].m
		if !x.visit() {
			return false
		}
		child.Set(cur)
		child.PlayLegal(m)
		if x.after(ply+1, k-1) {
			x.setWon(ply, m)
			return true
		}
		if x.exhausted {
			return false
		}
	}
	return false
}

// setWon records m as the move that won at ply.
func (x *searcher) setWon(ply int, m rules.Move) {
	x.best[ply], x.won[ply], x.hasWon[ply] = m, m, true
}

// after reports whether the mover wins from the position at ply, not
// over at once, with k own moves left: its own move (the same seat may
// move twice in a row, as across IceSickle's rounds) or the opponent's.
func (x *searcher) after(ply, k int) bool {
	m := x.stack[ply]
	if o := m.Outcome(); o.Over {
		return o.Winner == x.mover
	}
	if m.ToMove() == x.mover {
		return k > 0 && x.or(ply, k)
	}
	return k > 0 && x.and(ply, k)
}

// and reports whether the mover wins within k own moves whatever the
// opponent, to move at ply, plays. The reply that refuted at this ply
// before is tried first: a quiet reply that refutes one move of the
// mover's often refutes the next.
func (x *searcher) and(ply, k int) bool {
	cur := x.at(ply)
	ms := cur.Moves(x.bufs[ply][:0])
	x.bufs[ply] = ms
	if len(ms) == 0 {
		return false // not over, yet no move: nothing to prove
	}
	if x.hasKiller[ply] {
		if i := slices.Index(ms, x.killer[ply]); i > 0 {
			ms[0], ms[i] = ms[i], ms[0]
		}
	}
	child := x.at(ply + 1)
	cur = x.stack[ply]
	ms = x.bufs[ply]
	for i := range ms {
		r := ms[i]
		if !x.visit() {
			return false
		}
		child.Set(cur)
		child.PlayLegal(r)
		if !x.after(ply+1, k) {
			if !x.exhausted {
				x.killer[ply], x.hasKiller[ply] = r, true
			}
			return false
		}
	}
	return true
}

// line is the principal variation of a win proved within k moves from
// s: the mover's winning move, the reply that holds out longest, and so
// on. Its searches have a budget of their own, Win's again (they redo
// the proof's searches at most, with shorter ones under them); should it
// run out, the line stops where it did.
func (x *searcher) line(s rules.State, k int) []rules.Move {
	x.left, x.exhausted = x.budget, false
	var line []rules.Move
	for len(line) < 4*MaxMoves {
		if o := s.Outcome(); o.Over {
			break
		}
		if s.ToMove() == x.mover {
			d, m, ok := x.shortest(s, k)
			if !ok {
				break
			}
			x.only = false // WinWith's move is the first only
			next, err := s.Play(m)
			if err != nil {
				break
			}
			line, s, k = append(line, m), next, d-1
			continue
		}
		// The opponent's reply that holds out longest: the most own
		// moves the mover then needs.
		var best rules.Move
		bestD, found := -1, false
		for _, r := range s.Moves(nil) {
			next, err := s.Play(r)
			if err != nil {
				continue
			}
			d := 0
			if !wins(next, x.mover) {
				var ok bool
				if d, ok = x.needs(next, k); !ok {
					return line // the budget ran out
				}
			}
			if d > bestD {
				best, bestD, found = r, d, true
			}
			if d >= k {
				break
			}
		}
		if !found {
			break
		}
		next, _ := s.Play(best)
		line, s = append(line, best), next
	}
	return line
}

// shortest returns the fewest own moves d <= k within which the mover,
// to move in s, wins, and the move that starts it.
func (x *searcher) shortest(s rules.State, k int) (int, rules.Move, bool) {
	for d := 1; d <= k; d++ {
		x.reset(s)
		if x.or(0, d) {
			return d, x.best[0], true
		}
		if x.exhausted {
			return 0, rules.Move{}, false
		}
	}
	return 0, rules.Move{}, false
}

// needs returns the fewest own moves d <= k within which the mover wins
// from s (not over; either seat to move).
func (x *searcher) needs(s rules.State, k int) (int, bool) {
	for d := 1; d <= k; d++ {
		x.reset(s)
		if x.after(0, d) {
			return d, true
		}
		if x.exhausted {
			return 0, false
		}
	}
	return 0, false
}

// wins reports whether s is over with seat the winner.
func wins(s rules.State, seat int) bool {
	o := s.Outcome()
	return o.Over && o.Winner == seat
}
