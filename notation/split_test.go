package notation

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// splitAll returns what a Splitter finds in src, read through wrap.
func splitAll(t *testing.T, src []byte, max int, wrap func(io.Reader) io.Reader) []RecordText {
	t.Helper()
	sp := NewSplitter(wrap(bytes.NewReader(src)), max)
	var out []RecordText
	for sp.Next() {
		r := sp.Record()
		r.Text = bytes.Clone(r.Text)
		out = append(out, r)
	}
	if err := sp.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

var readers = []struct {
	name string
	wrap func(io.Reader) io.Reader
}{
	{"whole", func(r io.Reader) io.Reader { return r }},
	{"byte by byte", iotest.OneByteReader},
	{"halves", iotest.HalfReader},
	{"data then EOF", iotest.DataErrReader},
}

// The records a Splitter cuts are the records the parser finds in the
// whole input, at the same lines, whatever the reads return and wherever
// they fall: a record may span any number of reads, and lines longer
// than the Splitter's buffer are read whole.
func TestSplitterFindsTheParsersRecords(t *testing.T) {
	good := "[Game \"IceSickle\"]\n[Player1 \"Ada\"]\n[Player2 \"Bob\"]\n\n1. L@c3 M@b2 2. S@a1 *\n"
	long := "[Game \"IceSickle\"]\n\n1. L@c3 {" + strings.Repeat("a long comment ", 10000) + "} M@b2 *\n" // one line of 150 kB
	src := "\uFEFF% an escape line\n\n" + good + "\n\n" +
		"[Game \"IceSickle\"]\r\n\r\n1. L@c3 {a comment\n[Game \"not a tag\"]\n} M@b2 *\r\n\n" + // a '[' line in a comment
		"% between records\n" + long + "\n" +
		"[Game \"IceSickle\"]\n\n1. L@c3 ; a { in a line comment opens nothing, nor 1-0\nM@b2 *\n[Event \"x\"]\n[Game \"IceSickle\"]\n\n1. L@c3 *\n" + // a ';' comment ends its line
		"  [Game \"IceSickle\"]\n1. L@c3 L@c3 1-0\n[Game \"IceSickle\"]\n1. L@c3 *\n" + // a tag after spaces; an illegal move
		"1. L@c3 0-1 {after the result}\n*\n" + // no tags: records after result markers
		"1. L@c3 *\n1. M@b2 *\n\n\n" // blank lines to the end
	whole, werrs := Parse("f", []byte(src))
	if len(whole) != 11 || len(werrs) != 0 {
		t.Fatalf("the whole parses into %d records, %v", len(whole), werrs)
	}
	// The last two records are one text: a comment after a result
	// marker leaves the next line in the same record's text.
	wantLines := []int{3, 10, 17, 21, 25, 29, 31, 33, 35, 36}
	for _, rd := range readers {
		t.Run(rd.name, func(t *testing.T) {
			got := splitAll(t, []byte(src), 0, rd.wrap)
			var lines []int
			var recs []*Record
			for i, r := range got {
				lines = append(lines, r.Line)
				if r.N != i+1 || r.TooLarge {
					t.Errorf("record %d: number %d, too large %v", i+1, r.N, r.TooLarge)
				}
				rs, errs := parseAt("f", r.Text, r.Line)
				if len(errs) != 0 {
					t.Fatalf("record %d: %v:\n%s", i+1, errs, r.Text)
				}
				recs = append(recs, rs...)
			}
			if !slices.Equal(lines, wantLines) {
				t.Errorf("records at lines %v, want %v", lines, wantLines)
			}
			if len(recs) != len(whole) {
				t.Fatalf("%d records, want %d", len(recs), len(whole))
			}
			for i, rec := range recs {
				if rec.Pos != whole[i].Pos || rec.String() != whole[i].String() {
					t.Errorf("record %d at %v reads as\n%s\nthe whole has it at %v as\n%s", i+1, rec.Pos, rec, whole[i].Pos, whole[i])
				}
				if len(rec.Main.Moves) == 0 {
					continue
				}
				if last, wl := rec.Main.Moves[len(rec.Main.Moves)-1], whole[i].Main.Moves[len(whole[i].Main.Moves)-1]; last.Pos != wl.Pos {
					t.Errorf("record %d: its last move at %v, in the whole at %v", i+1, last.Pos, wl.Pos)
				}
			}
		})
	}
}

// A record longer than the limit is read past, not kept, with its size; the
// records around it are read as ever, at their lines.
func TestSplitterSkipsARecordOverTheLimit(t *testing.T) {
	const limit = 1000
	rec := func(moves string) string { return "[Game \"IceSickle\"]\n\n" + moves + " *\n" }
	big := rec("1. L@c3 {" + strings.Repeat("x", 3000) + "\n" + strings.Repeat("y ", 2000) + "}")
	src := rec("1. L@c3") + "\n" + big + "\n" + rec("1. L@c3 M@b2") + "\n" + strings.Repeat("garbage ", 1000) // no newline at the end
	for _, rd := range readers {
		t.Run(rd.name, func(t *testing.T) {
			got := splitAll(t, []byte(src), limit, rd.wrap)
			if len(got) != 4 {
				t.Fatalf("%d records, want 4", len(got))
			}
			want := []struct {
				line     int
				size     int64
				tooLarge bool
			}{{1, int64(len(rec("1. L@c3"))), false}, {5, int64(len(big)), true}, {10, int64(len(rec("1. L@c3 M@b2"))), false}, {14, 8000, true}}
			for i, w := range want {
				r := got[i]
				if r.Line != w.line || r.Size != w.size || r.TooLarge != w.tooLarge || r.N != i+1 {
					t.Errorf("record %d: line %d, %d bytes, too large %v, number %d; want line %d, %d bytes, %v", i+1, r.Line, r.Size, r.TooLarge, r.N, w.line, w.size, w.tooLarge)
				}
				if r.TooLarge != (r.Text == nil) || len(r.Text) > limit {
					t.Errorf("record %d: %d bytes of text kept", i+1, len(r.Text))
				}
			}
		})
	}
}

// Stream reports a record over the limit by its number, line and size,
// and goes on with the next; errors come in input order, lines counted
// from the start, with any number of workers.
func TestStreamRefusesLargeRecordsByName(t *testing.T) {
	good := "[Game \"IceSickle\"]\n\n1. L@c3 M@b2 *\n"
	bad := "[Game \"IceSickle\"]\n\n1. L@c3 L@c3 *\n"
	big := "[Game \"IceSickle\"]\n\n1. L@c3 {" + strings.Repeat("word ", 400) + "} *\n"
	var src strings.Builder
	for i := range 200 {
		switch i % 4 {
		case 0, 1:
			src.WriteString(good)
		case 2:
			src.WriteString(bad)
		case 3:
			src.WriteString(big)
		}
		src.WriteString("\n")
	}
	for _, workers := range []int{1, 2, 8} {
		t.Run(fmt.Sprint(workers), func(t *testing.T) {
			valid := 0
			var errs ErrorList
			err := Stream(context.Background(), "f", iotest.HalfReader(strings.NewReader(src.String())), StreamOptions{MaxBytes: 1000, Workers: workers},
				func(c *Chunk) int {
					n := 0
					for _, rec := range c.Records {
						if err := Validate(rec); err != nil {
							c.Fail(rec, err)
						} else {
							n++
						}
					}
					return n
				},
				func(c *Chunk, n int) error {
					valid += n
					errs = append(errs, c.Errs...)
					return nil
				})
			if err != nil {
				t.Fatal(err)
			}
			if valid != 100 || len(errs) != 100 {
				t.Fatalf("%d valid, %d errors", valid, len(errs))
			}
			if got, want := errs[0].Error(), "f:11:9: ply 2: L@c3: c3 is occupied (seat 2 to move)"; got != want {
				t.Errorf("first error %q, want %q", got, want)
			}
			if got, want := errs[1].Error(), fmt.Sprintf("f:13:1: record 4 is %d bytes, over the limit of 1000 bytes: not parsed", len(big)); got != want {
				t.Errorf("second error %q, want %q", got, want)
			}
			if !errors.Is(errs[1], ErrTooLarge) {
				t.Errorf("%v is not ErrTooLarge", errs[1])
			}
			if !slices.IsSortedFunc(errs, func(a, b *Error) int { return a.Pos.Line - b.Pos.Line }) {
				t.Error("errors out of order")
			}
		})
	}
}

// An error quotes at most MaxQuote characters of the input, however long
// the token, the tag or the word it is about.
func TestErrorsQuoteLittleOfTheInput(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	cases := []struct{ name, src, want string }{
		{"illegal move", "[Game \"IceSickle\"]\n\n1. L@c3 " + huge + " *\n", "ply 2: " + strings.Repeat("x", MaxQuote) + "…: "},
		{"not UTF-8", "[Game \"IceSickle\"]\n\n1. L@c3 \xff" + huge + " *\n", `the word "\xff` + strings.Repeat("x", MaxQuote-1) + `…" is not valid UTF-8`},
		{"annotation", "[Game \"IceSickle\"]\n\n1. L@c3 " + strings.Repeat("!?", 1<<19) + " *\n", `"` + strings.Repeat("!?", MaxQuote/2) + `…" is not an annotation`},
		{"percent", "[Game \"IceSickle\"]\n\n1. L@c3 %" + huge + " *\n", `"%` + strings.Repeat("x", MaxQuote-1) + `…": '%' starts`},
		{"move number", "[Game \"IceSickle\"]\n\n1" + strings.Repeat("2", 1<<20) + ". L@c3 *\n", `is not a move number`},
		{"tag name", "[Game \"IceSickle\"]\n[" + huge + " \"1\"]\n[" + huge + " \"2\"]\n\n*\n", "tag " + strings.Repeat("x", MaxQuote) + "… appears twice"},
		{"tag without quotes", "[Game \"IceSickle\"]\n[" + huge + " 1]\n\n*\n", "tag " + strings.Repeat("x", MaxQuote) + "…: the value must be in double quotes"},
		{"game", "[Game \"" + huge + "\"]\n\n*\n", `unknown game "` + strings.Repeat("x", MaxQuote) + `…"`},
		{"date", "[Game \"IceSickle\"]\n[Date \"" + huge + "\"]\n\n*\n", `Date "` + strings.Repeat("x", MaxQuote) + `…"`},
		{"termination", "[Game \"IceSickle\"]\n[Termination \"" + huge + "\"]\n\n*\n", `Termination "` + strings.Repeat("x", MaxQuote) + `…"`},
		{"result tag", "[Game \"IceSickle\"]\n[Result \"" + huge + "\"]\n\n*\n", `the Result tag "` + strings.Repeat("x", MaxQuote) + `…"`},
		{"score", "[Game \"IceSickle\"]\n[Score \"" + huge + "\"]\n\n*\n", `Score "` + strings.Repeat("x", MaxQuote) + `…"`},
		{"setup", "[Game \"IceSickle\"]\n[Setup \"" + huge + "\"]\n\n*\n", `Setup: `},
		{"option", "[Game \"Pikemen\"]\n[Target \"" + huge + "\"]\n\n*\n", `Target`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errs := Check("f", []byte(c.src))
			if len(errs) == 0 {
				t.Fatal("no error")
			}
			for _, e := range errs {
				if s := e.Error(); len(s) > 400 {
					t.Errorf("an error of %d bytes: %.300s", len(s), s)
				}
			}
			if !strings.Contains(errs.Error(), c.want) {
				t.Errorf("%.400s\ndoes not say %q", errs.Error(), c.want)
			}
		})
	}
}

