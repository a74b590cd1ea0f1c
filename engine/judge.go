package engine

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"

	"icepost/rules"
)

// Judgement is what a search says of the move the engine prefers in a
// position and of the move played there, for the analyst (package
// analysis). Each move's value is the mover's mean result (for 3 and 4
// seats, the mover's share) over fresh playouts through it, the same
// number for both, run after the search chose: the search's own means
// would flatter the move it chose, the most visited of many whose means
// are noisy (the winner's curse), and judge the played move by few
// playouts when it left it little tried.
type Judgement struct {
	Best        rules.Move
	BestValue   float64 // the mover's mean result after Best
	PlayedValue float64 // the mover's mean result after the move played
	// BestSample and PlayedSample are the fresh playouts behind the two
	// values (one tally for both when the move played is Best).
	BestSample, PlayedSample Sample
	Playouts                 int  // all iterations, the fresh ones included
	Stopped                  bool // the time budget or the context cut a search short
	// Moves are the legal moves of the position, Values the mover's mean
	// result after each in the search (NaN for a move no playout tried),
	// Visits its playouts in the search (all trees).
	Moves  []rules.Move
	Values []float64
	Visits []float64
}

// Sample counts the mover's results over playouts: how many, their sum
// and the sum of their squares.
type Sample struct{ N, Sum, Squares float64 }

// Mean is the mean result, NaN for no playout.
func (t Sample) Mean() float64 {
	if t.N == 0 {
		return math.NaN()
	}
	return t.Sum / t.N
}

// StdErr is the standard error of the mean (the playouts taken as
// independent), +Inf for fewer than two.
func (t Sample) StdErr() float64 {
	if t.N < 2 {
		return math.Inf(1)
	}
	m := t.Sum / t.N
	v := max(0, t.Squares/t.N-m*m) * t.N / (t.N - 1)
	return math.Sqrt(v / t.N)
}

func (t *Sample) add(u Sample) { t.N, t.Sum, t.Squares = t.N+u.N, t.Sum+u.Sum, t.Squares+u.Squares }

// Sequential says how many fresh playouts Measure runs through each of
// the two moves: Min first, then Step more at a time (0: as many as so
// far, doubling them) while Decided (when set) says the two samples do
// not decide yet, up to Max.
//
// With Chunk 0 they go down the search's trees, through each move's
// node, and each playout is a sample. With Chunk > 0 they are
// independent searches of Chunk playouts each from the position after
// the move, each seeded by the seed, the position, the move and its
// number, and each search's mean result is a sample: the spread of the
// samples is then the spread of the whole estimate (the search's too,
// which playouts down one tree hide), and the estimate is the same
// whatever the trees hold. The counts are
// of all trees together; each tree runs its share of each step, so the
// result does not depend on how many Workers run the trees.
//
// Among, when not empty, holds the moves the engine's choice may be: the
// most visited of them (on a tie the better mean, then the first legal),
// the search's choice among them (the analyst's best move that does not
// let the next seat win at once).
type Sequential struct {
	Min, Step, Max int
	Decided        func(best, played Sample) bool
	Among          []rules.Move
	Chunk          int
	// Candidates is how many moves (the search's most visited, the
	// move played among them) the engine's move is chosen from with
	// Chunk, by selectChunks samples each kept apart from the estimate:
	// the search's choice alone varies from seed to seed between moves
	// it cannot tell apart, and their values with it. Default 1.
	Candidates int
}

// Judge searches s as Move does, then runs the level's base number of
// playouts more through the move it prefers and as many through m, a
// legal move of s (through the one move when m is it), and judges both by
// those (Judgement). The trees keep m's subtree for the position after
// it, as Move keeps the chosen move's.
func (p *Player) Judge(ctx context.Context, s rules.State, m rules.Move) (Judgement, error) {
	b := base[p.cfg.Level]
	j, err := p.Measure(ctx, s, m, Sequential{Min: b, Max: b})
	if err == nil {
		p.Keep(m)
	}
	return j, err
}

