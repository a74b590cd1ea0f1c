package notation_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
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
	// files, when set, are read in turn instead of src; size is their
	// total length.
	files []corpus
	size  int
}

// parts returns the inputs to read in one iteration, and their total size.
func (c corpus) parts() ([]corpus, int) {
	if c.files != nil {
		return c.files, c.size
	}
	return []corpus{c}, len(c.src)
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
// When ICEPOST_BENCH_CORPUS names a folder, it runs f on the record files
// (*.txt) in it instead, as "files": bench/run points it at the corpus that
// `icepost validate` reads, so that both figures are of the same input.
func benchCorpora(b *testing.B, f func(b *testing.B, c corpus)) {
	if dir := os.Getenv("ICEPOST_BENCH_CORPUS"); dir != "" {
		fs := fileCorpora(b, dir)
		b.Run("files", func(b *testing.B) { f(b, fs) })
		return
	}
	cs := sharedCorpus(b)
	b.Run("all", func(b *testing.B) { f(b, cs.all) })
	for _, g := range games.All() {
		b.Run(g.Name(), func(b *testing.B) { f(b, cs.byGame[g.Name()]) })
	}
}

// fileCorpora reads the record files of dir, each a corpus of its own that
// the benchmark reads one after the other (a file's games are dropped
// before the next is read, as `icepost validate` does).
func fileCorpora(b *testing.B, dir string) corpus {
	names, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil || len(names) == 0 {
		b.Fatalf("ICEPOST_BENCH_CORPUS=%s: no *.txt record files (%v)", dir, err)
	}
	var all corpus
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		recs, errs := notation.Parse(name, src)
		if err := errs.Err(); err != nil {
			b.Fatal(err)
		}
		c := corpus{src: src, games: len(recs)}
		for _, r := range recs {
			c.plies += len(r.Main.Moves)
		}
		all.files = append(all.files, c)
		all.games += c.games
		all.plies += c.plies
		all.size += len(src)
	}
	return all
}

func report(b *testing.B, c corpus) {
	b.ReportMetric(float64(c.plies)*float64(b.N)/b.Elapsed().Seconds(), "plies/s")
	b.ReportMetric(float64(c.games)*float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkParse reads the corpus without replaying it: the syntax alone.
// MB/s comes from SetBytes.
func BenchmarkParse(b *testing.B) {
	benchCorpora(b, func(b *testing.B, c corpus) {
		parts, size := c.parts()
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, p := range parts {
				recs, errs := notation.Parse("bench.txt", p.src)
				if len(errs) > 0 || len(recs) != p.games {
					b.Fatalf("%d records, %d errors (%v)", len(recs), len(errs), errs.Err())
				}
			}
		}
		report(b, c)
	})
}

// BenchmarkCheck parses and replays the corpus, as `icepost validate` does.
func BenchmarkCheck(b *testing.B) {
	benchCorpora(b, func(b *testing.B, c corpus) {
		parts, size := c.parts()
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, p := range parts {
				gs, errs := notation.Check("bench.txt", p.src)
				if len(errs) > 0 || len(gs) != p.games {
					b.Fatalf("%d games, %d errors (%v)", len(gs), len(errs), errs.Err())
				}
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

// BenchmarkParseMove decodes the tokens of one random playout of each
// game against the positions they were played from, as the replay does:
// one op is one token, so ns/op and allocs/op are per ply. Play adds
// applying the move (rules.Play), the whole of the replay's work per ply.
func BenchmarkParseMove(b *testing.B) {
	for _, g := range games.All() {
		start, err := g.Start(rules.Options{})
		if err != nil {
			b.Fatal(err)
		}
		moves := notation.RandomGame(start, rand.New(rand.NewPCG(4, 0xbe4c)), 1000)
		states := make([]rules.State, len(moves))
		toks := make([]string, len(moves))
		s := start
		for i, m := range moves {
			states[i], toks[i] = s, s.FormatMove(m)
			if s, err = s.Play(m); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(g.Name(), func(b *testing.B) {
			i := 0
			for b.Loop() {
				if _, err := states[i].ParseMove(toks[i]); err != nil {
					b.Fatal(err)
				}
				if i++; i == len(toks) {
					i = 0
				}
			}
		})
		b.Run(g.Name()+"/Play", func(b *testing.B) {
			i := 0
			for b.Loop() {
				if _, _, err := rules.Play(states[i], toks[i]); err != nil {
					b.Fatal(err)
				}
				if i++; i == len(toks) {
					i = 0
				}
			}
		})
	}
}
