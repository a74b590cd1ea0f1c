package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.txt")
	code, stdout, stderr := run1(t, "match", "-game", "icesickle", "-n", "2", "-seed", "3", "-o", out, "bot:1", "random")
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{"IceSickle, 2 seats, 2 games", "bot:1 ", "random ", "score (95% interval)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("%q missing from:\n%s", want, stdout)
		}
	}
	recs, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// The seats rotate: bot:1 is Player1 in game 1 and Player2 in game 2.
	if !strings.Contains(string(recs), `[Player1 "bot:1"]`) || !strings.Contains(string(recs), `[Player2 "bot:1"]`) {
		t.Errorf("the seats did not rotate:\n%s", recs)
	}
	if code, o, e := run1(t, "validate", out); code != exitOK {
		t.Errorf("the records do not validate: %s%s", o, e)
	}
	for _, bad := range [][]string{
		{"match", "-game", "icesickle", "bot:1"},
		{"match", "-game", "icesickle", "bot:9", "random"},
		{"match", "-game", "icesickle", "human", "random"},
		{"match", "bot:1", "random"},
		{"match", "-game", "chess", "bot:1", "random"},
	} {
		if code, _, stderr := run1(t, bad...); code != exitUsage || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q", bad, code, stderr)
		}
	}
}

// A match writes each game's record as it ends; stopped after two games
// and resumed, it ends with the records and results of the match played
// in one go.
func TestMatchResume(t *testing.T) {
	dir := t.TempDir()
	whole, part := filepath.Join(dir, "whole.txt"), filepath.Join(dir, "part.txt")
	args := func(n, out string, more ...string) []string {
		return append([]string{"match", "-game", "icesickle", "-n", n, "-seed", "5", "-workers", "1", "-o", out}, append(more, "bot:1", "random")...)
	}
	code, want, stderr := run1(t, args("4", whole)...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if code, _, stderr := run1(t, args("2", part)...); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, got, stderr := run1(t, args("4", part, "-resume")...)
	if code != exitOK || !strings.Contains(stderr, "resuming after game 2 of 4") {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	a, _ := os.ReadFile(whole)
	b, _ := os.ReadFile(part)
	if string(a) != string(b) {
		t.Errorf("the resumed match's records differ from the whole match's:\n%s\n---\n%s", b, a)
	}
	// Three games at a time, the same games, written in order.
	par := filepath.Join(dir, "parallel.txt")
	if code, _, stderr := run1(t, args("4", par, "-parallel", "3")...); code != exitOK {
		t.Fatalf("-parallel 3: exit %d: %s", code, stderr)
	}
	if c, _ := os.ReadFile(par); string(c) != string(a) {
		t.Errorf("the match three games at a time wrote other records than one at a time:\n%s\n---\n%s", c, a)
	}
	// The results (not the times: the resumed games were not timed).
	results := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if f := strings.Fields(l); len(f) > 6 {
				out = append(out, strings.Join(f[:6], " "))
			}
		}
		return out
	}
	if !slices.Equal(results(got), results(want)) {
		t.Errorf("resumed results %q, whole %q", results(got), results(want))
	}
	for _, bad := range [][]string{
		args("4", filepath.Join(dir, "none.txt"), "-resume"), // no such file
		args("2", part, "-resume"),                           // done already
		{"match", "-game", "icesickle", "-n", "6", "-seed", "5", "-o", part, "-resume", "random", "bot:1"},                  // other seats
		{"match", "-game", "icesickle", "-n", "6", "-resume", "bot:1", "random"},                                            // no -o
		{"match", "-game", "icesickle", "-n", "6", "-seed", "6", "-workers", "1", "-o", part, "-resume", "bot:1", "random"}, // other seed
		{"match", "-game", "icesickle", "-n", "6", "-parallel", "0", "bot:1", "random"},
	} {
		if code, _, stderr := run1(t, bad...); code != exitUsage || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q", bad, code, stderr)
		}
	}
}
