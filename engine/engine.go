// Package engine is icepost's computer opponent. It plays every game
// through the rules.State interface alone (the legal moves, playing one,
// the outcome and the scores), so that a new game gets an opponent the day
// it is registered.
//
// The search is Monte Carlo tree search with the UCT rule: from the
// position to move, it grows a tree one node per iteration, choosing
// children by their results so far plus a bonus for the little-tried,
// plays the rest of the game from the new node, taking what is offered
// (cut off after a bound, and then judged by the scores where the game
// keeps scores), and counts the result for the seat that moved into each
// node on the way back. Games of three and four seats are searched the
// same way: each node keeps the results of the seat that moved into it
// (max^n in the tree).
// A game may tell the playouts more than rules.State does (progresser,
// winFinder), or list its moves for them faster (moveIndexer); nothing
// else in the engine knows one game from another.
//
// Strength comes from the number of playouts: a Level sets how many, a
// time budget and a context bound how long, and MaxNodes bounds memory
// (past it the tree stops growing and the iterations only refine the
// nodes it has). On several cores each core grows a tree of its own from
// its own seed and the root's visit counts are summed (root
// parallelization: no locks, and with a seed the same moves come out
// whenever the time budget is not what stopped the search). A Player
// keeps its trees between moves and reuses the part below the position it
// is asked about next. Judge is the analyst's search (package analysis):
// the move played in a position against the move the engine prefers.
package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"icepost/rules"
)

// Levels go from 1, a beginner, to MaxLevel, the strongest.
const MaxLevel = 5

// The search's size per level, per core: at least base[level] playouts,
// and at least perMove[level] for each legal move, so that a position with
// many moves (Pikemen's opening has 120) is not judged from one playout a
// move. Each level plays four times the playouts of the one below it.
var (
	base    = [MaxLevel + 1]int{0, 60, 240, 960, 3840, 15360}
	perMove = [MaxLevel + 1]int{0, 6, 24, 96, 384, 1536}
)

// Base is a level's base number of playouts (docs/engine.md, "Levels"),
// 0 for a level outside 1..MaxLevel: what Judge runs through each of the
// two moves it compares.
func Base(level int) int {
	if level < 1 || level > MaxLevel {
		return 0
	}
	return base[level]
}

// iterations is the number of playouts per tree for a level and a position
// with moves legal moves.
func iterations(level, moves int) int { return max(base[level], perMove[level]*moves) }

// Config says how a Player searches. The zero value of each field but
// Level means its default.
type Config struct {
	// Level is 1 (a beginner) to MaxLevel (the strongest).
	Level int
	// Seed makes the moves repeatable: the same seed, level, workers and
	// positions give the same moves, unless MoveTime or the context cut a
	// search short.
	Seed uint64
	// MoveTime bounds the time one move may take; default 5 seconds.
	MoveTime time.Duration
	// MaxNodes bounds each tree's size; default 200,000 nodes.
	MaxNodes int
	// Workers is the number of trees grown at once; default the number of
	// cores Go may use (GOMAXPROCS).
	Workers int
	// Trees is the number of trees, each from its own seed; default
	// Workers. With more trees than Workers the Workers take them in
	// turn. Each tree's search depends only on its seed and the
	// positions, so with Trees set (and no time budget cutting a search
	// short) any number of Workers gives the same moves and values: the
	// analyst sets it, that an analysis be the same on every machine.
	Trees int
	// Shared makes the level's iterations one budget for all the trees
	// together (each grows its share), counting the playouts a reused
	// tree already holds toward it, where by default each tree adds the
	// level's number: a search of the same size on any number of cores,
	// faster with more, not deeper. The analyst (package analysis)
	// searches so, that an analysis at a level is the same work on
	// every machine; a player does not, as more cores make it stronger.
	Shared bool
	// MaxIterations, when set, caps a search's iterations (all trees
	// with Shared) below the level's number for a position with many
	// moves: the analyst's search only proposes the moves its fresh
	// samples then judge (Sequential.Candidates).
	MaxIterations int
	// Cutoff is how many plies a playout plays before the position is
	// judged by its scores; default 30 in games with scores, 100 in the
	// others (docs/engine.md says why).
	Cutoff int
}

