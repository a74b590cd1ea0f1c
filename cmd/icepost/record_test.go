package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func runRecord(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), append([]string{"record"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestRecordPiped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "club.txt")
	in := "L@c3\nL@c3\nM@d4\ncomment Bob \"thinks\" long\nshow 1\nmoves\nundo\nM@d4\nquit\n"
	code, out, errs := runRecord(t, in, "icesickle", "-o", path, "-event", "Club night", "-date", "2026-11-22", "-player", "Ada", "-player", "Bob")
	if code != exitInvalid { // one move was refused
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	for _, want := range []string{"Not recorded: L@c3", "After move 1, L@c3", "legal moves for", "Taken back", "written to " + path} {
		if !strings.Contains(out, want) {
			t.Errorf("%q missing from the output:\n%s", want, out)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `[Game "IceSickle"]
[Event "Club night"]
[Date "2026.11.22"]
[Player1 "Ada"]
[Player2 "Bob"]
[Result "*"]
[Score "0:0"]

1. L@c3 M@d4 *
`
	if string(got) != want {
		t.Errorf("record:\n%s\nwant:\n%s", got, want)
	}
	if code, out, errs := run1(t, "validate", path); code != exitOK {
		t.Errorf("validate: exit %d\n%s%s", code, out, errs)
	}
}

func run1(t *testing.T, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestRecordDefaultName(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	today := time.Now().Format("2006.01.02")
	name := "icesickle-" + today + "-ada-bob.txt"
	for i, want := range []string{name, "icesickle-" + today + "-ada-bob-1.txt"} {
		// Flags before the game, too.
		code, out, errs := runRecord(t, "S@a1\nresign 2\n", "-player", "Ada", "-player", "Bob", "IceSickle")
		if code != exitOK {
			t.Fatalf("run %d: exit %d\n%s", i, code, errs)
		}
		if !strings.Contains(out, "written to "+want) {
			t.Errorf("run %d: %q not in\n%s", i, want, out)
		}
		src, err := os.ReadFile(filepath.Join(dir, want))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []string{`[Result "1-0"]`, `[Termination "resignation"]`, "1. S@a1 {Bob (seat 2) resigns} 1-0\n"} {
			if !strings.Contains(string(src), w) {
				t.Errorf("%q missing from\n%s", w, src)
			}
		}
		if code, out, errs := run1(t, "validate", want); code != exitOK {
			t.Errorf("validate: exit %d\n%s%s", code, out, errs)
		}
	}
}

func TestRecordUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "name the game"},
		{[]string{"chess"}, "unknown game"},
		{[]string{"icesickle", "-seats", "3"}, "not 3"},
		{[]string{"icesickle", "-date", "tomorrow"}, "YYYY.MM.DD"},
		{[]string{"icesickle", "-player", "A", "-player", "B", "-player", "C"}, "3 players"},
		{[]string{"icesickle", "icelady"}, "one game"},
	} {
		code, _, errs := runRecord(t, "", c.args...)
		if code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("record %q: exit %d, stderr %q; want %d and %q", c.args, code, errs, exitUsage, c.want)
		}
	}
	code, out, _ := runRecord(t, "", "-h")
	if code != exitOK || !strings.Contains(out, "-player") {
		t.Errorf("-h: exit %d\n%s", code, out)
	}
}

// A refused move in piped input makes the exit status 1, so that scripts
// notice; the record of the moves that were legal is written all the same.
func TestRecordPipedRefusedMove(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.txt")
	code, _, errs := runRecord(t, "L@c3\nL@c3\nM@d4\n", "icesickle", "-o", path)
	if code != exitInvalid || !strings.Contains(errs, "1 move was refused") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if got, _ := os.ReadFile(path); !strings.Contains(string(got), "1. L@c3 M@d4 *") {
		t.Errorf("record:\n%s", got)
	}
	if code, _, errs := runRecord(t, "L@c3\nM@d4\n", "icesickle", "-o", filepath.Join(t.TempDir(), "h.txt")); code != exitOK {
		t.Errorf("all legal: exit %d %s", code, errs)
	}
}

// -resume FILE goes on with an unfinished record and writes it back to
// FILE.
func TestRecordResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.txt")
	if code, _, errs := runRecord(t, "L@c3\nM@d4\n", "icesickle", "-o", path, "-player", "Ada", "-player", "Bob"); code != exitOK {
		t.Fatalf("first session: %s", errs)
	}
	code, out, errs := runRecord(t, "S@a1\nquit\n", "-resume", path)
	if code != exitOK || !strings.Contains(out, "Going on with IceSickle") {
		t.Fatalf("resume: exit %d\n%s%s", code, out, errs)
	}
	got, _ := os.ReadFile(path)
	if !strings.Contains(string(got), "1. L@c3 M@d4 2. S@a1 *") || !strings.Contains(string(got), `[Player1 "Ada"]`) {
		t.Errorf("record after resume:\n%s", got)
	}
	if _, err := os.Stat(path[:len(path)-4] + "-1.txt"); err == nil {
		t.Error("resume wrote a second file")
	}
	for _, args := range [][]string{
		{"icesickle", "-resume", path},
		{"-resume", path, "-seats", "3"},
		{"-resume", filepath.Join(t.TempDir(), "missing.txt")},
	} {
		if code, _, _ := runRecord(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}
