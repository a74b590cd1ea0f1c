package engine

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"time"

	"icepost/rules"
)

// A Mover chooses the moves of one seat: a Player, or Random.
type Mover interface {
	Move(ctx context.Context, s rules.State) (Choice, error)
}

// Random plays a uniformly random legal move: the yardstick of level 1.
type Random struct{ rng *rand.Rand }

// NewRandom returns a Random player with its own seed.
func NewRandom(seed uint64) *Random { return &Random{rng: rand.New(rand.NewPCG(seed, 0x7a4d))} }

// Move returns a random legal move of s.
func (r *Random) Move(_ context.Context, s rules.State) (Choice, error) {
	ms := s.Moves(nil)
	if len(ms) == 0 {
		return Choice{}, rules.ErrGameOver
	}
	return Choice{Move: ms[r.rng.IntN(len(ms))]}, nil
}

// Spec names a player of a match: "random", or "bot:LEVEL".
type Spec string

// ParseSpec reads "random" or "bot:N" (N from 1 to MaxLevel).
func ParseSpec(s string) (Spec, error) {
	if s == "random" {
		return Spec(s), nil
	}
	if lv, ok := strings.CutPrefix(s, "bot:"); ok {
		if n, err := strconv.Atoi(lv); err == nil && n >= 1 && n <= MaxLevel {
			return Spec(s), nil
		}
	}
	return "", fmt.Errorf("player %q: write random or bot:LEVEL, with a level from 1 to %d", s, MaxLevel)
}

// New makes the mover a spec names, for one game, with its seed; cfg gives
// the search's other settings (MoveTime, Workers, ...).
func (sp Spec) New(seed uint64, cfg Config) (Mover, error) {
	if sp == "random" {
		return NewRandom(seed), nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(string(sp), "bot:"))
	if err != nil {
		return nil, fmt.Errorf("player %q: %w", sp, ErrLevel)
	}
	cfg.Level, cfg.Seed = n, seed
	return New(cfg)
}

// PlayGame plays a game from start, seat k moved by movers[k-1], until the
// rules end it or maxPlies are played, and returns the moves.
func PlayGame(ctx context.Context, start rules.State, movers []Mover, maxPlies int) ([]rules.Move, rules.State, error) {
	var moves []rules.Move
	s := start
	for len(moves) < maxPlies && !s.Outcome().Over {
		c, err := movers[s.ToMove()-1].Move(ctx, s)
		if err != nil {
			return moves, s, err
		}
		next, err := s.Play(c.Move)
		if err != nil {
			return moves, s, fmt.Errorf("engine: seat %d chose an illegal move: %w", s.ToMove(), err)
		}
		moves = append(moves, c.Move)
		s = next
	}
	return moves, s, nil
}

// Tally is one player's results over a match.
type Tally struct {
	Player              Spec
	Wins, Draws, Losses int
	// Points is the sum of the player's results: 1 a win, a share of 1
	// for a draw (1/2 with two seats), 0 a loss.
	Points float64
	// sq is the sum of the squares of the results, for the interval.
	sq float64
	// Moves is the number of moves the player chose, Think the time they
	// took in all, and MaxThink the longest.
	Moves    int
	Think    time.Duration
	MaxThink time.Duration
}

// PerMove is the mean time the player took for a move.
func (t Tally) PerMove() time.Duration {
	if t.Moves == 0 {
		return 0
	}
	return t.Think / time.Duration(t.Moves)
}

// timed is a Mover that counts its moves and their time in a Tally.
type timed struct {
	Mover
	t *Tally
}

func (m timed) Move(ctx context.Context, s rules.State) (Choice, error) {
	start := time.Now()
	c, err := m.Mover.Move(ctx, s)
	d := time.Since(start)
	m.t.Moves++
	m.t.Think += d
	m.t.MaxThink = max(m.t.MaxThink, d)
	return c, err
}

// Games returns the number of games counted.
func (t Tally) Games() int { return t.Wins + t.Draws + t.Losses }

// Score is the mean result, from 0 to 1.
func (t Tally) Score() float64 {
	if t.Games() == 0 {
		return 0
	}
	return t.Points / float64(t.Games())
}

// Interval is the half-width of a 95% confidence interval around Score
// (normal approximation over the games' results).
func (t Tally) Interval() float64 {
	n := float64(t.Games())
	if n < 2 {
		return 1
	}
	mean := t.Points / n
	variance := (t.sq - n*mean*mean) / (n - 1)
	return 1.96 * math.Sqrt(max(variance, 0)/n)
}

// addTimes counts the moves and times of o, one game's, in t.
func (t *Tally) addTimes(o Tally) {
	t.Moves += o.Moves
	t.Think += o.Think
	t.MaxThink = max(t.MaxThink, o.MaxThink)
}

