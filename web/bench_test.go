package web

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"icepost/archive"
	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// The pages' speed over a large archive. ICEPOST_BENCH_GAMES sets its
// size (default 2000); ICEPOST_WEB_BENCH_DB names a file to keep it in
// between runs (made when missing). The figures of docs/web.md come from
//
//	ICEPOST_BENCH_GAMES=100000 ICEPOST_WEB_BENCH_DB=/tmp/web100k.db \
//	  go test -run XXX -bench . -benchtime 200x -cpu 2 ./web/
//
// Each page benchmark reports the median time of one request
// (median-ms) besides Go's mean; BenchmarkGamePageParallel reports game
// pages per second with GOMAXPROCS as -cpu sets it. Requests go to the
// handler in process (no network), so the figures are the site's own
// work.

func benchGames() int {
	if v, err := strconv.Atoi(os.Getenv("ICEPOST_BENCH_GAMES")); err == nil && v > 0 {
		return v
	}
	return 2000
}

var bench struct {
	once  sync.Once
	site  *Site
	h     http.Handler
	n     int
	code  string // a position a few plies into many IceSickle games
	err   error
	close func()
}

func benchSite(b *testing.B) (*Site, http.Handler) {
	bench.once.Do(func() {
		n := benchGames()
		path := os.Getenv("ICEPOST_WEB_BENCH_DB")
		if path == "" {
			dir, err := os.MkdirTemp("", "icepost-web-bench")
			if err != nil {
				bench.err = err
				return
			}
			path = filepath.Join(dir, "bench.db")
			bench.close = func() { os.RemoveAll(dir) }
		}
		_, statErr := os.Stat(path)
		a, err := archive.Open(context.Background(), path)
		if err != nil {
			bench.err = err
			return
		}
		if statErr != nil {
			start := time.Now()
			if err := importBench(a, n); err != nil {
				bench.err = err
				return
			}
			fmt.Fprintf(os.Stderr, "web bench: %d games imported into %s in %v\n", n, path, time.Since(start).Round(time.Second))
		}
		bench.n, err = a.Count(context.Background(), archive.Query{})
		if err != nil {
			bench.err = err
			return
		}
		bench.site, bench.err = New(a, nil, nil)
		if bench.err == nil {
			bench.h = bench.site.Handler()
		}
		// A position after two plies of IceSickle's most played opening.
		g, _ := games.Lookup("IceSickle")
		s, _ := g.Start(rules.Options{})
		for range 2 {
			ms, err := a.Explore(context.Background(), archive.Query{Game: "IceSickle", Limit: 1}, s)
			if err != nil || len(ms) == 0 {
				break
			}
			s, _, _ = rules.Play(s, ms[0].Move)
		}
		bench.code = s.Code()
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench.site, bench.h
}

// importBench imports n random games of every game in turn, between 1000
// players, dated over 25 years, a tenth with a comment.
func importBench(a *archive.Archive, n int) error {
	const chunk = 5000
	rng := rand.New(rand.NewPCG(1, 0x1ce))
	var starts []rules.State
	for _, g := range games.All() {
		s, err := g.Start(rules.Options{})
		if err != nil {
			return err
		}
		starts = append(starts, s)
	}
	for done := 0; done < n; done += chunk {
		var buf []byte
		for i := done; i < min(done+chunk, n); i++ {
			start := starts[i%len(starts)]
			tags := []notation.Tag{
				{Name: "Event", Value: "bench " + strconv.Itoa(i%50)},
				{Name: "Date", Value: fmt.Sprintf("%04d.%02d.%02d", 2000+i%25, 1+i%12, 1+i%28)},
				{Name: "Round", Value: strconv.Itoa(i + 1)},
			}
			for k := 1; k <= start.Options().Seats; k++ {
				tags = append(tags, notation.Tag{Name: "Player" + strconv.Itoa(k), Value: "Player " + strconv.Itoa(rng.IntN(1000))})
			}
			rec, err := notation.FromMoves(tags, start, notation.RandomGame(start, rng, 300))
			if err != nil {
				return err
			}
			if i%10 == 0 {
				rec.Main.Moves[0].After = []string{"a quiet opening " + strconv.Itoa(i)}
			}
			buf = notation.AppendFormat(buf, rec)
			buf = append(buf, '\n')
		}
		if _, err := a.Import(context.Background(), strings.NewReader(string(buf)), "bench.rec", archive.ImportOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// benchPage requests the paths in turn, b.N times in all, and reports
// the median time of one request.
func benchPage(b *testing.B, paths func(i int) string) { benchPageGzip(b, false, paths) }

// benchPageGzip is benchPage; with gzip, each request says it takes
// gzip, as browsers do, and the time includes compressing the answer.
func benchPageGzip(b *testing.B, gzip bool, paths func(i int) string) {
	_, h := benchSite(b)
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		path := paths(i)
		r := httptest.NewRequest("GET", path, nil)
		if gzip {
			r.Header.Set("Accept-Encoding", "gzip")
		}
		w := httptest.NewRecorder()
		t0 := time.Now()
		h.ServeHTTP(w, r)
		times = append(times, time.Since(t0))
		if w.Code != 200 {
			b.Fatalf("%s: %d\n%s", path, w.Code, w.Body.String())
		}
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(bench.n), "games")
}

func BenchmarkSearchPage(b *testing.B) {
	queries := []string{
		"/search",
		"/search?game=Pikemen",
		"/search?player=Player+17",
		"/search?player=Player+17&result=win&sort=date",
		"/search?text=quiet&game=IceLady",
		"/search?event=bench+7&since=2010&until=2015",
	}
	b.Run("mixed", func(b *testing.B) {
		benchPage(b, func(i int) string { return queries[i%len(queries)] })
	})
	for _, q := range queries {
		b.Run(strings.TrimPrefix(q, "/search"), func(b *testing.B) {
			benchPage(b, func(int) string { return q })
		})
	}
	// Pages of as many games as the ones above show at a few thousand
	// games (a player's ten), and words that do select games of the game
	// (the text search above selects none: no IceLady game has the
	// word): how the archive's part grows, without more rows to show.
	for _, q := range []string{"/search?player=Player+17&per=10", "/search?text=quiet&game=IceSickle"} {
		b.Run(strings.TrimPrefix(q, "/search"), func(b *testing.B) {
			benchPage(b, func(int) string { return q })
		})
	}
	// Oldest first by date, undated games last: no index reads that
	// order at once (archive.SearchOrdered reads it in two parts).
	b.Run("?sort=oldest&page=3", func(b *testing.B) {
		benchPage(b, func(int) string { return "/search?sort=oldest&page=3" })
	})
}

func BenchmarkGamePage(b *testing.B) {
	benchSite(b)
	rng := rand.New(rand.NewPCG(3, 3))
	benchPage(b, func(int) string {
		id := 1 + rng.IntN(bench.n)
		return "/game/" + strconv.Itoa(id) + "?ply=" + strconv.Itoa(rng.IntN(6))
	})
}

// BenchmarkGamePageGzip: the same pages gzipped, as a browser gets them.
func BenchmarkGamePageGzip(b *testing.B) {
	benchSite(b)
	rng := rand.New(rand.NewPCG(3, 3))
	benchPageGzip(b, true, func(int) string {
		id := 1 + rng.IntN(bench.n)
		return "/game/" + strconv.Itoa(id) + "?ply=" + strconv.Itoa(rng.IntN(6))
	})
}

func BenchmarkExplorerPage(b *testing.B) {
	benchSite(b)
	b.Run("after-2-plies", func(b *testing.B) {
		benchPage(b, func(int) string { return "/position?code=" + url.QueryEscape(bench.code) })
	})
	b.Run("start", func(b *testing.B) {
		benchPage(b, func(int) string { return "/position?game=IceSickle" })
	})
}

// BenchmarkGamePageParallel: game pages per second, requests from as
// many goroutines as GOMAXPROCS (-cpu) allows.
func BenchmarkGamePageParallel(b *testing.B) {
	_, h := benchSite(b)
	b.ResetTimer()
	start := time.Now()
	var seed sync.Mutex
	k := uint64(0)
	b.RunParallel(func(pb *testing.PB) {
		seed.Lock()
		k++
		rng := rand.New(rand.NewPCG(k, 9))
		seed.Unlock()
		for pb.Next() {
			r := httptest.NewRequest("GET", "/game/"+strconv.Itoa(1+rng.IntN(bench.n)), nil)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != 200 {
				b.Errorf("%d", w.Code)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "pages/s")
}

// BenchmarkPlayerPages: one player's page (results by game, opponents,
// the latest games by date) and the list of players found by a part of
// their name.
func BenchmarkPlayerPages(b *testing.B) {
	b.Run("player", func(b *testing.B) {
		benchPage(b, func(int) string { return "/player/Player%2017" })
	})
	b.Run("players?q", func(b *testing.B) {
		benchPage(b, func(int) string { return "/players?q=layer+17" })
	})
}
