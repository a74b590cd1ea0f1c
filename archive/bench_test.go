package archive

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// genGames writes n random games of every registered game (round robin)
// as a record file. Players come from a pool of 1000 names so that a
// player search finds a realistic share of games.
func genGames(tb testing.TB, n int, seed uint64) []byte {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x1ce))
	var starts []rules.State
	for _, g := range games.All() {
		s, err := g.Start(rules.Options{})
		if err != nil {
			tb.Fatal(err)
		}
		starts = append(starts, s)
	}
	var buf []byte
	for i := range n {
		start := starts[i%len(starts)]
		seats := start.Options().Seats
		tags := []notation.Tag{
			{Name: "Event", Value: "bench " + strconv.Itoa(i%50)},
			{Name: "Date", Value: fmt.Sprintf("%04d.%02d.%02d", 2000+i%25, 1+i%12, 1+i%28)},
			{Name: "Round", Value: strconv.Itoa(i + 1)},
		}
		for k := 1; k <= seats; k++ {
			tags = append(tags, notation.Tag{Name: "Player" + strconv.Itoa(k), Value: "Player " + strconv.Itoa(rng.IntN(1000))})
		}
		rec, err := notation.FromMoves(tags, start, notation.RandomGame(start, rng, 300))
		if err != nil {
			tb.Fatal(err)
		}
		if i%10 == 0 {
			rec.Main.Moves[0].After = []string{"a quiet opening " + strconv.Itoa(i)}
		}
		if i > 0 {
			buf = append(buf, '\n')
		}
		buf = notation.AppendFormat(buf, rec)
	}
	return buf
}

func benchGames() int {
	if v, err := strconv.Atoi(os.Getenv("ICEPOST_BENCH_GAMES")); err == nil && v > 0 {
		return v
	}
	return 2000
}

// benchDB is one archive of benchGames() games shared by the search
// benchmarks.
var benchDB struct {
	once sync.Once
	a    *Archive
	dir  string
	src  []byte
	err  error
}

func sharedBenchDB(b *testing.B) *Archive {
	benchDB.once.Do(func() {
		benchDB.dir, benchDB.err = os.MkdirTemp("", "icepost-bench")
		if benchDB.err != nil {
			return
		}
		benchDB.src = genGames(b, benchGames(), 1)
		benchDB.a, benchDB.err = Open(context.Background(), filepath.Join(benchDB.dir, "bench.db"))
		if benchDB.err != nil {
			return
		}
		_, benchDB.err = benchDB.a.Import(context.Background(), bytes.NewReader(benchDB.src), "bench.pgn", ImportOptions{})
	})
	if benchDB.err != nil {
		b.Fatal(benchDB.err)
	}
	return benchDB.a
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDB.a != nil {
		benchDB.a.Close()
		os.RemoveAll(benchDB.dir)
	}
	os.Exit(code)
}

// BenchmarkImport imports ICEPOST_BENCH_GAMES random games (default 2000)
// into a new archive per iteration and reports games/s and database bytes
// per game. Run it at 100,000 with
//
//	ICEPOST_BENCH_GAMES=100000 go test -run XXX -bench . -benchtime 1x ./archive/
func BenchmarkImport(b *testing.B) {
	n := benchGames()
	src := genGames(b, n, 1)
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	var elapsed time.Duration
	var size, positions int64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir, err := os.MkdirTemp("", "icepost-bench")
		if err != nil {
			b.Fatal(err)
		}
		path := filepath.Join(dir, "import.db")
		a, err := Open(context.Background(), path)
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		t0 := time.Now()
		batch, _ := strconv.Atoi(os.Getenv("ICEPOST_BENCH_BATCH"))
		st, err := a.Import(context.Background(), bytes.NewReader(src), "bench.pgn", ImportOptions{BatchSize: batch})
		elapsed += time.Since(t0)
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		// Random games can repeat (short ones especially): those are
		// duplicates.
		if st.Imported+st.Duplicates != n || st.Quarantined != 0 {
			b.Fatalf("%v, want %d games", st, n)
		}
		if err := a.DB().QueryRow(`SELECT sum(plies + 1) FROM games`).Scan(&positions); err != nil {
			b.Fatal(err)
		}
		if _, err := a.DB().Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
			b.Fatal(err)
		}
		a.Close()
		fi, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		size = fi.Size()
		// The search benchmarks use the last archive built here.
		kept := false
		benchDB.once.Do(func() {
			benchDB.dir = dir
			benchDB.a, benchDB.err = Open(context.Background(), path)
			kept = true
		})
		if !kept {
			os.RemoveAll(dir)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(n)*float64(b.N)/elapsed.Seconds(), "games/s")
	b.ReportMetric(float64(size)/float64(n), "dbbytes/game")
	b.ReportMetric(float64(len(src))/float64(n), "recordbytes/game")
	b.ReportMetric(float64(positions)/float64(n), "positions/game")
	b.ReportMetric(float64(size)/float64(positions), "dbbytes/position")
}

