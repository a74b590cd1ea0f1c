package notation_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"icepost/notation"
	"icepost/rules"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// canonical checks and formats src the way `icepost fmt` does.
func canonical(t *testing.T, file string, src []byte) []byte {
	t.Helper()
	gs, errs := notation.Check(file, src)
	if err := errs.Err(); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	recs := make([]*notation.Record, len(gs))
	for i, g := range gs {
		g.Canonicalize()
		recs[i] = g.Record
	}
	var buf bytes.Buffer
	notation.FormatAll(&buf, recs)
	return buf.Bytes()
}

func TestFormatGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/fmt/*.txt")
	if len(files) == 0 {
		t.Fatal("no testdata/fmt/*.txt")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := canonical(t, file, src)
			golden := strings.TrimSuffix(file, ".txt") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("fmt %s differs from %s:\n%s", file, golden, got)
			}
			// Formatting the canonical form changes nothing.
			if again := canonical(t, golden, want); !bytes.Equal(again, want) {
				t.Errorf("fmt is not idempotent on %s:\n%s", golden, again)
			}
			for i, line := range strings.Split(string(got), "\n") {
				if len(line) > notation.LineWidth && !strings.HasPrefix(line, "[") {
					t.Errorf("%s line %d is %d characters long", golden, i+1, len(line))
				}
			}
		})
	}
}

var errorMarker = regexp.MustCompile(`\{ERROR ("(?:[^"\\]|\\.)*")\}`)

// TestErrors reads records in which every expected error is written as
// {ERROR "text"} on the line where the error must be reported.
func TestErrors(t *testing.T) {
	files, _ := filepath.Glob("testdata/errors/*.txt")
	valid := map[string]int{"moves.txt": 0, "syntax.txt": 1}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			gs, errs := notation.Check(file, src)
			if want, ok := valid[filepath.Base(file)]; ok && len(gs) != want {
				t.Errorf("%d valid records, want %d", len(gs), want)
			}
			matched := make([]bool, len(errs))
			for i, line := range strings.Split(string(src), "\n") {
				for _, m := range errorMarker.FindAllStringSubmatch(line, -1) {
					want, err := strconv.Unquote(m[1])
					if err != nil {
						t.Fatalf("line %d: bad marker %s", i+1, m[0])
					}
					found := false
					for k, e := range errs {
						if e.Pos.Line == i+1 && strings.Contains(e.Error(), want) && !matched[k] {
							matched[k], found = true, true
							break
						}
					}
					if !found {
						t.Errorf("%s:%d: no error containing %q; got:\n%v", file, i+1, want, list(errs))
					}
				}
			}
			for k, e := range errs {
				if !matched[k] {
					t.Errorf("unexpected error: %v", e)
				}
				if !strings.HasPrefix(e.Error(), file+":"+strconv.Itoa(e.Pos.Line)+":") {
					t.Errorf("error %q does not start with file:line:col", e)
				}
			}
		})
	}
}

func list(errs notation.ErrorList) string {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString("\t" + e.Error() + "\n")
	}
	return b.String()
}

func TestErrorKinds(t *testing.T) {
	tests := []struct {
		src  string
		kind error
		ply  int
		tok  string
	}{
		{"[Game \"IceSickle\"]\n\nL@c3 L@c3 *\n", notation.ErrMove, 2, "L@c3"},
		{"[Game \"IceSickle\"]\n\n1. L@c3 3. M@b2 *\n", notation.ErrMoveNumber, 2, "M@b2"},
		{"[Game \"IceSickle\"]\n\nL@c3 1-0\n", notation.ErrResult, 1, ""},
		{"[Game \"Go\"]\n\n*\n", notation.ErrGame, 0, ""},
		{"[Game \"IceSickle\"]\n\nL@c3\n", notation.ErrSyntax, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			_, errs := notation.Check("x.txt", []byte(tt.src))
			if len(errs) != 1 {
				t.Fatalf("errors %v, want one", errs)
			}
			e := errs[0]
			if !errors.Is(errs.Err(), tt.kind) || e.Ply != tt.ply || e.Token != tt.tok {
				t.Errorf("got %v (ply %d, token %q), want %v at ply %d token %q", e, e.Ply, e.Token, tt.kind, tt.ply, tt.tok)
			}
		})
	}
}

func TestRecoveryReadsTheNextRecord(t *testing.T) {
	src := "[Game \"IceSickle\"]\n\n1. L@c3 (M@b2\n\n" + // broken: variation not closed
		"[Game \"IceSickle\"]\n[Event \"kept\"]\n\n1. L@c3 *\n\n" +
		"[Game \"IceSickle\"\n\n1. L@c3 *\n\n" + // broken tag
		"[Game \"IceSickle\"]\n[Event \"also kept\"]\n\n1. M@c3 *\n"
	gs, errs := notation.Check("x.txt", []byte(src))
	if len(errs) != 2 || len(gs) != 2 {
		t.Fatalf("%d records and errors %v; want 2 and 2", len(gs), errs)
	}
	for i, want := range []string{"kept", "also kept"} {
		if v, _ := gs[i].Record.Tag("Event"); v != want {
			t.Errorf("record %d: Event %q, want %q", i, v, want)
		}
	}
}

func TestResultStrings(t *testing.T) {
	tests := []struct {
		out   rules.Outcome
		seats int
		want  string
	}{
		{rules.Outcome{}, 2, "*"},
		{rules.Outcome{Over: true, Winner: 1}, 2, "1-0"},
		{rules.Outcome{Over: true, Winner: 2}, 2, "0-1"},
		{rules.Outcome{Over: true}, 2, "1/2-1/2"},
		{rules.Outcome{Over: true, Winner: 2}, 3, "0-1-0"},
		{rules.Outcome{Over: true}, 4, "1/2-1/2-1/2-1/2"},
	}
	for _, tt := range tests {
		if got := notation.ResultString(tt.out, tt.seats); got != tt.want {
			t.Errorf("ResultString(%v, %d) = %q, want %q", tt.out, tt.seats, got, tt.want)
		}
		w, decided, err := notation.ParseResult(tt.want, tt.seats)
		if err != nil || decided != tt.out.Over || w != tt.out.Winner {
			t.Errorf("ParseResult(%q) = %d, %v, %v", tt.want, w, decided, err)
		}
	}
	if _, _, err := notation.ParseResult("1-1", 2); err == nil {
		t.Error("ParseResult(1-1) gave no error")
	}
}

func TestTagOrderAndEscapes(t *testing.T) {
	src := "[Zulu \"z\"]\n[Result \"*\"]\n[Player2 \"B\"]\n[Alpha \"a \\\"q\\\" \\\\\"]\n[Player1 \"A\"]\n[Date \"2026.??.??\"]\n[Game \"ICESICKLE\"]\n\n*\n"
	got := string(canonical(t, "x.txt", []byte(src)))
	want := "[Game \"IceSickle\"]\n[Date \"2026.??.??\"]\n[Player1 \"A\"]\n[Player2 \"B\"]\n[Result \"*\"]\n[Alpha \"a \\\"q\\\" \\\\\"]\n[Zulu \"z\"]\n\n*\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// FuzzParse checks that parsing never panics and that the formatter's
// output reads back to the same records: parse, format, parse, format
// gives the same text.
func FuzzParse(f *testing.F) {
	for _, glob := range []string{"testdata/fmt/*.txt", "testdata/errors/*.txt"} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	f.Add([]byte("[Game \"IceSickle\"]\n\nh1(NW) g4-e6(U) {c} ; d\n(a (b (c))) $3 !? *"))
	f.Fuzz(func(t *testing.T, src []byte) {
		recs, _ := notation.Parse("fuzz", src)
		var first bytes.Buffer
		notation.FormatAll(&first, recs)
		again, errs := notation.Parse("formatted", first.Bytes())
		if err := errs.Err(); err != nil {
			t.Fatalf("formatted output does not parse: %v\n%s", err, first.Bytes())
		}
		if len(again) != len(recs) {
			t.Fatalf("%d records, %d after formatting", len(recs), len(again))
		}
		var second bytes.Buffer
		notation.FormatAll(&second, again)
		if !bytes.Equal(first.Bytes(), second.Bytes()) {
			t.Fatalf("format is not stable:\n%s\n---\n%s", first.Bytes(), second.Bytes())
		}
		notation.Check("fuzz", src) // the replay must not panic either
	})
}