// Add counts one game's result r (as Result gives it) for the player.
func (t *Tally) Add(r float64) {
	switch {
	case r >= 1:
		t.Wins++
	case r <= 0:
		t.Losses++
	default:
		t.Draws++
	}
	t.Points += r
	t.sq += r * r
}

// A Match is games among players, one a seat, rotating the seats: in
// game g (from 0) player j sits at seat (j+g) mod seats + 1.
type Match struct {
	Players []Spec
	// Games is how many games the match has.
	Games int
	// Seed: each game's players get seeds derived from it and from the
	// game's number, so a match is repeatable and its games do not
	// depend on each other.
	Seed uint64
	// Config is the computer players' search settings (MoveTime,
	// Workers, ...); Level and Seed are each player's own.
	Config Config
	// MaxPlies: a game still going after this many plies counts as a
	// draw.
	MaxPlies int
	// Parallel is how many games are played at once (0 or 1: one after
	// another). The games are the same either way, unless MoveTime cuts
	// searches short, and Each hears of them in order.
	Parallel int
	// Each, when not nil, is told every game in the order of the match,
	// as soon as it and the games before it have ended, with the seat of
	// each player. An error from it ends the match.
	Each func(game int, seatOf []int, moves []rules.Move, final rules.State) error
}

// played is one game of a match, played.
type played struct {
	game    int
	seatOf  []int
	moves   []rules.Move
	final   rules.State
	tallies []Tally // the game's times, by player
	err     error
}

// Play plays the match from start, after the games already played (each
// given by its final position; a game not over is a draw): those are
// counted, not timed, and the match goes on with game len(done), as it
// would have without a stop. It returns each player's tally of the games
// Each was told of (all of them, without an error).
func (m *Match) Play(ctx context.Context, start rules.State, done []rules.State) ([]Tally, error) {
	seats := start.Options().Seats
	if len(m.Players) != seats {
		return nil, fmt.Errorf("engine: %d players for %d seats", len(m.Players), seats)
	}
	tallies := make([]Tally, seats)
	for j, p := range m.Players {
		tallies[j].Player = p
	}
	r := make([]float64, seats)
	for g, final := range done {
		gameResult(final, r)
		for j := range m.Players {
			tallies[j].Add(r[SeatOf(j, g, seats)-1])
		}
	}
	if len(done) >= m.Games {
		return tallies, nil
	}

	// Workers take the games in order; the games that end out of order
	// wait in ended until those before them have.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan int)
	results := make(chan played)
	workers := min(max(m.Parallel, 1), m.Games-len(done))
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for g := range next {
				results <- m.play(ctx, start, g)
			}
		})
	}
	go func() {
		defer close(next)
		for g := len(done); g < m.Games; g++ {
			select {
			case next <- g:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()

	var err error
	ended := map[int]played{}
	want := len(done)
	for p := range results {
		if err != nil {
			continue // drain: the workers stop after the game they play
		}
		ended[p.game] = p
		for err == nil {
			p, ok := ended[want]
			if !ok {
				break
			}
			delete(ended, want)
			want++
			if err = p.err; err != nil {
				break
			}
			gameResult(p.final, r)
			for j := range m.Players {
				tallies[j].Add(r[p.seatOf[j]-1])
				tallies[j].addTimes(p.tallies[j])
			}
			if m.Each != nil {
				err = m.Each(p.game, p.seatOf, p.moves, p.final)
			}
		}
		if err != nil {
			cancel()
		}
	}
	return tallies, err
}

// play plays game g of the match.
func (m *Match) play(ctx context.Context, start rules.State, g int) played {
	seats := len(m.Players)
	p := played{game: g, seatOf: make([]int, seats), tallies: make([]Tally, seats)}
	movers := make([]Mover, seats)
	for j, sp := range m.Players {
		seat := SeatOf(j, g, seats)
		p.seatOf[j] = seat
		mv, err := sp.New(m.Seed*1_000_003+uint64(g)*31+uint64(j), m.Config)
		if err != nil {
			p.err = err
			return p
		}
		movers[seat-1] = timed{mv, &p.tallies[j]}
	}
	p.moves, p.final, p.err = PlayGame(ctx, start, movers, m.MaxPlies)
	return p
}

// SeatOf is the seat of player j (from 0) in game g (from 0) of a match:
// the seats rotate.
func SeatOf(j, g, seats int) int { return (j+g)%seats + 1 }

// gameResult is each seat's result of a match's game: Result when it is
// over, else a draw (it reached the most plies).
func gameResult(final rules.State, r []float64) {
	if final.Outcome().Over {
		Result(final, r)
		return
	}
	share(r, nil)
}
