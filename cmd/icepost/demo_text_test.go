package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The demo's closing lines name commands a newcomer can type after the
// README's first command: ./icepost, the binary that command leaves in
// the clone's root (a bare "icepost" is on no PATH after it), each a
// command that exists with the flags it is given. Issue 39.
func TestDemoClosingCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("demo in -short mode")
	}
	code, out, errs := icepost(t, "", "demo", "-moves", "1", "-dir", t.TempDir())
	if code != exitOK {
		t.Fatalf("demo: exit %d\n%s", code, errs)
	}
	_, closing, ok := strings.Cut(out, "\nThe game is over")
	if !ok {
		t.Fatalf("no closing lines in the demo's output:\n%s", out)
	}
	// A command stands on a line of its own, indented.
	var named [][]string
	for _, line := range strings.Split(closing, "\n") {
		f := strings.Fields(line)
		for _, w := range f {
			if strings.Trim(w, "().,;:") == "icepost" {
				t.Errorf("the demo names a bare icepost, which the README's first command does not install: %q", line)
			}
		}
		if strings.HasPrefix(line, "  ") && len(f) > 1 && f[0] == "./icepost" {
			named = append(named, f[1:])
		}
	}
	if len(named) < 2 {
		t.Fatalf("the closing lines give %d ./icepost commands, want the archive's and serve's:\n%s", len(named), closing)
	}
	for _, args := range named {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			switch args[0] {
			case "archive":
				// Run as printed: it lists the game the demo played.
				code, out, errs := icepost(t, "", args...)
				if code != exitOK || !strings.Contains(out, "IceSickle") || !strings.Contains(out, "ada - bob") {
					t.Errorf("exit %d\n%s\n%s", code, out, errs)
				}
			case "serve":
				// serve runs until stopped and would take the usual
				// ports: its usage must list every flag the demo gives.
				_, out, errs := icepost(t, "", "serve", "-h")
				usage := out + errs
				for _, a := range args[1:] {
					if strings.HasPrefix(a, "-") && !strings.Contains(usage, "\n  "+a+" ") {
						t.Errorf("serve has no flag %s:\n%s", a, usage)
					}
				}
			default:
				t.Errorf("the demo names %q, which this test does not know how to check", args[0])
			}
		})
	}
}

// The README's first command builds ./icepost, the binary the demo's
// closing lines name.
func TestReadmeFirstCommandBuildsIcepost(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "```sh\n")
	if !ok {
		t.Fatal("README.md has no sh block")
	}
	first := strings.Fields(block)
	if len(first) < 2 || first[0] != "./run" || first[1] != "demo" {
		t.Fatalf("the README's first command is not ./run demo: %q", strings.SplitN(block, "\n", 2)[0])
	}
	script, err := os.ReadFile(filepath.Join("..", "..", "run"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(script), "\ngo build -v -o icepost ./cmd/icepost ") || !strings.Contains(string(script), `exec ./icepost "$@"`) {
		t.Errorf("./run does not build ./icepost and run it:\n%s", script)
	}
}