func benchSearch(b *testing.B, q func(a *Archive) Query) {
	a := sharedBenchDB(b)
	query := q(a)
	ctx := context.Background()
	b.ResetTimer()
	found := 0
	for i := 0; i < b.N; i++ {
		res, err := a.Search(ctx, query)
		if err != nil {
			b.Fatal(err)
		}
		found = len(res)
	}
	b.ReportMetric(float64(found), "found")
}

// BenchmarkSearchPosition looks for games that reached a position of the
// middle of a stored game (the first 20 found).
func BenchmarkSearchPosition(b *testing.B) {
	benchSearch(b, func(a *Archive) Query {
		st, err := a.Get(context.Background(), int64(benchGames()/2))
		if err != nil {
			b.Fatal(err)
		}
		g, err := replayText("", st.Record)
		if err != nil {
			b.Fatal(err)
		}
		return Query{Position: g.States[len(g.States)/3].Code(), Limit: 20}
	})
}

// BenchmarkSearchPlayer lists a player's wins (the first 20).
func BenchmarkSearchPlayer(b *testing.B) {
	benchSearch(b, func(*Archive) Query { return Query{Player: "player 17", Result: "win", Limit: 20} })
}

// BenchmarkSearchText finds games by words in comments (the first 20).
func BenchmarkSearchText(b *testing.B) {
	benchSearch(b, func(*Archive) Query { return Query{Text: "quiet 500", Limit: 20} })
}

// BenchmarkSearchMoves finds games that began with the moves of a stored
// game's first three plies (the first 20).
func BenchmarkSearchMoves(b *testing.B) {
	benchSearch(b, func(a *Archive) Query {
		st, err := a.Get(context.Background(), 1)
		if err != nil {
			b.Fatal(err)
		}
		g, err := replayText("", st.Record)
		if err != nil {
			b.Fatal(err)
		}
		return Query{Moves: fmt.Sprint(g.Record.MainTokens()[0], " ", g.Record.MainTokens()[1]), Limit: 20}
	})
}

// BenchmarkExplore is the opening explorer from the start of the first
// game of the list (every game of that kind reached it), and from the
// position after a stored game's second ply.
func BenchmarkExplore(b *testing.B) {
	a := sharedBenchDB(b)
	ctx := context.Background()
	st, err := a.Get(ctx, 1)
	if err != nil {
		b.Fatal(err)
	}
	g, err := replayText("", st.Record)
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		pos  rules.State
	}{{"start", g.States[0]}, {"ply2", g.States[2]}} {
		b.Run(c.name, func(b *testing.B) {
			n := 0
			for i := 0; i < b.N; i++ {
				moves, err := a.Explore(ctx, Query{}, c.pos)
				if err != nil {
					b.Fatal(err)
				}
				n = 0
				for _, m := range moves {
					n += m.Games
				}
			}
			b.ReportMetric(float64(n), "games")
		})
	}
}