func TestCut(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"", 3, ""}, {"abc", 3, "abc"}, {"abcd", 3, "abc…"}, {"ééé", 3, "ééé"}, {"éééé", 3, "ééé…"},
		{"\xff\xfe\xfd\xfc", 3, "\xff\xfe\xfd…"},
	} {
		if got := Cut(c.s, c.n); got != c.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

// A megabyte of one-byte errors keeps a few errors and counts the rest,
// without a call per byte; the record after it is still read, and is
// valid.
func TestStreamKeepsFewErrorsOfGarbage(t *testing.T) {
	good := "[Game \"IceSickle\"]\n\n1. L@c3 M@b2 *\n"
	for _, garbage := range []string{"}", "$", "]", "!!! ", "\xff "} {
		src := good + "\n[Game \"IceSickle\"]\n\n1. L@c3 " + strings.Repeat(garbage, (1<<20)/len(garbage)) + " *\n\n" + good
		valid, more := 0, 0
		var errs ErrorList
		err := Stream(context.Background(), "f", strings.NewReader(src), StreamOptions{MaxErrors: 3, Workers: 2},
			func(c *Chunk) int {
				n := 0
				for _, rec := range c.Records {
					if err := Validate(rec); err == nil {
						n++
					}
				}
				return n
			},
			func(c *Chunk, n int) error {
				valid += n
				more += c.More
				errs = append(errs, c.Errs...)
				return nil
			})
		if err != nil {
			t.Fatal(err)
		}
		if valid != 2 || len(errs) != 3 || more < 1000 {
			t.Errorf("%q: %d valid, %d errors kept, %d more", garbage, valid, len(errs), more)
		}
	}
}

// ErrorPrinter prints a few errors of a record and of a file, and says
// how many it left out.
func TestErrorPrinterCaps(t *testing.T) {
	var b bytes.Buffer
	p := ErrorPrinter{W: &b, PerRecord: 2, PerFile: 6}
	chunk := func(n, line, errs, more int) *Chunk {
		c := &Chunk{File: "f", N: n, Line: line, More: more}
		for i := range errs {
			c.Errs = append(c.Errs, &Error{File: "f", Pos: Pos{line, i + 1}, Err: ErrSyntax})
		}
		return c
	}
	p.Print(chunk(1, 1, 1, 0))
	p.Print(chunk(2, 10, 3, 100))
	p.Print(chunk(3, 20, 2, 0))
	p.Print(chunk(4, 30, 3, 0))
	p.Print(chunk(5, 40, 1, 0))
	p.Done()
	want := `f:1:1: syntax error
f:10:1: syntax error
f:10:2: syntax error
f:10: ... and 101 more errors in record 2 (line 10)
f:20:1: syntax error
f:20:2: syntax error
f:30:1: syntax error
f:30: ... and 2 more errors in record 4 (line 30)
f: ... and 1 more error in 1 more record, not shown
`
	if b.String() != want {
		t.Errorf("printed\n%s\nwant\n%s", b.String(), want)
	}
	if p.Total() != 110 {
		t.Errorf("Total %d, want 110", p.Total())
	}
}

// The test files read the same through Stream with any number of
// workers as through CheckParallel (whose errors they are).
func TestStreamAgreesWithCheckOnTestFiles(t *testing.T) {
	for _, file := range []string{"testdata/fmt/selfplay.txt", "testdata/fmt/lenient.txt", "testdata/fmt/variations.txt", "testdata/errors/moves.txt", "testdata/errors/syntax.txt"} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		want := CheckParallel(file, src, 1, func(*Game) {})
		for _, workers := range []int{1, 3} {
			got, err := checkStream(file, iotest.OneByteReader(bytes.NewReader(src)), workers, func(*Game) {})
			if err != nil {
				t.Fatal(err)
			}
			if got.Error() != want.Error() || len(got) != len(want) {
				t.Errorf("%s, %d workers: %d errors\n%v\nwant %d\n%v", file, workers, len(got), got, len(want), want)
			}
		}
	}
}

