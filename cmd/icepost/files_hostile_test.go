package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"icepost/archive"
	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// garbage writes size bytes of one line of noise that the scanner finds
// many errors in (a byte of it, on its own, is about one error).
func garbage(t *testing.T, path string, size int) {
	t.Helper()
	const noise = "}$]!!! ?? \xff\xfe(a)){{[x\"%12.-0/ "
	rng := rand.New(rand.NewPCG(3, 4))
	b := make([]byte, size)
	for i := range b {
		b[i] = noise[rng.IntN(len(noise))]
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// goodRecords writes n valid records of about size bytes each: random
// games of every game, each move with a comment, as an analysed record
// has.
func goodRecords(t *testing.T, path string, n, size int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	rng := rand.New(rand.NewPCG(1, 2))
	all := games.All()
	var buf []byte
	for i := range n {
		start, err := all[i%len(all)].Start(rules.Options{Seats: 2})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := notation.FromMoves([]notation.Tag{{Name: "Event", Value: fmt.Sprintf("game %d", i+1)}}, start, notation.RandomGame(start, rng, 300))
		if err != nil {
			t.Fatal(err)
		}
		buf = notation.AppendFormat(buf[:0], rec)
		if moves := rec.Main.Moves; len(moves) > 0 && len(buf) < size {
			words := (size - len(buf)) / len(moves) / 8
			comment := strings.TrimSpace(strings.Repeat("[%eval] ", max(1, words)))
			for _, m := range moves {
				m.After = append(m.After, comment)
			}
			buf = notation.AppendFormat(buf[:0], rec)
		}
		if i > 0 {
			w.WriteByte('\n')
		}
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

const (
	goodRecord = "[Game \"IceSickle\"]\n[Player1 \"Ada\"]\n[Player2 \"Bob\"]\n\n1. L@c3 M@b2 2. S@a1 *\n"
	// bigRecord is a valid record longer than the archive takes.
	bigRecord = "[Game \"IceSickle\"]\n\n1. L@c3 {"
)

func bigValidRecord() string {
	return bigRecord + strings.Repeat("a long comment ", archive.MaxRecordBytes/15+10) + "} *\n"
}

// A record longer than the archive takes is refused by its number, line
// and size, and the records around it are read as ever: validate counts
// them, fmt writes nothing (it never writes half a file), analyze
// analyses the others.
func TestRecordOverTheLimitIsRefused(t *testing.T) {
	big := bigValidRecord()
	f := writeFile(t, "games.txt", goodRecord+"\n"+big+"\n"+goodRecord)
	want := fmt.Sprintf("games.txt:7:1: record 2 is %d bytes, over the limit of %d bytes", len(big), archive.MaxRecordBytes)
	code, out, errs := icepost(t, "", "validate", f)
	if code != exitInvalid || !strings.Contains(errs, want) || out != "2 valid records, 1 error\n" || len(errs) > 300 {
		t.Errorf("validate: exit %d %q\n%.500s", code, out, errs)
	}
	code, out, errs = icepost(t, "", "fmt", f)
	if code != exitInvalid || out != "" || !strings.Contains(errs, want) {
		t.Errorf("fmt: exit %d %.100q\n%.500s", code, out, errs)
	}
	before, _ := os.ReadFile(f)
	if code, _, _ := icepost(t, "", "fmt", "-w", f); code != exitInvalid {
		t.Errorf("fmt -w: exit %d", code)
	}
	if after, _ := os.ReadFile(f); string(after) != string(before) {
		t.Error("fmt -w rewrote a file with a record over the limit")
	}
	code, out, errs = icepost(t, "", "analyze", "-level", "1", "-workers", "1", f)
	if code != exitInvalid || !strings.Contains(errs, want) || strings.Count(out, `[Annotator "icepost level 1"]`) != 2 {
		t.Errorf("analyze: exit %d\n%.500s\n%s", code, errs, out)
	}
	// Standard input is read the same way.
	code, out, errs = icepost(t, goodRecord+big, "validate", "-")
	if code != exitInvalid || out != "1 valid record, 1 error\n" || !strings.Contains(errs, "<stdin>:6:1: record 2 is") {
		t.Errorf("validate -: exit %d %q\n%.500s", code, out, errs)
	}
}

// Garbage gives a screenful of errors, not megabytes: at most a few a
// record and a few a file, each quoting at most 80 characters of the
// input, and a line that counts the rest; the count of errors is still
// every one.
func TestGarbageGivesAScreenfulOfErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var b strings.Builder
	for b.Len() < 2<<20 {
		switch rng.IntN(4) {
		case 0:
			b.WriteString("[Game \"IceSickle\"]\n")
		case 1:
			b.WriteString(strings.Repeat("}", rng.IntN(5000)) + "\n")
		case 2:
			b.WriteString("1. L@c3 \xff" + strings.Repeat("é", rng.IntN(50000)) + " *\n")
		case 3:
			b.WriteString(strings.Repeat("!?$ ", rng.IntN(1000)) + "\n")
		}
	}
	f := writeFile(t, "garbage.txt", b.String())
	code, out, errs := icepost(t, "", "validate", f)
	lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
	if code != exitInvalid || len(errs) > 4096 || len(lines) > errorsPerFile+5 {
		t.Fatalf("validate garbage: exit %d, %d bytes of errors in %d lines:\n%.5000s", code, len(errs), len(lines), errs)
	}
	for _, l := range lines {
		if len(l) > 400 {
			t.Errorf("an error line of %d bytes: %.300s", len(l), l)
		}
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, f+": ... and ") || !strings.HasSuffix(last, "more records, not shown") {
		t.Errorf("the last line is %q", last)
	}
	var n int
	if _, err := fmt.Sscanf(out, "0 valid records, %d errors", &n); err != nil || n < 10000 {
		t.Errorf("validate says %q", out)
	}
	t.Logf("%d bytes of garbage: %d bytes of errors; %s", b.Len(), len(errs), strings.TrimSpace(out))
}

// An error names a long token by its first 80 characters: a token of
// half a megabyte makes an error of a line.
func TestLongTokenErrorIsALine(t *testing.T) {
	token := "L@" + strings.Repeat("c", 500<<10)
	f := writeFile(t, "token.txt", "[Game \"IceSickle\"]\n\n1. L@c3 "+token+" *\n")
	for _, cmd := range []string{"validate", "fmt", "analyze"} {
		code, _, errs := icepost(t, "", cmd, f)
		if code != exitInvalid || len(errs) > 400 || !strings.Contains(errs, "token.txt:3:9: ply 2: L@"+strings.Repeat("c", notation.MaxQuote-2)+"…: ") {
			t.Errorf("%s: exit %d, %d bytes of errors: %.500s", cmd, code, len(errs), errs)
		}
	}
}

// fmt streams: a file longer than what it keeps in memory (spoolMemory)
// comes out whole, to standard output or in place, and the same as a
// file of one record, canonical.
func TestFmtLongFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "long.txt")
	goodRecords(t, f, 300, 20<<10)
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(src) <= spoolMemory {
		t.Fatalf("only %d bytes", len(src))
	}
	code, out, errs := icepost(t, "", "fmt", f)
	if code != exitOK || out != string(src) {
		t.Fatalf("fmt: exit %d, %d bytes out of %d\n%s", code, len(out), len(src), errs)
	}
	messy := strings.ReplaceAll(string(src), "\n\n[", "\n\n\n% a comment line\n[")
	if err := os.WriteFile(f, []byte(messy), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(f, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := icepost(t, "", "fmt", "-w", f); code != exitOK {
		t.Fatalf("fmt -w: exit %d\n%s", code, errs)
	}
	if got, _ := os.ReadFile(f); string(got) != string(src) {
		t.Errorf("fmt -w wrote %d bytes, want %d", len(got), len(src))
	}
	if info, _ := os.Stat(f); info.Mode().Perm() != 0o600 {
		t.Errorf("fmt -w left the file mode %v", info.Mode().Perm())
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(f), ".icepost-*")); len(left) > 0 {
		t.Errorf("fmt -w left %v", left)
	}
}
