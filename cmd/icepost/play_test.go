package main

import (
	"bytes"
	"context"
	"icepost/notation"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPlayPiped: the engine plays seat 1 of a game against it, the
// person's lines come from a pipe, and the record names the engine.
func TestPlayPiped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "play.txt")
	code, out, errs := run1In(t, "hint\nquit\n", "play", "icesickle", "-seat", "2", "-level", "1", "-seed", "3", "-move-time", "2s", "-player", "Ada", "-o", path)
	if code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	for _, want := range []string{"The engine (level 1) plays seat 1", "Move 1: icepost bot level 1 (seat 1) played", "Hint for Ada (seat 2)", "written to " + path} {
		if !strings.Contains(out, want) {
			t.Errorf("%q missing from the output:\n%s", want, out)
		}
	}
	rec, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`[Event "icepost play"]`, `[Player1 "icepost bot level 1"]`, `[Player2 "Ada"]`, "1. "} {
		if !strings.Contains(string(rec), want) {
			t.Errorf("%s missing from the record:\n%s", want, rec)
		}
	}
	for _, bad := range [][]string{{"play", "icesickle", "-level", "9"}, {"play", "icesickle", "-seat", "3"}, {"play"}, {"play", "chess"}} {
		if code, _, errs := run1In(t, "", bad...); code != exitUsage || errs == "" {
			t.Errorf("%v: exit %d, stderr %q", bad, code, errs)
		}
	}
}

// TestRecordHint: hint in icepost record suggests a move and records
// nothing.
func TestRecordHint(t *testing.T) {
	path := filepath.Join(t.TempDir(), "club.txt")
	code, out, errs := runRecord(t, "L@c3\nhint\nquit\n", "icesickle", "-o", path, "-player", "Ada", "-player", "Bob")
	if code != exitOK || !strings.Contains(out, "Hint for Bob (seat 2): ") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if g := readRecordFile(t, path); g.Ply() != 1 {
		t.Errorf("%d moves recorded, want 1", g.Ply())
	}
}

func run1In(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func readRecordFile(t *testing.T, path string) *notation.Game {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	gs, errs := notation.Check(path, src)
	if len(gs) != 1 || errs.Err() != nil {
		t.Fatalf("%s: %v", path, errs.Err())
	}
	return gs[0]
}