// Whatever the input, the Splitter neither fails nor loses a byte's
// line: its records come in order, and when the whole input parses
// without an error, the records read one text at a time are the
// whole's, at the same places.
func FuzzSplitter(f *testing.F) {
	for _, file := range []string{"testdata/fmt/selfplay.txt", "testdata/fmt/lenient.txt", "testdata/fmt/variations.txt", "testdata/errors/moves.txt", "testdata/errors/syntax.txt"} {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src, 0)
	}
	f.Add([]byte("[Game \"IceSickle\"]\n\n1. L@c3 {a\n[b]\n} 1-0 {c}\n* ; d {\n[e]\n1-0\n"), 20)
	f.Fuzz(func(t *testing.T, src []byte, limit int) {
		limit = max(0, limit%4096)
		sp := NewSplitter(bytes.NewReader(src), limit)
		var recs []*Record
		line, size := 0, int64(0)
		for sp.Next() {
			r := sp.Record()
			if r.Line <= line || r.TooLarge != (r.Text == nil) || limit > 0 && (int64(len(r.Text)) > int64(limit) || r.TooLarge != (r.Size > int64(limit))) {
				t.Fatalf("record %d at line %d after %d, %d bytes of %d kept, too large %v", r.N, r.Line, line, len(r.Text), r.Size, r.TooLarge)
			}
			line = r.Line
			size += r.Size
			if !r.TooLarge {
				rs, _ := parseAt("f", r.Text, r.Line)
				recs = append(recs, rs...)
			}
		}
		if err := sp.Err(); err != nil || size > int64(len(src)) {
			t.Fatalf("%v; %d bytes of records in %d", err, size, len(src))
		}
		whole, errs := Parse("f", src)
		if len(errs) > 0 || limit > 0 {
			return
		}
		// The Splitter cuts at line ends: a record whose tags start in
		// the middle of a line, after the result marker of the one
		// before, is read with that one's text, and its tags on the
		// next lines are taken for the start of a record.
		lines := bytes.Split(bytes.TrimPrefix(src, []byte("\uFEFF")), []byte("\n"))
		for _, rec := range whole {
			if len(rec.Tags) > 0 {
				p := rec.Tags[0].Pos
				if len(bytes.Trim(lines[p.Line-1][:p.Col-1], " \t")) > 0 {
					return
				}
			}
		}
		if len(recs) != len(whole) {
			t.Fatalf("%d records, the whole %d", len(recs), len(whole))
		}
		for i := range recs {
			if recs[i].Pos != whole[i].Pos || recs[i].String() != whole[i].String() {
				t.Fatalf("record %d at %v, the whole's at %v", i+1, recs[i].Pos, whole[i].Pos)
			}
		}
	})
}

