package notation

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"testing/iotest"
)

// CheckStream finds what CheckParallel finds, at the same lines, on an
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
	for len(src) < 3*streamWindow {
		src = append(src, good...)
		src = append(src, '\n')
		src = append(src, bad...)
		src = append(src, "\n{ a comment\n\n[Game \"not a tag\"]\n}\n"...)
		src = append(src, '\n')
	}
	var n1, n2 atomic.Int64
	want := CheckParallel("f", src, 2, func(*Game) { n1.Add(1) })
	got, err := CheckStream("f", iotest.HalfReader(bytes.NewReader(src)), 2, func(*Game) { n2.Add(1) })
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

// ValidateStream, which keeps no positions, finds exactly what CheckStream
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
		want, err := CheckStream(file, bytes.NewReader(src), 2, func(*Game) { kept++ })
		if err != nil {
			t.Fatal(err)
		}
		valid, got, err := ValidateStream(file, bytes.NewReader(src), 2)
		if err != nil {
			t.Fatal(err)
		}
		if valid != kept {
			t.Errorf("%s: ValidateStream found %d valid records, CheckStream %d", file, valid, kept)
		}
		if got.Error() != want.Error() {
			t.Errorf("%s: ValidateStream says\n%v\nCheckStream says\n%v", file, got, want)
		}
	}
}