// Measure is Judge with the fresh playouts as seq says, and without the
// keep: the trees still hold every move searched, for Line, until Keep
// is called with the move played.
func (p *Player) Measure(ctx context.Context, s rules.State, m rules.Move, seq Sequential) (Judgement, error) {
	r, err := p.grow(ctx, s)
	if err != nil {
		return Judgement{}, err
	}
	played := slices.Index(r.legal, m)
	if played < 0 {
		return Judgement{}, fmt.Errorf("engine: %s is not a legal move here", s.FormatMove(m))
	}
	if len(seq.Among) > 0 && !slices.Contains(seq.Among, r.legal[r.best]) {
		b := -1
		for i, lm := range r.legal {
			if !slices.Contains(seq.Among, lm) {
				continue
			}
			if b < 0 || r.visits[i] > r.visits[b] || r.visits[i] == r.visits[b] && r.visits[i] > 0 && r.reward[i]/r.visits[i] > r.reward[b]/r.visits[b] {
				b = i
			}
		}
		if b >= 0 {
			r.best = b
		}
	}
	best := r.legal[r.best]
	j := Judgement{Best: best, Playouts: r.choice.Playouts, Stopped: r.choice.Stopped}
	j.Moves, j.Values, j.Visits = r.legal, make([]float64, len(r.legal)), r.visits
	for i := range r.legal {
		j.Values[i] = math.NaN()
		if r.visits[i] > 0 {
			j.Values[i] = r.reward[i] / r.visits[i]
		}
	}
	ctx, cancel := context.WithTimeout(ctx, p.cfg.MoveTime)
	defer cancel()
	fresh := make([]measured, len(p.trees))
	var sum measured
	samples := map[rules.Move]Sample{}
	for done, step := 0, max(1, seq.Min); ; step = max(1, seq.Step, done) {
		if seq.Step > 0 {
			step = seq.Step
		}
		if seq.Max > 0 {
			step = min(step, seq.Max-done)
		}
		if seq.Chunk > 0 {
			// Independent searches of Chunk playouts, each a sample.
			if done == 0 {
				var n int
				best, n = p.choose(ctx, s, r, best, seq)
				j.Best, j.Playouts = best, j.Playouts+n
			}
			k := (step + seq.Chunk - 1) / seq.Chunk
			moves := []rules.Move{m, best}
			if m == best {
				moves = moves[:1]
			}
			vals := p.samples(ctx, s, moves, k, seq.Chunk, func(mv rules.Move) int { return int(samples[mv].N) })
			for i, v := range vals {
				mv := moves[i%len(moves)]
				x := samples[mv]
				x.add(Sample{1, v, v * v})
				samples[mv] = x
			}
			j.Playouts += len(vals) * seq.Chunk
			step = k * seq.Chunk
			if done == 0 && best != m && len(seq.Among) == 0 && samples[m].Mean() >= samples[best].Mean() {
				// The move played scores at least as well: it is
				// the engine's.
				best, j.Best = m, m
			}
			sum = measured{samples[best], samples[m]}
		} else {
			n := p.share(step)
			p.each(func(w int, t *tree) { fresh[w] = t.measure(ctx, best, m, n) })
			for _, f := range fresh {
				for i := range 2 {
					sum[i].add(f[i])
				}
				j.Playouts += int(f[0].N + f[1].N)
			}
		}
		done += step
		if ctx.Err() != nil || done >= seq.Max || seq.Decided == nil || m == best {
			break
		}
		if seq.Decided(sum[0], sum[1]) {
			break
		}
	}
	j.Stopped = j.Stopped || ctx.Err() != nil
	if b := slices.Index(r.legal, best); b >= 0 {
		r.best = b
	}
	j.BestValue, j.PlayedValue = j.Values[r.best], j.Values[played]
	if sum[0].N > 0 {
		j.BestValue = sum[0].Mean()
	}
	if sum[1].N > 0 {
		j.PlayedValue = sum[1].Mean()
	}
	if m == best {
		j.PlayedValue, sum[1] = j.BestValue, sum[0]
	}
	j.BestSample, j.PlayedSample = sum[0], sum[1]
	return j, nil
}