// ErrLevel is returned for a level outside 1..MaxLevel.
var ErrLevel = errors.New("engine: no such level")

// Player chooses moves. It keeps its trees between moves, so a Player
// belongs to one game; it is not safe for use by several goroutines.
type Player struct {
	cfg   Config
	trees []*tree
}

// New returns a Player for cfg.
func New(cfg Config) (*Player, error) {
	if cfg.Level < 1 || cfg.Level > MaxLevel {
		return nil, fmt.Errorf("%w: level %d (levels go from 1 to %d)", ErrLevel, cfg.Level, MaxLevel)
	}
	if cfg.MoveTime <= 0 {
		cfg.MoveTime = 5 * time.Second
	}
	if cfg.MaxNodes <= 0 {
		cfg.MaxNodes = 200_000
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.Trees <= 0 {
		cfg.Trees = cfg.Workers
	}
	p := &Player{cfg: cfg}
	for w := range cfg.Trees {
		p.trees = append(p.trees, &tree{
			rng:       rand.New(rand.NewPCG(cfg.Seed, uint64(w)+1)),
			maxNodes:  cfg.MaxNodes,
			cfgCutoff: cfg.Cutoff,
		})
	}
	return p, nil
}

// Choice is the move a search chose and what it learnt.
type Choice struct {
	Move rules.Move
	// Win is the chance the search gives the seat to move of winning
	// after the move, from 0 to 1 (a draw counts as a share).
	Win float64
	// Values is each seat's expected result in the position searched
	// (index 0 is seat 1), from 0 to 1: the mean of this search's
	// playouts, all trees. A seat's estimate whether or not it is to
	// move: what a bot asks before it answers a draw offer.
	Values []float64
	// Playouts is the number of iterations of this search (all trees).
	Playouts int
	// Nodes is the number of nodes in the trees after it.
	Nodes int
	// Stopped says the time budget or the context ended the search before
	// the level's number of iterations.
	Stopped bool
}

// Move searches s and returns the move to play. s must not be over. The
// search ends after the level's iterations, at the time budget, or when
// ctx ends; in the last case Move still returns the best move found, with
// ctx's error only when not a single iteration ran.
func (p *Player) Move(ctx context.Context, s rules.State) (Choice, error) {
	r, err := p.grow(ctx, s)
	if err != nil {
		return Choice{}, err
	}
	c := r.choice
	c.Move = r.legal[r.best]
	switch {
	case r.wins:
		c.Win = 1
	case r.visits[r.best] > 0:
		c.Win = r.reward[r.best] / r.visits[r.best]
	}
	for _, t := range p.trees {
		t.keep(c.Move)
	}
	return c, nil
}

// grown is a search's root, its children summed over the trees in the
// order of the legal moves.
type grown struct {
	legal          []rules.Move
	visits, reward []float64
	best           int  // the most visited; on a tie the better result, then the first
	wins           bool // best wins at once (and is the choice for it)
	choice         Choice
}

// grow searches s in every tree and sums the root's children.
func (p *Player) grow(ctx context.Context, s rules.State) (grown, error) {
	if s.Outcome().Over || s.ToMove() == 0 {
		return grown{}, rules.ErrGameOver
	}
	ctx, cancel := context.WithTimeout(ctx, p.cfg.MoveTime)
	defer cancel()
	legal := s.Moves(nil)
	n := iterations(p.cfg.Level, len(legal))
	if p.cfg.MaxIterations > 0 {
		n = min(n, p.cfg.MaxIterations)
	}
	want := p.share(n)
	wants := make([]int, len(p.trees))
	for w, t := range p.trees {
		t.reroot(s)
		wants[w] = want
		if p.cfg.Shared {
			wants[w] = max(1, want-int(t.root.visits))
		}
	}
	p.each(func(w int, t *tree) { t.search(ctx, wants[w]) })

	r := grown{legal: legal, choice: Choice{Values: make([]float64, s.Options().Seats)}}
	c := &r.choice
	for w, t := range p.trees {
		for i, v := range t.rootSum {
			c.Values[i] += v
		}
		c.Playouts += t.ran
		c.Nodes += t.nodes
		c.Stopped = c.Stopped || t.ran < wants[w]
	}
	if c.Playouts == 0 {
		if err := ctx.Err(); err != nil {
			return grown{}, err
		}
	}
	r.visits, r.reward = p.sum(legal)
	for i := range legal {
		if r.visits[i] > r.visits[r.best] || r.visits[i] == r.visits[r.best] && r.visits[i] > 0 && r.reward[i]/r.visits[i] > r.reward[r.best]/r.visits[r.best] {
			r.best = i
		}
	}
	// A move that wins at once is the choice, whatever the visits: the
	// search values a win later as much as a win now, so an engine sure
	// of its win would put it off, move after move, for an opponent to
	// escape (and the analyst would call the engine's own moves missed
	// wins).
	for i, m := range legal {
		if next, err := s.Play(m); err == nil {
			if o := next.Outcome(); o.Over && o.Winner == s.ToMove() {
				r.best, r.wins = i, true
				break
			}
		}
	}
	for i := range c.Values {
		c.Values[i] /= float64(max(c.Playouts, 1))
	}
	return r, nil
}

// each runs f on every tree, on up to Workers goroutines at once, and
// returns when all are done. Each tree is one goroutine's at a time, and
// what f does to it depends on the tree alone, not on which goroutine
// runs it or when.
func (p *Player) each(f func(w int, t *tree)) {
	n := min(p.cfg.Workers, len(p.trees))
	if n <= 1 {
		for w, t := range p.trees {
			f(w, t)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				w := int(next.Add(1) - 1)
				if w >= len(p.trees) {
					return
				}
				f(w, p.trees[w])
			}
		}()
	}
	wg.Wait()
}

