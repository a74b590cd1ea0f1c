package main

import (
	"os"
	"path/filepath"
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
