package archive

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// Blocks give back what was packed, whatever the spread of the values.
func TestBlockRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 7, 300} {
		for _, k := range []uint8{0, 5, 40, 63} {
			es := make([]entry, n)
			for i := range es {
				es[i] = entry{hash: rng.Uint64(), game: rng.Int64N(1 << 40), ply: rng.Uint32N(1000), code: rng.Uint32()}
				if i > 0 && rng.IntN(4) == 0 {
					es[i].hash = es[i-1].hash // repeated positions
				}
			}
			slices.SortFunc(es, entryCmp)
			b := encodeBlock(nil, es, k)
			var got []entry
			if err := decodeBlock(b, func(e entry) bool { got = append(got, e); return true }); err != nil {
				t.Fatalf("n %d k %d: %v", n, k, err)
			}
			if !slices.Equal(got, es) {
				t.Fatalf("n %d k %d: round trip differs", n, k)
			}
			if blockRice(b) != k {
				t.Fatalf("blockRice %d, want %d", blockRice(b), k)
			}
			// Cut short, a block is an error, not a panic.
			for cut := 0; cut < len(b); cut += 1 + len(b)/13 {
				decodeBlock(b[:cut], func(entry) bool { return true })
			}
		}
	}
}

// Many small imports make many runs, which are merged; every search
// still finds exactly the games, and verify agrees with the index.
func TestIndexRunsMerge(t *testing.T) {
	a, _ := openTemp(t)
	ctx := context.Background()
	var gs []testGame
	for i := range 20 {
		gs = append(gs, makeGame(t, uint64(100+i), 0, []string{"A", "B"}, "", "", nil, ""))
	}
	for _, g := range gs {
		if _, err := a.Import(ctx, strings.NewReader(g.text), "x.rec", ImportOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	var runs, maxRunEntries int
	a.DB().QueryRow(`SELECT count(*), max(entries) FROM pos_runs`).Scan(&runs, &maxRunEntries)
	if runs >= 20 {
		t.Errorf("%d runs after 20 imports: none merged", runs)
	}
	for i, g := range gs {
		for _, ply := range []int{0, 1, len(g.states) / 2, len(g.states) - 1} {
			want := 0
			for _, h := range gs {
				for _, s := range h.states {
					if s.Code() == g.states[ply].Code() {
						want++
						break
					}
				}
			}
			n, err := a.Count(ctx, Query{Position: g.states[ply].Code()})
			if err != nil || n != want {
				t.Errorf("game %d ply %d: %d games, want %d (%v)", i, ply, n, want, err)
			}
		}
	}
	if c, f, err := a.verify(ctx, func(id int64, err error) { t.Errorf("game %d: %v", id, err) }); c != 20 || f != 0 || err != nil {
		t.Errorf("verify %d %d %v", c, f, err)
	}
	// The explorer from the start counts every game once.
	moves, err := a.Explore(ctx, Query{}, gs[0].states[0])
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, m := range moves {
		total += m.Games
	}
	if total != 20 {
		t.Errorf("explorer: %d games, want 20", total)
	}
	// An entry with the wrong move (the same number of entries) is
	// reported.
	var id int64
	var data []byte
	if err := a.DB().QueryRow(`SELECT id, data FROM pos_blocks ORDER BY id LIMIT 1`).Scan(&id, &data); err != nil {
		t.Fatal(err)
	}
	var es []entry
	decodeBlock(data, func(e entry) bool { es = append(es, e); return true })
	es[0].code ^= 1
	if _, err := a.DB().Exec(`UPDATE pos_blocks SET data = ? WHERE id = ?`, encodeBlock(nil, es, blockRice(data)), id); err != nil {
		t.Fatal(err)
	}
	if _, f, _ := a.verify(ctx, nil); f != 1 {
		t.Errorf("verify found %d games wrong with one entry's move changed, want 1", f)
	}
	es[0].code ^= 1
	a.DB().Exec(`UPDATE pos_blocks SET data = ? WHERE id = ?`, encodeBlock(nil, es, blockRice(data)), id)
	// A damaged index is reported.
	if _, err := a.DB().Exec(`DELETE FROM pos_blocks WHERE id = (SELECT max(id) FROM pos_blocks)`); err != nil {
		t.Fatal(err)
	}
	if _, f, _ := a.verify(ctx, nil); f == 0 {
		t.Error("verify found nothing wrong with a block missing")
	}
}

// sortEntries sorts like entryCmp whether its input is in (game, ply)
// order (the radix sort alone) or not (the check and the fallback).
func TestSortEntries(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{10, 5000, 70000} {
		for _, ordered := range []bool{true, false} {
			es := make([]entry, n)
			for i := range es {
				es[i] = entry{hash: r.Uint64() % uint64(n/3+1) * 0x9e3779b97f4a7c15, game: int64(i / 7), ply: uint32(i % 7), code: uint32(i)}
				if !ordered {
					es[i].game = int64(r.IntN(n))
				}
			}
			want := slices.Clone(es)
			slices.SortFunc(want, entryCmp)
			got, _ := sortEntries(es, nil)
			if !slices.Equal(got, want) {
				t.Errorf("%d entries, ordered %v: not sorted", n, ordered)
			}
		}
	}
}

// The loser tree gives the entries of any number of sorted runs in order.
func TestLoserTree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for k := 1; k <= 33; k++ {
		runs := make([][]entry, k)
		var all []entry
		for i := range runs {
			for range rng.IntN(50) {
				e := entry{hash: rng.Uint64N(64), game: int64(rng.IntN(8)), ply: uint32(rng.IntN(4))}
				runs[i] = append(runs[i], e)
				all = append(all, e)
			}
			slices.SortFunc(runs[i], entryCmp)
		}
		slices.SortFunc(all, entryCmp)
		cs := make([]*runCursor, k)
		live := make([]bool, k)
		pos := make([]int, k)
		for i := range cs {
			cs[i] = &runCursor{}
			if live[i] = len(runs[i]) > 0; live[i] {
				cs[i].cur = runs[i][0]
			}
		}
		tr := newLoserTree(cs, live)
		var got []entry
		for i := tr.winner(); live[i]; i = tr.winner() {
			got = append(got, cs[i].cur)
			pos[i]++
			if live[i] = pos[i] < len(runs[i]); live[i] {
				cs[i].cur = runs[i][pos[i]]
			}
			tr.replay()
		}
		if !slices.Equal(got, all) {
			t.Fatalf("%d runs: merged %d entries out of order or lost (of %d)", k, len(got), len(all))
		}
	}
}

// A merge of 32 runs picks each entry through the loser tree.
func BenchmarkLoserTree(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const k, n = 32, 50000
	runs := make([][]entry, k)
	for i := range runs {
		for range n {
			runs[i] = append(runs[i], entry{hash: rng.Uint64(), game: rng.Int64N(1 << 20)})
		}
		slices.SortFunc(runs[i], entryCmp)
	}
	b.ResetTimer()
	for range b.N {
		cs := make([]*runCursor, k)
		live := make([]bool, k)
		pos := make([]int, k)
		for i := range cs {
			cs[i] = &runCursor{cur: runs[i][0]}
			live[i] = true
		}
		tr := newLoserTree(cs, live)
		for i := tr.winner(); live[i]; i = tr.winner() {
			pos[i]++
			if live[i] = pos[i] < n; live[i] {
				cs[i].cur = runs[i][pos[i]]
			}
			tr.replay()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*k*n), "ns/entry")
}

// Packing a block of a run at a million games (38-bit gaps, 20-bit
// games and moves).
func BenchmarkEncodeBlock(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	es := make([]entry, 360)
	h := uint64(0)
	for i := range es {
		h += rng.Uint64N(1 << 39)
		es[i] = entry{hash: h, game: rng.Int64N(1 << 20), ply: rng.Uint32N(300), code: rng.Uint32N(1 << 20)}
	}
	var buf []byte
	for range b.N {
		buf = encodeBlock(buf[:0], es, 38)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(es)), "ns/entry")
}