// share is a tree's part of n iterations: all of them, or with Shared
// an equal part (at least one).
func (p *Player) share(n int) int {
	if !p.cfg.Shared {
		return n
	}
	return max(1, (n+len(p.trees)-1)/len(p.trees))
}

// sum adds up the visits and rewards of the roots' children over the
// trees, in the order of legal.
func (p *Player) sum(legal []rules.Move) (visits, reward []float64) {
	visits = make([]float64, len(legal))
	reward = make([]float64, len(legal))
	for _, t := range p.trees {
		for _, ch := range t.root.children {
			for i, m := range legal {
				if m == ch.move {
					visits[i] += ch.visits
					reward[i] += ch.reward
					break
				}
			}
		}
	}
	return visits, reward
}

// tree is one worker's search tree.
type tree struct {
	root      *node
	rng       *rand.Rand
	maxNodes  int
	cfgCutoff int // Config.Cutoff
	cutoff    int // this search's
	nodes     int // nodes in the tree
	ran       int // iterations of the last search

	pg      progresser    // the playout's position, when its game offers it
	wf      winFinder     // the same, when its game offers it
	noWins  bool          // the game is not a winFinder
	buf     []rules.Move  // scratch for playouts
	trial   rules.Mutable // scratch: a playout's candidate move played
	reward  []float64     // scratch: a playout's result, per seat
	rootSum []float64     // the sum of reward over the last search's playouts
}

// node is a position in the tree.
type node struct {
	state    rules.State
	move     rules.Move // the move that led here
	mover    int        // the seat that played it (0 at the root)
	parent   *node
	children []*node
	untried  []rules.Move // legal moves not expanded yet, in a random order
	visits   float64
	reward   float64 // the sum of the results of mover
}

