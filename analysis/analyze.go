package analysis

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"time"

	"icepost/engine"
	"icepost/notation"
)

// DefaultLevel is the engine level an analysis uses unless told.
const DefaultLevel = 3

// Options says how Analyze searches. The zero value of each field means
// its default.
type Options struct {
	Level int    // the engine's level; default DefaultLevel
	Seed  uint64 // makes the analysis repeatable (engine.Config.Seed)
	// Workers is the number of goroutines that grow the Trees, which
	// share the level's playouts; default the cores Go may use. Several
	// analyses at once (one a core) want 1 each. It changes the speed,
	// never the report.
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

// markFor is the mark of a loss, read in hundredths as the record
// writes the estimates (0.15 - 0.05 is a mistake, though in floating
// point it is a hair under 0.10).
func markFor(loss float64) Mark {
	switch c := math.Round(loss * 100); {
	case c >= math.Round(BlunderLoss*100):
		return Blunder
	case c >= math.Round(MistakeLoss*100):
		return Mistake
	case c >= math.Round(InaccuracyLoss*100):
		return Inaccuracy
	}
	return Good
}

// Trees is the number of search trees of an analysis, whatever the
// number of Workers: each tree grows from its own seed and its share of
// the level's playouts, so one worker or several give the same report.
const Trees = 2

// The fresh playouts through each of the two moves compared
// (engine.Sequential): independent searches of a quarter of the level's
// base number each (chunk), from the position after the move, each
// search's mean a sample; the level's base number first (four
// searches), then as many again, doubling, while the two means do not
// yet say on which side of each mark's threshold the loss falls with
// 95% confidence (decided), up to eight times the base number at the
// mistake's threshold (fewer at the others: inaccuracyMost). Two
// moves clearly apart, or the same move, cost what they cost before
// (the base number each); only a loss near a threshold costs more.
const (
	freshChunk, freshMin, freshMax = 0.25, 1.0, 8.0
	confidence                     = 1.96 // z of a two-sided 95% interval
	// candidates is how many of the search's most visited moves are
	// measured for the engine's move (engine.Sequential.Candidates).
	candidates = 4
	// searchCap caps the search, in base numbers: it proposes the
	// candidates, and their fresh samples judge them. A position with
	// more than 3 x 10 legal moves is searched less than a bot of the
	// level would (Pikemen: 96 playouts a move at level 3, 120 moves):
	// 8 base numbers cost Pikemen's analysis a quarter to a third more
	// CPU, for marks about as stable (docs/engine.md, "Stable marks").
	searchCap = 3
)

// decided reports whether the loss between two samples (best, then the
// move played) is on one side of every threshold with the confidence.
// Each standard error is the larger of the one its samples show and
// the one of chunkSD: read from a few samples (four searches a move at
// first), the spread is often much too small, and a loss its first
// samples had stretched was taken as decided (the same ply then marked
// ? at one seed and ?! at others). The interval is Student's t at the
// samples' degrees of freedom, for the same reason. The loss is marked
// as written, in hundredths, so a threshold t is crossed from t - 0.005
// on.
func decided(best, played engine.Sample) bool {
	d := best.Mean() - played.Mean()
	se := math.Hypot(stdErr(best), stdErr(played))
	z := studentT975(int(best.N + played.N - 2))
	for _, t := range []struct{ loss, most float64 }{{InaccuracyLoss, inaccuracyMost}, {MistakeLoss, freshMax}, {BlunderLoss, blunderMost}} {
		if math.Abs(d-(t.loss-0.005)) < z*se && best.N*freshChunk < t.most {
			return false
		}
	}
	return true
}

// inaccuracyMost is how many base numbers of fresh playouts a move gets
// at most to tell an inaccuracy (?!) from a good move: a third of the
// plies of a game sit near that threshold, and with freshMax there
// they cost more than all the rest (Pikemen).
//
// blunderMost is the same for a blunder (??) against a mistake (?):
// either is a mark (stable marks are the issue's, marks that stay).
const inaccuracyMost, blunderMost = 2, 4

// chunkSD is the least spread decided assumes of one sample (the mean
// result of one search of freshChunk base numbers): measured at level 3
// on positions of IceFrogs and Pikemen, 0.026 to 0.038 between searches
// of one position.
const chunkSD = 0.03

// stdErr is x's standard error, at least chunkSD's for as many samples.
func stdErr(x engine.Sample) float64 {
	return max(x.StdErr(), chunkSD/math.Sqrt(max(x.N, 1)))
}

// studentT975 is the 97.5% quantile of Student's t with df degrees of
// freedom: the half-width, in standard errors, of a two-sided 95%
// interval read from df+1 or df+2 samples (confidence beyond 30).
func studentT975(df int) float64 {
	table := [...]float64{1: 12.71, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	switch {
	case df < 1:
		return math.Inf(1)
	case df < len(table):
		return table[df]
	}
	return confidence
}

// gameSeed is the seed an analysis of g searches with, from the seed
// asked: mixed with the game (its start position and moves), so that
// every command that analyses the same game with the same seed (icepost
// analyze, archive analyze, the analysis by mail, review) makes the same
// report, and two games do not share their random numbers.
func gameSeed(seed uint64, g *notation.Game) uint64 {
	h := fnv.New64a()
	h.Write([]byte(g.States[0].Code()))
	for k := range g.Moves {
		h.Write([]byte{0})
		h.Write([]byte(g.Record.Main.Moves[k].Token))
	}
	x := seed ^ h.Sum64()
	// splitmix64's finaliser: nearby seeds far apart.
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// Analyze analyses rec's main line: it replays the record and judges
// each move against the move the engine prefers in the same position
// (a search of the level's size, then fresh playouts through each of the
// two moves until they decide, engine.Player.Measure), one Player going
// down the game so that each search starts from the tree below the move
// played. judge (judge.go) says what makes a mark; docs/engine.md
// ("Analysis") says why.
//
// The level's playouts are shared among Trees trees, run by the Workers:
// more cores make it faster, not deeper, and the report does not depend
// on their number. The search's seed is Seed mixed with the game, so any
// caller that passes the same Seed and Level for the same game gets the
// same report. Analyze is safe to call from several goroutines (each
// call has its own Player). It ends with ctx's error when ctx ends.
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
	p, err := engine.New(engine.Config{Level: opt.Level, Seed: gameSeed(opt.Seed, g), Workers: opt.Workers,
		Trees: Trees, MoveTime: 24 * time.Hour, Shared: true, MaxIterations: searchCap * engine.Base(opt.Level)})
	if err != nil {
		return nil, err
	}
	n := len(g.Moves)
	r := &Report{Level: opt.Level, Seats: g.Options.Seats, Moves: make([]Move, n)}
	j := &judge{ctx: ctx, p: p, level: opt.Level, exact: newExact(ctx, g.States)}
	for k := range n {
		a, err := j.move(k, g.States[k], g.Moves[k], g.States[k+1])
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