// A line read in pieces is classed as when read whole, and its comment
// state is CommentOpen's.
func FuzzLineClass(f *testing.F) {
	f.Add([]byte("1. L@c3 {a} M@b2 ; {x\n"), 5, false)
	f.Add([]byte("} 1-0\n"), 1, true)
	f.Add([]byte("  [Game \"x\"] {\n"), 3, false)
	f.Add([]byte("1. a {b} c {d} 1/2-1/2 \r\n"), 9, false)
	f.Fuzz(func(t *testing.T, line []byte, cut int, inBrace bool) {
		if bytes.IndexByte(line, '\n') >= 0 && bytes.IndexByte(line, '\n') < len(line)-1 {
			return // one line
		}
		cut = max(0, min(len(line), cut))
		whole := lineClass{startInBrace: inBrace, inBrace: inBrace}
		whole.scan(line, true)
		parts := lineClass{startInBrace: inBrace, inBrace: inBrace}
		parts.scan(line[:cut], true)
		parts.scan(line[cut:], cut == 0)
		if whole.kind != parts.kind || whole.inBrace != parts.inBrace || whole.endsWithResult() != parts.endsWithResult() {
			t.Fatalf("whole %+v, in two pieces %+v", whole, parts)
		}
		if (inBrace || whole.kind == 'm') && whole.inBrace != CommentOpen(line, inBrace) {
			t.Fatalf("comment open %v, CommentOpen says %v", whole.inBrace, CommentOpen(line, inBrace))
		}
		// The last word, as the scanner reads it.
		if whole.endsWithResult() {
			end := bytes.TrimRight(line, " \t\r\n\f\v")
			i := len(end)
			for i > 0 && !notWord[end[i-1]] && !isSpaceByte(end[i-1]) {
				i--
			}
			if !validResult(string(end[i:])) && string(end[i:]) != "*" {
				t.Fatalf("ends with %q, not a result", end[i:])
			}
		}
	})
}