func (t *tree) newNode(s rules.State, parent *node, m rules.Move, mover int) *node {
	n := &node{state: s, parent: parent, move: m, mover: mover}
	if !s.Outcome().Over {
		n.untried = s.Moves(nil)
		t.rng.Shuffle(len(n.untried), func(i, j int) { n.untried[i], n.untried[j] = n.untried[j], n.untried[i] })
		if m, ok := t.winning(s, n.untried); ok {
			// The seat to move wins here: no other move is worth a
			// playout, and the node's value is known after one.
			n.untried = []rules.Move{m}
		}
	}
	t.nodes++
	return n
}

// reroot makes s the root: the node of s below the old root when the tree
// holds it (found within a round of moves), else a new tree.
func (t *tree) reroot(s rules.State) {
	code := s.Code()
	if t.root != nil {
		if n := find(t.root, code, s.Options().Seats); n != nil {
			n.parent = nil
			t.root = n
			t.nodes = count(n)
			return
		}
	}
	t.nodes = 0
	t.root = t.newNode(s, nil, rules.Move{}, 0)
}

// keep drops every child of the root but the one of move m, once it has
// been chosen, so that the tree keeps only what can still be reused.
func (t *tree) keep(m rules.Move) {
	for _, ch := range t.root.children {
		if ch.move == m {
			t.root.children = []*node{ch}
			t.root.untried = nil
			t.nodes = 1 + count(ch)
			return
		}
	}
}

func find(n *node, code string, depth int) *node {
	if n.state.Code() == code {
		return n
	}
	if depth == 0 {
		return nil
	}
	for _, ch := range n.children {
		if f := find(ch, code, depth-1); f != nil {
			return f
		}
	}
	return nil
}

func count(n *node) int {
	c := 1
	for _, ch := range n.children {
		c += count(ch)
	}
	return c
}

// search runs up to want iterations, until ctx ends.
func (t *tree) search(ctx context.Context, want int) {
	t.ran = 0
	seats := t.root.state.Options().Seats
	if len(t.reward) != seats {
		t.reward = make([]float64, seats)
	}
	t.rootSum = make([]float64, seats)
	t.cutoff = t.cfgCutoff
	if t.cutoff <= 0 {
		// A cut playout is judged by the scores; without scores there is
		// nothing to judge it by, so it goes on longer.
		t.cutoff = 100
		if t.root.state.Scores() != nil {
			t.cutoff = 30
		}
	}
	for t.ran < want {
		if t.ran%16 == 0 && ctx.Err() != nil {
			return
		}
		t.iterate()
		t.ran++
	}
}

// exploration is the UCT constant for results between 0 and 1.
const exploration = 1.0

func (t *tree) iterate() { t.iterateFrom(t.root) }

// iterateFrom runs one iteration whose selection starts at n, a node of
// the tree; the result goes back up to the root.
func (t *tree) iterateFrom(n *node) {
	// Selection: down the tree while every move of a node has a child.
	for len(n.untried) == 0 && len(n.children) > 0 {
		n = t.pick(n)
	}
	// Expansion: one new child, while the tree may grow.
	if len(n.untried) > 0 && t.nodes < t.maxNodes {
		m := n.untried[len(n.untried)-1]
		n.untried = n.untried[:len(n.untried)-1]
		next, err := n.state.Play(m)
		if err != nil {
			panic("engine: a legal move did not play: " + err.Error())
		}
		ch := t.newNode(next, n, m, n.state.ToMove())
		n.children = append(n.children, ch)
		n = ch
	}
	// Simulation and backpropagation.
	t.playout(n.state)
	for i, r := range t.reward {
		t.rootSum[i] += r
	}
	for ; n != nil; n = n.parent {
		n.visits++
		if n.mover > 0 {
			n.reward += t.reward[n.mover-1]
		}
	}
}