// candidates returns the moves the engine's move is chosen from by
// fresh samples (Sequential.Candidates): best, the search's choice,
// then the next most visited of the moves it may be (Among), the move
// played among them when it is one of the most visited; only moves the
// search tried at least candidateVisits times as often as best, as a
// move tried much less is one the search could tell apart.
func (p *Player) candidates(r grown, best rules.Move, seq Sequential) []rules.Move {
	out := []rules.Move{best}
	least := 0.0
	if b := slices.Index(r.legal, best); b >= 0 {
		least = candidateVisits * r.visits[b]
	}
	order := make([]int, len(r.legal))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case r.visits[a] > r.visits[b]:
			return -1
		case r.visits[a] < r.visits[b]:
			return 1
		}
		return 0
	})
	for _, i := range order {
		if len(out) >= max(1, seq.Candidates) || r.visits[i] == 0 || r.visits[i] < least {
			break
		}
		mv := r.legal[i]
		if mv == best || len(seq.Among) > 0 && !slices.Contains(seq.Among, mv) {
			continue
		}
		out = append(out, mv)
	}
	return out
}

// candidateVisits is the share of the search's choice's visits a move
// needs to be a candidate (candidates).
const candidateVisits = 0.5

// selectChunks is how many searches of Sequential.Chunk playouts each
// candidate gets for the choice of the engine's move: samples of their
// own, kept apart from the estimate of the move chosen, which a choice
// by its own samples would flatter (the best of several noisy means is
// most often one its noise lifted).
const selectChunks = 2

// selectStream numbers the choice's samples apart from the estimate's
// (chunk's k), so that the two never share a search.
const selectStream = 1 << 40

// choose returns the engine's move in s, and the playouts it ran: the
// best of the candidates (Sequential.Candidates, the move played among
// them when it is one of the most visited) by selectChunks samples
// each; the search's choice when it is the only one.
func (p *Player) choose(ctx context.Context, s rules.State, r grown, best rules.Move, seq Sequential) (rules.Move, int) {
	cands := p.candidates(r, best, seq)
	if len(cands) == 1 {
		return best, 0
	}
	vals := p.samples(ctx, s, cands, selectChunks, seq.Chunk, func(rules.Move) int { return selectStream })
	means := make([]float64, len(cands))
	for i, v := range vals {
		means[i%len(cands)] += v
	}
	c := 0
	for i := range cands {
		if means[i] > means[c] {
			c = i
		}
	}
	return cands[c], len(vals) * seq.Chunk
}

// samples runs k searches of n playouts through each of moves
// (independent samples, chunk), the i-th of move mv numbered from(mv)+i,
// on the Workers, and returns their means, move after move within each
// round: the i-th search of moves[j] is at i*len(moves)+j.
func (p *Player) samples(ctx context.Context, s rules.State, moves []rules.Move, k, n int, from func(rules.Move) int) []float64 {
	vals := make([]float64, k*len(moves))
	starts := make([]int, len(moves))
	for j, mv := range moves {
		starts[j] = from(mv)
	}
	p.parallel(len(vals), func(i int) {
		j := i % len(moves)
		vals[i] = p.chunk(ctx, s, moves[j], starts[j]+i/len(moves), n)
	})
	return vals
}

// chunk is the mover's mean result over a search of n playouts of its
// own from the position after mv, a legal move of s: a tree that the
// search's trees share nothing with, seeded by the Player's seed, the
// position, the move and the chunk's number k alone, so that the chunks
// are independent samples of one quantity, whoever runs them and in
// whatever order.
func (p *Player) chunk(ctx context.Context, s rules.State, mv rules.Move, k, n int) float64 {
	next, err := s.Play(mv)
	if err != nil {
		panic("engine: a legal move did not play: " + err.Error())
	}
	h := fnv.New64a()
	h.Write([]byte(s.Code()))
	h.Write([]byte(s.FormatMove(mv)))
	t := &tree{rng: rand.New(rand.NewPCG(p.cfg.Seed^h.Sum64(), uint64(k))), maxNodes: p.cfg.MaxNodes, cfgCutoff: p.cfg.Cutoff}
	t.root = t.newNode(next, nil, mv, s.ToMove())
	t.search(ctx, n)
	if t.root.visits == 0 {
		return 0
	}
	return t.root.reward / t.root.visits
}

