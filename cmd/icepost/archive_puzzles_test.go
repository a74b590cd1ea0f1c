package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// archive puzzles finds the missed wins of random IceSickle games (which
// miss many), stores them, writes them as records that validate and
// that fmt leaves as they are, and takes the search's filters.
func TestArchivePuzzlesCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "a.db")
	if code, _, errs := runArchive(t, db, selfplay(t, "6"), "import", "-q", "-"); code != exitOK {
		t.Fatalf("import: %s", errs)
	}
	file := filepath.Join(dir, "puzzles.rec")
	code, o, errs := runArchive(t, db, "", "puzzles", "-o", file)
	if code != exitOK || o != "" || !strings.Contains(errs, "6 games searched of 6 selected") {
		t.Fatalf("puzzles: exit %d\n%s%s", code, o, errs)
	}
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(string(text), "[Puzzle \"wins in ")
	if n == 0 || strings.Count(string(text), "[Setup ") != n {
		t.Fatalf("%d puzzles:\n%s\n%s", n, text, errs)
	}
	var out, errb bytes.Buffer
	if c := run(context.Background(), []string{"validate", file}, nil, &out, &errb); c != exitOK {
		t.Fatalf("validate: exit %d %s%s", c, out.String(), errb.String())
	}
	out.Reset()
	if c := run(context.Background(), []string{"fmt", file}, nil, &out, &errb); c != exitOK || out.String() != string(text) {
		t.Errorf("fmt changes the puzzles (exit %d):\n%s\nwas\n%s", c, out.String(), text)
	}
	// Searched once: the second run writes the same from the store.
	code, again, errs := runArchive(t, db, "", "puzzles", "-q")
	if code != exitOK || again != string(text) || errs != "" {
		t.Errorf("again: exit %d %s\n%s", code, errs, again)
	}
	// The filters are search's: game 1's puzzles only.
	code, _, _ = runArchive(t, db, "", "puzzles", "-q", "-round", "1")
	if code != exitUsage {
		t.Errorf("an unknown filter: exit %d", code)
	}
	code, one, errs := runArchive(t, db, "", "puzzles", "-q", "-plies", "0-1")
	if code != exitOK || one != "" {
		t.Errorf("no game of at most one ply: exit %d %s\n%s", code, errs, one)
	}
}