func (t *tree) pick(n *node) *node {
	logN := math.Log(n.visits)
	var best *node
	bestV := math.Inf(-1)
	for _, ch := range n.children {
		v := ch.reward/ch.visits + exploration*math.Sqrt(logN/ch.visits)
		if v > bestV {
			best, bestV = ch, v
		}
	}
	return best
}

// playout plays from s to the end or the cutoff and sets t.reward to each
// seat's result. Each ply it draws a few legal moves at random and plays
// the best of them for the seat to move: one that wins at once, else one
// that gains the most points (games with scores) or progress (games that
// offer it, below), else the first drawn. A playout that takes what is
// offered tells a good move from a bad one in far fewer playouts than a
// blind one, in every game, without knowing any. Where the game can tell
// a winning move without playing it (winFinder), every move is looked at
// for one first. It plays in place (rules.Mutable): a playout allocates
// nothing a ply.
func (t *tree) playout(s rules.State) {
	cur := rules.NewMutable(s)
	if t.trial == nil || t.trial.Game().Name() != s.Game().Name() {
		t.trial = rules.NewMutable(s)
	}
	t.pg, _ = cur.(progresser)
	t.wf, _ = cur.(winFinder)
	ix, _ := cur.(moveIndexer)
	if t.wf != nil {
		ix = nil // a winFinder looks at the whole list
	}
	for ply := 0; ply < t.cutoff; ply++ {
		if cur.Outcome().Over {
			break
		}
		if ix != nil {
			n := ix.IndexMoves()
			if n == 0 {
				break
			}
			t.stepIndexed(cur, ix, n)
			continue
		}
		t.buf = cur.Moves(t.buf[:0])
		if len(t.buf) == 0 {
			break
		}
		t.step(cur, t.buf)
	}
	Result(cur, t.reward)
}

// A game's Mutable may tell the playouts more than rules.State does,
// through the first two of these interfaces, and list its moves faster
// through the third. All are optional: a game without them is played as
// described above. IceFrogs offers the first two (docs/engine.md says
// what they gained), Pikemen the third (the same moves, sooner).
type (
	// progresser says how far along a seat is in a game without scores
	// (IceFrogs: how near its pieces stand to an opponent's start space):
	// playouts weigh moves by it where they would weigh points.
	progresser interface{ Progress(seat int) int }
	// winFinder finds the first of a position's legal moves that wins at
	// once without playing any (its index, or -1 when none does), so
	// that a playout can look at every move for one that wins, not only
	// at the few it draws, and the tree can give a position where the
	// seat to move wins that move alone. It takes the whole list, not a
	// move at a time: a call a move cost IceFrogs's playouts a fifth of
	// their instructions.
	winFinder interface{ FirstWin(moves []rules.Move) int }
	// moveIndexer lists the legal moves by index without writing them
	// all: IndexMoves returns how many there are (len(Moves(nil))) and
	// readies MoveAt(i), Moves's move at index i, until the position
	// changes. A playout draws four moves a ply; a game with many moves
	// (Pikemen: 100 to 200, each a 44-byte rules.Move) spent most of
	// its playouts writing the list they were drawn from. The draws and
	// so the moves played are the same as from the list.
	moveIndexer interface {
		IndexMoves() int
		MoveAt(i int) rules.Move
	}
)

// winning returns a move of moves that wins s at once, when s's game can
// tell (winFinder) and there is one.
func (t *tree) winning(s rules.State, moves []rules.Move) (rules.Move, bool) {
	if t.noWins {
		return rules.Move{}, false
	}
	wf, ok := rules.NewMutable(s).(winFinder)
	if !ok {
		t.noWins = true // a Player plays one game
		return rules.Move{}, false
	}
	return firstWin(wf, moves)
}

// firstWin returns the first of moves that wins at once, as wf tells.
func firstWin(wf winFinder, moves []rules.Move) (rules.Move, bool) {
	if i := wf.FirstWin(moves); i >= 0 {
		return moves[i], true
	}
	return rules.Move{}, false
}

