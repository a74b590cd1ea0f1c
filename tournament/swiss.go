package tournament

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// The Swiss pairing: each round is the maximum-weight matching (matching.go)
// of the graph whose vertices are the players still in (and a bye vertex
// when their number is odd) and whose edges are the pairs allowed, as
// bbpPairings and Lichess pair. What may never happen has no edge: a
// rematch, and a bye for a player who has had more byes than someone
// else still in. Every other pair has a cost, four numbers compared in
// turn (pairCost); the weight of an edge encodes them so that the heaviest
// matching among those that pair everyone is the one whose summed costs
// are least in that order. docs/tournaments.md says why each is where it
// is.

// Indices of a pairCost, most important first.
const (
	costAbsolute = iota // players left with an absolute seat imbalance
	costScore           // score differences, squared
	costColour          // seat preferences not granted
	costOrder           // distance from the Dutch order within score groups
	costLevels
)

// pairCost is what pairing two players (or one with the bye) costs.
type pairCost [costLevels]int64

// swissPlayer is a player still in, as the pairing sees them.
type swissPlayer struct {
	id    string
	seed  int
	score Points
	seats []int // 1 or 2, each game in round order (byes are not games)
	met   map[string]bool
	byes  int
}

// balance is how many more times the player sat in seat 1 than in seat 2.
func (p *swissPlayer) balance() int {
	b := 0
	for _, s := range p.seats {
		b += 3 - 2*s // 1 → +1, 2 → -1
	}
	return b
}

// half is the score in half points.
func (p *swissPlayer) half() int64 { return int64(p.score / (Unit / 2)) }

// swissField is a round to pair: the players still in, ranked by score
// and then seed, with their places in their score groups.
type swissField struct {
	ps      []swissPlayer
	bye     bool // an odd number: vertex len(ps) is the bye
	minByes int
	pos     []int // a player's index within their score group
	size    []int // the size of that group
}

// swissField gathers the players still in from the games so far.
func (t *Tournament) swissField() *swissField {
	f := &swissField{}
	at := map[string]int{}
	for _, p := range t.Players {
		if !p.Withdrawn {
			at[p.ID] = len(f.ps)
			f.ps = append(f.ps, swissPlayer{id: p.ID, seed: p.Seed, met: map[string]bool{}})
		}
	}
	games := slices.Clone(t.Games)
	slices.SortStableFunc(games, func(a, b Game) int { return cmp.Compare(a.Round, b.Round) })
	for _, g := range games {
		for s, id := range g.Players {
			i, ok := at[id]
			if !ok {
				continue
			}
			p := &f.ps[i]
			if g.Bye {
				p.byes++
				p.score += Unit
				continue
			}
			p.seats = append(p.seats, s+1)
			for _, o := range g.Players {
				if o != id {
					p.met[o] = true
				}
			}
			if g.counted() {
				p.score += pointsOf(*g.Result)[s]
			}
		}
	}
	slices.SortStableFunc(f.ps, func(a, b swissPlayer) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.seed, b.seed)
	})
	f.bye = len(f.ps)%2 == 1
	f.minByes = math.MaxInt
	for _, p := range f.ps {
		f.minByes = min(f.minByes, p.byes)
	}
	f.pos = make([]int, len(f.ps))
	f.size = make([]int, len(f.ps))
	for i := 0; i < len(f.ps); {
		j := i
		for j < len(f.ps) && f.ps[j].score == f.ps[i].score {
			j++
		}
		for k := i; k < j; k++ {
			f.pos[k], f.size[k] = k-i, j-i
		}
		i = j
	}
	return f
}

// vertices is the number of vertices of the pairing graph.
func (f *swissField) vertices() int {
	if f.bye {
		return len(f.ps) + 1
	}
	return len(f.ps)
}

// firstSeat says whether player i (ranked above j: i < j) takes seat 1
// against j: the one who sat less in seat 1 takes it; on equal balance,
// the one who sat in seat 2 the last time their seats differed; with the
// same seats throughout, i takes the seat opposite to its last, and in a
// first game seat 1 when its seed is odd (so that the top half of the
// first round alternates, board by board).
func (f *swissField) firstSeat(i, j int) bool {
	a, b := &f.ps[i], &f.ps[j]
	if ba, bb := a.balance(), b.balance(); ba != bb {
		return ba < bb
	}
	for k := 1; k <= min(len(a.seats), len(b.seats)); k++ {
		sa, sb := a.seats[len(a.seats)-k], b.seats[len(b.seats)-k]
		if sa != sb {
			return sa == 2
		}
	}
	if len(a.seats) > 0 {
		return a.seats[len(a.seats)-1] == 2
	}
	return a.seed%2 == 1
}

