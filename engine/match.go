package engine

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
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

// Match plays n games from start among players, one a seat, rotating the
// seats: in game g (from 0) player j sits at seat (j+g) mod seats + 1. A
// game still going after maxPlies counts as a draw. each, when not nil,
// is told every game as it ends, with the seat of each player. Seeds are
// derived from seed, so a match is repeatable.
func Match(ctx context.Context, start rules.State, players []Spec, n int, seed uint64, cfg Config, maxPlies int,
	each func(game int, seatOf []int, moves []rules.Move, final rules.State) error) ([]Tally, error) {
	return MatchFrom(ctx, start, players, nil, n, seed, cfg, maxPlies, each)
}

// MatchFrom is Match resumed after the games played, each given by its
// final position (a game not over is a draw): they are counted (not
// timed), and the match goes on with game len(played), as it would have
// without the stop.
func MatchFrom(ctx context.Context, start rules.State, players []Spec, played []rules.State, n int, seed uint64, cfg Config, maxPlies int,
	each func(game int, seatOf []int, moves []rules.Move, final rules.State) error) ([]Tally, error) {
	seats := start.Options().Seats
	if len(players) != seats {
		return nil, fmt.Errorf("engine: %d players for %d seats", len(players), seats)
	}
	tallies := make([]Tally, seats)
	for j, p := range players {
		tallies[j].Player = p
	}
	r := make([]float64, seats)
	for g, final := range played {
		gameResult(final, r)
		for j := range players {
			tallies[j].Add(r[SeatOf(j, g, seats)-1])
		}
	}
	for g := len(played); g < n; g++ {
		movers := make([]Mover, seats)
		seatOf := make([]int, seats)
		for j, p := range players {
			seat := SeatOf(j, g, seats)
			seatOf[j] = seat
			m, err := p.New(seed*1_000_003+uint64(g)*31+uint64(j), cfg)
			if err != nil {
				return nil, err
			}
			movers[seat-1] = timed{m, &tallies[j]}
		}
		moves, final, err := PlayGame(ctx, start, movers, maxPlies)
		if err != nil {
			return tallies, err
		}
		gameResult(final, r)
		for j := range players {
			tallies[j].Add(r[seatOf[j]-1])
		}
		if each != nil {
			if err := each(g, seatOf, moves, final); err != nil {
				return tallies, err
			}
		}
	}
	return tallies, nil
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