// value is what a playout weighs seat's moves by in m: its progress, or
// its score.
func (t *tree) value(m rules.Mutable, seat int) int {
	if t.pg != nil {
		return m.(progresser).Progress(seat)
	}
	return m.Score(seat)
}

// samples is how many moves a playout weighs at each ply.
const samples = 4

// step plays into cur the best of a few random moves of it (see playout),
// trying each in t.trial.
func (t *tree) step(cur rules.Mutable, moves []rules.Move) {
	if t.wf != nil {
		if m, ok := firstWin(t.wf, moves); ok {
			cur.PlayLegal(m)
			return
		}
	}
	mover := cur.ToMove()
	before := t.value(cur, mover)
	var best rules.Move
	bestGain := math.MinInt
	for k := 0; k < samples && len(moves) > 0; k++ {
		i := t.rng.IntN(len(moves))
		m := moves[i]
		moves[i] = moves[len(moves)-1]
		moves = moves[:len(moves)-1]
		if t.try(cur, m, mover, before, &best, &bestGain) {
			return
		}
	}
	cur.PlayLegal(best)
}

// stepIndexed is step for a game that lists its moves by index: the n
// moves of cur are ix's (ix is cur), and the draws are step's, a draw
// taking the move at its index and moving the last into its place, kept
// as a few indexes instead of a list.
func (t *tree) stepIndexed(cur rules.Mutable, ix moveIndexer, n int) {
	mover := cur.ToMove()
	before := t.value(cur, mover)
	var best rules.Move
	bestGain := math.MinInt
	// moved[j] holds at index at[j] the index of the move now there.
	var at, moved [samples]int
	swaps := 0
	index := func(i int) int {
		for j := range swaps {
			if at[j] == i {
				return moved[j]
			}
		}
		return i
	}
	for k := 0; k < samples && n > 0; k++ {
		i := t.rng.IntN(n)
		m := ix.MoveAt(index(i))
		last := index(n - 1)
		j := 0
		for j < swaps && at[j] != i {
			j++
		}
		if j == swaps {
			swaps++
		}
		at[j], moved[j] = i, last
		n--
		if t.try(cur, m, mover, before, &best, &bestGain) {
			return
		}
	}
	cur.PlayLegal(best)
}

// try plays m, a move of cur, in t.trial for seat mover, whose value in
// cur is before: when it wins, into cur too, and it reports true; else
// m becomes *best if it gains more than *bestGain.
func (t *tree) try(cur rules.Mutable, m rules.Move, mover, before int, best *rules.Move, bestGain *int) bool {
	t.trial.Set(cur)
	t.trial.PlayLegal(m)
	if o := t.trial.Outcome(); o.Over && o.Winner == mover {
		cur.Set(t.trial)
		return true
	}
	if gain := t.value(t.trial, mover) - before; gain > *bestGain {
		*best, *bestGain = m, gain
	}
	return false
}

// Result sets r[i] to seat i+1's result in s, from 0 to 1: 1 for the
// winner and 0 for the others when the game is over (a draw shares 1
// among the seats); for a game not over, the seats with the highest score
// share 1 (games with scores), or all share it (games without).
func Result(s rules.State, r []float64) {
	clear(r)
	if o := s.Outcome(); o.Over {
		if o.Winner > 0 {
			r[o.Winner-1] = 1
			return
		}
		share(r, nil)
		return
	}
	sc := s.Scores()
	if sc == nil {
		share(r, nil)
		return
	}
	best := sc[0]
	for _, v := range sc {
		best = max(best, v)
	}
	share(r, func(i int) bool { return sc[i] == best })
}

// share gives 1, split equally, to the seats that in says (all for nil).
func share(r []float64, in func(int) bool) {
	n := 0
	for i := range r {
		if in == nil || in(i) {
			n++
		}
	}
	for i := range r {
		if in == nil || in(i) {
			r[i] = 1 / float64(n)
		}
	}
}
