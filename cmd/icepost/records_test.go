package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"icepost/rules/games"
)

// icepost runs the command line with args and stdin.
func icepost(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Every game's random records validate, and fmt leaves them as they are.
func TestSelfplayValidatesForEveryGame(t *testing.T) {
	for _, g := range games.All() {
		for _, seats := range []string{"2", "3", "4"} {
			code, recs, errs := icepost(t, "", "selfplay", "-game", g.Name(), "-seats", seats, "-n", "5", "-seed", "3", "-max-plies", "300")
			if code == exitUsage && strings.Contains(errs, "played by") {
				continue // the game has no such seat count
			}
			if code != exitOK {
				t.Fatalf("selfplay %s %s: %s", g.Name(), seats, errs)
			}
			f := writeFile(t, "games.txt", recs)
			if code, out, errs := icepost(t, "", "validate", f); code != exitOK || !strings.HasPrefix(out, "5 valid records") {
				t.Errorf("validate %s %s seats: %d %s %s", g.Name(), seats, code, out, errs)
			}
			if code, out, _ := icepost(t, "", "fmt", f); code != exitOK || out != recs {
				t.Errorf("fmt changed selfplay output of %s %s seats", g.Name(), seats)
			}
		}
	}
}

func TestValidateReportsErrors(t *testing.T) {
	bad := writeFile(t, "bad.txt", "[Game \"IceSickle\"]\n\n1. L@c3 L@c3 *\n\n[Game \"IceSickle\"]\n\n1. L@c3 *\n")
	code, out, errs := icepost(t, "", "validate", bad)
	if code != exitInvalid || !strings.Contains(errs, "bad.txt:3:9: ply 2: L@c3: c3 is occupied") || !strings.Contains(out, "1 valid record, 1 error") {
		t.Errorf("validate: %d %q %q", code, out, errs)
	}
	if code, _, errs := icepost(t, "", "validate", filepath.Join(t.TempDir(), "missing.txt")); code != exitUsage || !strings.Contains(errs, "no such file") {
		t.Errorf("missing file: %d %q", code, errs)
	}
	if code, _, _ := icepost(t, "", "validate"); code != exitUsage {
		t.Errorf("no file: exit %d", code)
	}
}

func TestFmtWrite(t *testing.T) {
	f := writeFile(t, "g.txt", "[game \"x\"]\n[Game \"icesickle\"]\n\nl@C3 m@b2 *\n")
	if code, _, _ := icepost(t, "", "fmt", "-w", f); code != exitOK {
		t.Fatal("fmt -w failed")
	}
	got, _ := os.ReadFile(f)
	want := "[Game \"IceSickle\"]\n[game \"x\"]\n\n1. L@c3 M@b2 *\n"
	if string(got) != want {
		t.Errorf("fmt -w wrote\n%s\nwant\n%s", got, want)
	}
	// A file that does not read is never rewritten.
	broken := "[Game \"IceSickle\"]\n\n1. L@c3 L@c3 *\n"
	f2 := writeFile(t, "broken.txt", broken)
	if code, _, _ := icepost(t, "", "fmt", "-w", f2); code != exitInvalid {
		t.Errorf("fmt -w on a broken record: exit %d", code)
	}
	if got, _ := os.ReadFile(f2); string(got) != broken {
		t.Error("fmt -w rewrote a broken record")
	}
}

func TestShowMovesPerft(t *testing.T) {
	// After two placements IceSickle has 23 squares x 3 sizes = 69 moves.
	f := writeFile(t, "g.txt", "[Game \"IceSickle\"]\n\n1. L@c3 M@b2 *\n")
	code, out, _ := icepost(t, "", "moves", f)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitOK || len(lines) != 69 || lines[0] != "L@a1" || lines[68] != "S@e5" {
		t.Errorf("moves: %d, %d lines, first %q", code, len(lines), lines[0])
	}
	code, out, _ = icepost(t, "", "show", "-ply", "1", f)
	if code != exitOK || !strings.Contains(out, "After ply 1: seat 1 played L@c3") || !strings.Contains(out, "Position: IceSickle ...../...../..L../...../..... S5M5L4 0:0 1 place 2") {
		t.Errorf("show -ply 1:\n%s", out)
	}
	if code, _, errs := icepost(t, "", "show", "-ply", "9", f); code != exitUsage || !strings.Contains(errs, "the record has 2 plies") {
		t.Errorf("show -ply 9: %d %s", code, errs)
	}
	code, out, _ = icepost(t, "", "perft", "-depth", "2", "icesickle")
	if code != exitOK || out != "depth 1 nodes 75\ndepth 2 nodes 5400\n" {
		t.Errorf("perft: %q", out)
	}
	// From the end of the record: 69, then 69 x (22 x 3) = 4554.
	code, out, _ = icepost(t, "", "perft", "-depth", "2", f)
	if code != exitOK || out != "depth 1 nodes 69\ndepth 2 nodes 4554\n" {
		t.Errorf("perft from a record: %q", out)
	}
	if code, _, errs := icepost(t, "", "perft", "chess"); code != exitUsage || !strings.Contains(errs, "neither a game") {
		t.Errorf("perft chess: %d %s", code, errs)
	}
}

func TestHelp(t *testing.T) {
	code, out, _ := icepost(t, "", "help")
	if code != exitOK || !strings.Contains(out, "serve") || !strings.Contains(out, "validate") {
		t.Errorf("help: %s", out)
	}
	for _, c := range commands {
		if c.name == "help" {
			continue
		}
		if code, out, _ := icepost(t, "", c.name, "-h"); code != exitOK || !strings.Contains(out, "Usage: icepost "+c.name) {
			t.Errorf("%s -h: exit %d\n%s", c.name, code, out)
		}
	}
	if code, _, _ := icepost(t, "", "nonsense"); code != exitUsage {
		t.Errorf("unknown command: exit %d", code)
	}
}

func TestMailParseJSON(t *testing.T) {
	mail := "From: Ada <ada@example.org>\r\nTo: games@example.org\r\nSubject: Re: IceSickle #1\r\n\r\nC3xE5\r\nwell played\r\n\r\nOn Sunday, games wrote:\r\n> the board\r\n"
	code, out, _ := icepost(t, mail, "mail", "parse", "-json")
	var got struct {
		Commands []string `json:"commands"`
		Comment  string   `json:"comment"`
		Auto     bool     `json:"auto"`
		Error    string   `json:"error"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitOK {
		t.Fatalf("mail parse -json: %d %v\n%s", code, err, out)
	}
	if len(got.Commands) != 1 || got.Commands[0] != "move c3xe5" || got.Comment != "well played" || got.Auto || got.Error != "" {
		t.Errorf("got %+v", got)
	}
	if !strings.HasPrefix(out, `{"commands":`) {
		t.Errorf("the JSON does not start with commands: %s", out)
	}
}

func TestDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("demo in -short mode")
	}
	code, out, errs := icepost(t, "", "demo", "-moves", "2")
	if code != exitOK || !strings.Contains(out, "Game over: a draw by agreement") || !strings.Contains(out, "bob wrote: Your turn: good luck!") {
		t.Errorf("demo: exit %d\n%s\n%s", code, out, errs)
	}
}
