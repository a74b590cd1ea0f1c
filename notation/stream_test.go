package notation

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"testing/iotest"

	"icepost/rules"
	"icepost/rules/games"
)

// checkStream finds what CheckParallel finds, at the same lines, on an
// input many windows long, whatever the reads return.
func TestCheckStreamMatchesCheck(t *testing.T) {
	good, err := os.ReadFile("testdata/fmt/selfplay.txt")
	if err != nil {
		t.Fatal(err)
	}
	bad, err := os.ReadFile("testdata/errors/moves.txt")
	if err != nil {
		t.Fatal(err)
	}
	var src []byte
	for len(src) < 3*streamBudget {
		src = append(src, good...)
		src = append(src, '\n')
		src = append(src, bad...)
		src = append(src, "\n{ a comment\n\n[Game \"not a tag\"]\n}\n"...)
		src = append(src, '\n')
	}
	var n1, n2 atomic.Int64
	want := CheckParallel("f", src, 2, func(*Game) { n1.Add(1) })
	got, err := checkStream("f", iotest.HalfReader(bytes.NewReader(src)), 2, func(*Game) { n2.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	str := func(l ErrorList) []string {
		var out []string
		for _, e := range l {
			out = append(out, e.Error())
		}
		return out
	}
	if n1.Load() != n2.Load() || n1.Load() == 0 {
		t.Errorf("valid games: stream %d, whole %d", n2.Load(), n1.Load())
	}
	if !slices.Equal(str(got), str(want)) {
		t.Errorf("errors differ: stream %d, whole %d; first stream %v, whole %v", len(got), len(want), got[:min(3, len(got))], want[:min(3, len(want))])
	}
	// One worker, replaying each record as it is read, finds the same.
	var n3 int64
	seq := CheckFunc("f", src, func(*Game) { n3++ })
	if n3 != n1.Load() {
		t.Errorf("valid games: one worker %d, two %d", n3, n1.Load())
	}
	if !slices.Equal(str(seq), str(want)) {
		t.Errorf("errors differ: one worker %d, two %d", len(seq), len(want))
	}
}

// validateStream, which keeps no positions, finds exactly what checkStream
// finds in every test file: the same errors, the same valid records.
func TestValidateStreamAgreesWithCheckStream(t *testing.T) {
	var files []string
	for _, glob := range []string{"testdata/fmt/*.txt", "testdata/errors/*.txt", "testdata/fuzz/*/*"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	if len(files) < 3 {
		t.Fatalf("only %d test files", len(files))
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		kept := 0
		want, err := checkStream(file, bytes.NewReader(src), 2, func(*Game) { kept++ })
		if err != nil {
			t.Fatal(err)
		}
		valid, got, err := validateStream(file, bytes.NewReader(src), 2)
		if err != nil {
			t.Fatal(err)
		}
		if valid != kept {
			t.Errorf("%s: validateStream found %d valid records, checkStream %d", file, valid, kept)
		}
		if got.Error() != want.Error() {
			t.Errorf("%s: validateStream says\n%v\ncheckStream says\n%v", file, got, want)
		}
	}
}

// Walk finds what Replay finds: the same verdict, the same positions in
// the same order, and with canonical the same record Canonicalize makes.
func TestWalkAgreesWithReplay(t *testing.T) {
	var files []string
	for _, glob := range []string{"testdata/fmt/*.txt", "testdata/errors/*.txt", "testdata/fuzz/*/*"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	// And random games of every game and seat count, some cut short.
	var random []byte
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range games.Names() {
		game, _ := games.Lookup(name)
		for seats := 2; seats <= 4; seats++ {
			for _, board := range []string{"", "hex"} {
				start, err := game.Start(rules.Options{Seats: seats, Board: board})
				if err != nil {
					continue
				}
				for k := range 3 {
					rec, err := FromMoves(nil, start, RandomGame(start, rng, 40+100*k))
					if err != nil {
						t.Fatal(err)
					}
					random = AppendFormat(random, rec)
					random = append(random, '\n')
				}
			}
		}
	}
	valid, rewritten := 0, 0
	for _, file := range append(files, "random") {
		src, err := os.ReadFile(file)
		if file == "random" {
			src, err = random, nil
		}
		if err != nil {
			t.Fatal(err)
		}
		recs, _ := Parse(file, src)
		walked, _ := Parse(file, src)
		for i, rec := range recs {
			w := walked[i]
			g, rerr := Replay(rec)
			var codes []string
			res, werr := Walk(w, true, func(ply int, s rules.State) {
				if ply != len(codes) {
					t.Fatalf("%s: Walk visited ply %d after %d positions", file, ply, len(codes))
				}
				codes = append(codes, s.Code())
			})
			if (rerr == nil) != (werr == nil) || rerr != nil && rerr.Error() != werr.Error() {
				t.Errorf("%s record %d: Replay says %v, Walk %v", file, i, rerr, werr)
				continue
			}
			if rerr != nil {
				continue
			}
			valid++
			before := string(AppendFormat(nil, rec))
			g.Canonicalize()
			if string(AppendFormat(nil, rec)) != before {
				rewritten++
			}
			if len(codes) != len(g.States) {
				t.Fatalf("%s record %d: Walk visited %d positions, Replay kept %d", file, i, len(codes), len(g.States))
			}
			for ply, s := range g.States {
				if codes[ply] != s.Code() {
					t.Fatalf("%s record %d ply %d: Walk saw %s, Replay %s", file, i, ply, codes[ply], s.Code())
				}
			}
			if res.Final.Code() != g.Final().Code() || res.Options != g.Options || res.Rules.Name() != g.Rules.Name() {
				t.Errorf("%s record %d: Walk ends at %s %+v, Replay at %s %+v", file, i, res.Final.Code(), res.Options, g.Final().Code(), g.Options)
			}
			if got, want := string(AppendFormat(nil, w)), string(AppendFormat(nil, rec)); got != want {
				t.Errorf("%s record %d: Walk made\n%s\nCanonicalize\n%s", file, i, got, want)
			}
		}
	}
	if valid < 20 || rewritten == 0 {
		t.Fatalf("only %d valid records, %d of them not canonical: the test data no longer tests Walk", valid, rewritten)
	}
	t.Logf("%d valid records, %d rewritten", valid, rewritten)
}