// parallel runs f(0) to f(n-1) on up to Workers goroutines at once and
// returns when all are done.
func (p *Player) parallel(n int, f func(i int)) {
	workers := min(p.cfg.Workers, n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		}()
	}
	wg.Wait()
}

// Keep makes the trees keep only the subtree of m, a move of the
// position last searched: the move played, whose position comes next.
func (p *Player) Keep(m rules.Move) {
	for _, t := range p.trees {
		t.keep(m)
	}
}

// Line returns the engine's principal variation after m, a move of the
// position last searched: m, then at each position the reply its trees
// (summed) tried most, while it has been tried at least minLineVisits
// times, up to n moves in all. It reads the trees as the last search
// (or Measure) left them, before Keep.
func (p *Player) Line(m rules.Move, n int) []rules.Move {
	var nodes []*node
	for _, t := range p.trees {
		if t.root == nil {
			continue
		}
		for _, ch := range t.root.children {
			if ch.move == m {
				nodes = append(nodes, ch)
			}
		}
	}
	line := []rules.Move{m}
	for len(line) < n && len(nodes) > 0 {
		var moves []rules.Move
		var visits []float64
		for _, nd := range nodes {
			for _, ch := range nd.children {
				i := slices.Index(moves, ch.move)
				if i < 0 {
					moves, visits = append(moves, ch.move), append(visits, 0)
					i = len(moves) - 1
				}
				visits[i] += ch.visits
			}
		}
		best := -1
		for i, v := range visits {
			if v >= minLineVisits && (best < 0 || v > visits[best]) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		next := nodes[:0:0]
		for _, nd := range nodes {
			for _, ch := range nd.children {
				if ch.move == moves[best] {
					next = append(next, ch)
				}
			}
		}
		line, nodes = append(line, moves[best]), next
	}
	return line
}

// minLineVisits is how often a reply must have been tried for Line to
// take it: a reply of a handful of playouts says little.
const minLineVisits = 20

// measured is what measure found: the playouts through the best move
// ([0]) and the move played ([1]).
type measured [2]Sample

// measure runs n iterations through the root's child of move best and n
// through the child of move m (making it when the search has not; only
// the n through best when m is best), until ctx ends, and returns them.
func (t *tree) measure(ctx context.Context, best, m rules.Move, n int) measured {
	var out measured
	nodes := [2]*node{t.child(best), t.child(m)}
	if m == best {
		nodes[1] = nil
	}
	for i := 0; i < n; i++ {
		if i%16 == 0 && ctx.Err() != nil {
			break
		}
		for k, ch := range nodes {
			if ch == nil {
				continue
			}
			r := ch.reward
			t.iterateFrom(ch)
			d := ch.reward - r
			out[k].N++
			out[k].Sum += d
			out[k].Squares += d * d
		}
	}
	return out
}

// child returns the root's child of move m, making it when the search
// has not (the move not tried yet, or left out because another wins at
// once).
func (t *tree) child(m rules.Move) *node {
	for _, ch := range t.root.children {
		if ch.move == m {
			return ch
		}
	}
	if i := slices.Index(t.root.untried, m); i >= 0 {
		t.root.untried = slices.Delete(t.root.untried, i, i+1)
	}
	next, err := t.root.state.Play(m)
	if err != nil {
		panic("engine: a legal move did not play: " + err.Error())
	}
	ch := t.newNode(next, t.root, m, t.root.state.ToMove())
	t.root.children = append(t.root.children, ch)
	return ch
}
