package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// icepost analyze writes records that validate and that fmt leaves
// alone; analysing its output again changes nothing; a record that does
// not replay is reported with its position, and the others are still
// analysed.
func TestAnalyzeCommand(t *testing.T) {
	const good = "[Game \"IceSickle\"]\n[Player1 \"Ada\"]\n[Player2 \"Bob\"]\n\n1. L@c3 {a bold start} M@b2 ? (M@b1) 2. S@a1 *\n"
	const bad = "[Game \"IceSickle\"]\n\n1. L@c3 L@c3 *\n"
	in := writeFile(t, "games.txt", good+"\n"+bad+"\n"+strings.Replace(good, "Ada", "Cy", 1))
	out := filepath.Join(t.TempDir(), "out.txt")
	code, stdout, stderr := icepost(t, "", "analyze", "-level", "1", "-seed", "4", "-workers", "1", "-o", out, in)
	if code != exitInvalid || stdout != "" || !strings.Contains(stderr, "games.txt:9:9: ply 2: L@c3") {
		t.Fatalf("analyze with a broken record: exit %d, out %q, errors %q", code, stdout, stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if strings.Count(text, `[Annotator "icepost level 1"]`) != 2 || strings.Count(text, "[%eval") < 6 || !strings.Contains(text, "{a bold start}") || !strings.Contains(text, "(1... M@b1)") {
		t.Fatalf("analyze wrote:\n%s", text)
	}
	if code, vout, verr := icepost(t, "", "validate", out); code != exitOK || !strings.Contains(vout, "2 valid records, 0 errors") {
		t.Errorf("validate: exit %d %q %q", code, vout, verr)
	}
	if code, f, _ := icepost(t, "", "fmt", out); code != exitOK || f != text {
		t.Errorf("fmt changed analyze's output:\n%s\nto\n%s", text, f)
	}
	// Already analysed at level 1: written as it is, whatever the seed.
	if code, again, errs := icepost(t, "", "analyze", "-level", "1", "-seed", "5", out); code != exitOK || again != text {
		t.Errorf("analyze twice: exit %d %q\n%s\nthen\n%s", code, errs, text, again)
	}
	if code, _, errs := icepost(t, "", "analyze", "-level", "9", out); code != exitUsage || !strings.Contains(errs, "levels go from 1 to 5") {
		t.Errorf("-level 9: exit %d %q", code, errs)
	}
}

// analyze refuses a record longer than analyzeMaxPlies, before replaying
// it, and analyses the others. Two Pikemen reorienting a piece back and
// forth make a legal game of any length.
func TestAnalyzeRefusesLongRecords(t *testing.T) {
	cycle := []string{"d1:N", "a4:N", "d1:U", "a4:U"}
	var b strings.Builder
	b.WriteString("[Game \"Pikemen\"]\n\n")
	for i := range analyzeMaxPlies + 1 {
		if i%2 == 0 {
			fmt.Fprintf(&b, "%d. ", i/2+1)
		}
		b.WriteString(cycle[i%4])
		b.WriteString(" \n"[:1+i%8/7])
	}
	b.WriteString(" *\n")
	long := b.String()
	const short = "[Game \"IceSickle\"]\n\n1. L@c3 M@b2 *\n"
	in := writeFile(t, "long.txt", long+"\n"+short)
	if code, out, errs := icepost(t, "", "validate", in); code != exitOK || out != "2 valid records, 0 errors\n" {
		t.Fatalf("validate: exit %d %q %q", code, out, errs)
	}
	code, out, errs := icepost(t, "", "analyze", "-level", "1", "-workers", "1", in)
	want := fmt.Sprintf("%s:1:1: record 1 has %d plies; analyze takes records of up to %d\n", in, analyzeMaxPlies+1, analyzeMaxPlies)
	if code != exitInvalid || errs != want || strings.Count(out, "[Game ") != 1 || !strings.Contains(out, `[Game "IceSickle"]`) || !strings.Contains(out, "[%eval") {
		t.Errorf("analyze: exit %d %q\n%s", code, errs, out)
	}
}

// cancelOnWrite is a standard output that ends the command's context at
// its first write, as Ctrl-C would while the second record is analysed.
type cancelOnWrite struct {
	strings.Builder
	cancel context.CancelCauseFunc
}

func (w *cancelOnWrite) Write(p []byte) (int, error) {
	w.cancel(errors.New("signal interrupt"))
	return w.Builder.Write(p)
}

// Stopped, analyze writes no more: standard output holds the records
// analysed until then, each whole, and -o's file is left as it was.
func TestAnalyzeStops(t *testing.T) {
	const rec = "[Game \"IceSickle\"]\n\n1. L@c3 M@b2 2. S@a1 *\n"
	in := writeFile(t, "games.txt", rec+"\n"+rec+"\n"+rec)
	ctx, cancel := context.WithCancelCause(context.Background())
	out := &cancelOnWrite{cancel: cancel}
	var errb strings.Builder
	code := run(ctx, []string{"analyze", "-level", "1", "-workers", "1", in}, strings.NewReader(""), out, &errb)
	if code != exitUsage || strings.Count(out.String(), "[Game ") != 1 || !strings.HasSuffix(out.String(), " *\n") ||
		!strings.Contains(errb.String(), "stopped (signal interrupt) after 1 record: standard output holds the records analysed before it") {
		t.Errorf("exit %d, %q\n%s", code, errb.String(), out.String())
	}
	if code, _, _ := icepost(t, out.String(), "validate", "-"); code != exitOK {
		t.Errorf("the record written does not validate: %q", out.String())
	}

	o := writeFile(t, "out.txt", "as it was\n")
	ctx, cancel = context.WithCancelCause(context.Background())
	cancel(errors.New("signal interrupt"))
	errb.Reset()
	code = run(ctx, []string{"analyze", "-level", "1", "-o", o, in}, strings.NewReader(""), &errb, &errb)
	if b, _ := os.ReadFile(o); code != exitUsage || string(b) != "as it was\n" || !strings.Contains(errb.String(), o+" is left as it was") {
		t.Errorf("-o: exit %d, %q, the file holds %q", code, errb.String(), b)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(o), ".icepost-*")); len(left) > 0 {
		t.Errorf("analyze -o left %v", left)
	}
}