// seatCost is what taking seat s costs player p: whether it leaves an
// absolute imbalance (seat 1 three times more than seat 2 or the
// reverse, or the same seat three games running), and how far it goes
// against the player's preference (2: the seat they have had more of; 1:
// balanced, the same seat as last time).
func seatCost(p *swissPlayer, s int) (absolute, colour int64) {
	b := p.balance()
	after := b + 3 - 2*s
	n := len(p.seats)
	if after >= 3 || after <= -3 || (n >= 2 && p.seats[n-1] == s && p.seats[n-2] == s) {
		absolute = 1
	}
	switch {
	case b != 0 && abs(after) > abs(b):
		colour = 2
	case b == 0 && n > 0 && p.seats[n-1] == s:
		colour = 1
	}
	return absolute, colour
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// cost is what pairing vertices i < j costs, and whether they may be
// paired at all.
func (f *swissField) cost(i, j int) (pairCost, bool) {
	n := len(f.ps)
	var c pairCost
	if j == n { // the bye
		p := &f.ps[i]
		if !f.bye || p.byes > f.minByes {
			return c, false
		}
		h := p.half()
		c[costScore] = h * h
		c[costOrder] = int64(n - 1 - i)
		return c, true
	}
	a, b := &f.ps[i], &f.ps[j]
	if a.met[b.id] {
		return c, false
	}
	sa, sb := 2, 1
	if f.firstSeat(i, j) {
		sa, sb = 1, 2
	}
	abA, colA := seatCost(a, sa)
	abB, colB := seatCost(b, sb)
	c[costAbsolute] = abA + abB
	d := a.half() - b.half()
	c[costScore] = d * d
	c[costColour] = colA + colB
	if a.score == b.score {
		c[costOrder] = int64(abs(abs(f.pos[i]-f.pos[j]) - f.size[i]/2))
	} else {
		// The lowest of the higher group floats down to meet the highest
		// of the lower one.
		c[costOrder] = int64(f.size[i] - 1 - f.pos[i] + f.pos[j])
	}
	return c, true
}

// weigh turns costs into weights: level l is worth more than all the
// levels below it can add up to over a whole matching.
func (f *swissField) weigh() ([][]bool, [][]int64, error) {
	v := f.vertices()
	n := len(f.ps)
	pairs := int64(v / 2)
	var top int64
	for _, p := range f.ps {
		top = max(top, p.half())
	}
	maxes := pairCost{2, top * top, 4, int64(2 * n)}
	// mult[l] is one more than what the levels below l can add up to.
	const limit = 1 << 58
	var mult pairCost
	var below int64
	for l := costLevels - 1; l >= 0; l-- {
		mult[l] = below + 1
		if maxes[l] > 0 && (mult[l] > limit/maxes[l] || pairs > limit/(maxes[l]*mult[l])) {
			return nil, nil, fmt.Errorf("tournament: a Swiss of %d players is too large to pair at this score: %w", n, ErrInvalid)
		}
		below += pairs * maxes[l] * mult[l]
		if below > limit {
			return nil, nil, fmt.Errorf("tournament: a Swiss of %d players is too large to pair at this score: %w", n, ErrInvalid)
		}
	}
	base := below + 1
	has := make([][]bool, v)
	weight := make([][]int64, v)
	for i := range v {
		has[i] = make([]bool, v)
		weight[i] = make([]int64, v)
	}
	for i := range v {
		for j := i + 1; j < v; j++ {
			c, ok := f.cost(i, j)
			if !ok {
				continue
			}
			w := base
			for l := range costLevels {
				w -= c[l] * mult[l]
			}
			has[i][j], has[j][i] = true, true
			weight[i][j], weight[j][i] = w, w
		}
	}
	return has, weight, nil
}

// match is the pairing: mate[v] for every vertex, or ok false when no
// pairing takes in everyone.
func (f *swissField) match() (mate []int, ok bool, err error) {
	has, weight, err := f.weigh()
	if err != nil {
		return nil, false, err
	}
	mate = maxWeightMatching(f.vertices(), has, weight, true)
	return mate, !slices.Contains(mate, -1), nil
}

// pairSwiss pairs the next round once every game of the last has ended.
// When no pairing takes in every player still in, the tournament ends
// early (Ended).
func (t *Tournament) pairSwiss() ([]Game, error) {
	last := t.Rounds()
	if t.Ended || last >= t.Options.Rounds || !t.roundFinished(last) {
		return nil, nil
	}
	f := t.swissField()
	if len(f.ps) < 2 {
		t.Ended = true
		return nil, nil
	}
	mate, ok, err := f.match()
	if err != nil {
		return nil, err
	}
	if !ok {
		t.Ended = true
		return nil, nil
	}
	n := len(f.ps)
	var games []Game
	byeFor := -1
	for i := range n {
		j := mate[i]
		switch {
		case j == n:
			byeFor = i
		case i < j:
			a, b := f.ps[i].id, f.ps[j].id
			if !f.firstSeat(i, j) {
				a, b = b, a
			}
			games = append(games, Game{Round: last + 1, Players: []string{a, b}})
		}
	}
	// Boards: the pair with the higher score first, then the higher sum,
	// then the better-ranked player.
	rank := func(id string) int {
		return slices.IndexFunc(f.ps, func(p swissPlayer) bool { return p.id == id })
	}
	key := func(g Game) (Points, Points, int) {
		a, b := rank(g.Players[0]), rank(g.Players[1])
		return max(f.ps[a].score, f.ps[b].score), f.ps[a].score + f.ps[b].score, min(a, b)
	}
	slices.SortFunc(games, func(x, y Game) int {
		x1, x2, x3 := key(x)
		y1, y2, y3 := key(y)
		return cmp.Or(cmp.Compare(y1, x1), cmp.Compare(y2, x2), cmp.Compare(x3, y3))
	})
	if byeFor >= 0 {
		games = append(games, Game{Round: last + 1, Players: []string{f.ps[byeFor].id}, Bye: true})
	}
	for i := range games {
		games[i].Board = i + 1
	}
	t.Games = append(t.Games, games...)
	return games, nil
}
