package notation_test

import (
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// benchCorpus is a file of random games of every registered game, the way
// `icepost selfplay` writes them, about ICEPOST_BENCH_MB megabytes (default
// 1) for the mixed corpus and a quarter of that for each game alone. The
// corpus is made once per test binary.
var benchCorpus corpora

type corpora struct {
	once   sync.Once
	all    corpus
	byGame map[string]corpus
	err    error
}

type corpus struct {
	src   []byte
	plies int
	games int
}

func benchMB() float64 {
	if v, err := strconv.ParseFloat(os.Getenv("ICEPOST_BENCH_MB"), 64); err == nil && v > 0 {
		return v
	}
	return 1
}

// makeCorpus writes games of gs, round robin, until the file holds size
// bytes.
func makeCorpus(gs []rules.Game, size int, seed uint64) (corpus, error) {
	rng := rand.New(rand.NewPCG(seed, 0xbe4c))
	var c corpus
	starts := make([]rules.State, len(gs))
	for i, g := range gs {
		s, err := g.Start(rules.Options{})
		if err != nil {
			return c, err
		}
		starts[i] = s
	}
	for i := 0; len(c.src) < size; i++ {
		start := starts[i%len(starts)]
		tags := []notation.Tag{{Name: "Event", Value: "icepost bench"}, {Name: "Round", Value: strconv.Itoa(i + 1)}}
		for k := 1; k <= start.Options().Seats; k++ {
			tags = append(tags, notation.Tag{Name: "Player" + strconv.Itoa(k), Value: "Random " + strconv.Itoa(k)})
		}
		moves := notation.RandomGame(start, rng, 1000)
		rec, err := notation.FromMoves(tags, start, moves)
		if err != nil {
			return c, err
		}
		if i > 0 {
			c.src = append(c.src, '\n')
		}
		c.src = notation.AppendFormat(c.src, rec)
		c.plies += len(moves)
		c.games++
	}
	return c, nil
}

func sharedCorpus(b *testing.B) *corpora {
	benchCorpus.once.Do(func() {
		size := int(benchMB() * (1 << 20))
		benchCorpus.all, benchCorpus.err = makeCorpus(games.All(), size, 1)
		if benchCorpus.err != nil {
			return
		}
		benchCorpus.byGame = map[string]corpus{}
		for _, g := range games.All() {
			c, err := makeCorpus([]rules.Game{g}, size/4, 2)
			if err != nil {
				benchCorpus.err = err
				return
			}
			benchCorpus.byGame[g.Name()] = c
		}
	})
	if benchCorpus.err != nil {
		b.Fatal(benchCorpus.err)
	}
	return &benchCorpus
}

// benchCorpora runs f on the mixed corpus ("all") and on each game's.
func benchCorpora(b *testing.B, f func(b *testing.B, c corpus)) {
	cs := sharedCorpus(b)
	b.Run("all", func(b *testing.B) { f(b, cs.all) })
	for _, g := range games.All() {
		b.Run(g.Name(), func(b *testing.B) { f(b, cs.byGame[g.Name()]) })
	}
}

func report(b *testing.B, c corpus) {
	b.ReportMetric(float64(c.plies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
	b.ReportMetric(float64(c.games)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkParse reads the corpus without replaying it: the syntax alone.
// MB/s comes from SetBytes.
func BenchmarkParse(b *testing.B) {
	benchCorpora(b, func(b *testing.B, c corpus) {
		b.SetBytes(int64(len(c.src)))
		for b.Loop() {
			recs, errs := notation.Parse("bench.txt", c.src)
			if len(errs) > 0 || len(recs) != c.games {
				b.Fatalf("%d records, %d errors (%v)", len(recs), len(errs), errs.Err())
			}
		}
		report(b, c)
	})
}

// BenchmarkCheck parses and replays the corpus, as `icepost validate` does.
func BenchmarkCheck(b *testing.B) {
	benchCorpora(b, func(b *testing.B, c corpus) {
		b.SetBytes(int64(len(c.src)))
		for b.Loop() {
			gs, errs := notation.Check("bench.txt", c.src)
			if len(errs) > 0 || len(gs) != c.games {
				b.Fatalf("%d games, %d errors (%v)", len(gs), len(errs), errs.Err())
			}
		}
		report(b, c)
	})
}

// TestBenchCorpus keeps the corpus generator honest in plain `go test`: a
// small corpus of every game checks clean.
func TestBenchCorpus(t *testing.T) {
	c, err := makeCorpus(games.All(), 20<<10, 3)
	if err != nil {
		t.Fatal(err)
	}
	gs, errs := notation.Check("bench.txt", c.src)
	if err := errs.Err(); err != nil {
		t.Fatal(err)
	}
	if len(gs) != c.games {
		t.Fatalf("%d games checked, %d written", len(gs), c.games)
	}
	plies := 0
	for _, g := range gs {
		plies += len(g.Moves)
	}
	if plies != c.plies {
		t.Fatalf("%d plies replayed, %d written", plies, c.plies)
	}
}
