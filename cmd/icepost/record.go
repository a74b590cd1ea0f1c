// icepost record: record a game played at the table, move by move, at a
// terminal (with line editing) or from a pipe.

package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
	"icepost/tabletop"
)

// playerFlags collects repeated -player flags.
type playerFlags []string

func (p *playerFlags) String() string { return strings.Join(*p, ", ") }

func (p *playerFlags) Set(v string) error {
	*p = append(*p, v)
	return nil
}

// cmdRecord records a game played at the table (docs/record.md). The
// session itself is tabletop.Session; this wires it to the terminal or to
// a pipe.
func cmdRecord(e *env, args []string) int {
	fs := newFlags(e, "record")
	opts := optionFlags(fs)
	out := fs.String("o", "", "the file to write (default: named after the game, date and players, like icesickle-2026.11.22-ada-bob.txt)")
	event := fs.String("event", "", "the Event tag (default "+strconv.Quote(tabletop.DefaultEvent)+"; asked at a terminal)")
	site := fs.String("site", "", "the Site tag")
	date := fs.String("date", "", "the Date tag, YYYY.MM.DD (default today; asked at a terminal)")
	var players playerFlags
	fs.Var(&players, "player", "a player's name, seat 1 first; repeat for each seat (asked at a terminal)")
	resume := fs.String("resume", "", "go on with the unfinished record in `FILE`, and write it back there (instead of GAME and the game's flags)")
	// Flags may stand before or after GAME.
	game, code := parseGameArgs(e, fs, args)
	if code >= 0 {
		return code
	}
	var resumed *notation.Game
	var g rules.Game
	switch {
	case *resume != "":
		if game != "" || opts() != (rules.Options{}) {
			fmt.Fprintln(e.stderr, "icepost record: -resume FILE takes the game and its options from the record: name no game and give no -seats, -board or -target")
			return exitUsage
		}
		var code int
		if resumed, code = firstGame(e, "record", *resume); resumed == nil {
			return max(code, exitUsage) // a record that cannot be read is the command line's fault here
		}
		if *out == "" {
			*out = *resume
		}
	case game == "":
		fmt.Fprintln(e.stderr, "icepost record: name the game to record, like icepost record icesickle")
		return exitUsage
	default:
		var ok bool
		if g, ok = lookupGame(e, "record", game); !ok {
			return exitUsage
		}
	}
	var tags []notation.Tag
	if *event != "" {
		tags = append(tags, notation.Tag{Name: "Event", Value: *event})
	}
	if *site != "" {
		tags = append(tags, notation.Tag{Name: "Site", Value: *site})
	}
	if *date != "" {
		tags = append(tags, notation.Tag{Name: "Date", Value: *date})
	}
	for i, p := range players {
		tags = append(tags, notation.Tag{Name: "Player" + strconv.Itoa(i+1), Value: p})
	}

	return runTable(e, "record", tabletop.Config{Game: g, Options: opts(), Tags: tags, Path: *out, Resume: resumed})
}

// runTable runs a session at the table (record, play) on the terminal,
// with line editing, or on a pipe, and maps its end to an exit code.
func runTable(e *env, name string, cfg tabletop.Config) int {
	stdin, isTerm := terminal(e.stdin)
	cfg.Ask = isTerm
	w := e.stdout
	var lr tabletop.LineReader
	if isTerm {
		old, err := term.MakeRaw(int(stdin.Fd()))
		if err == nil {
			defer term.Restore(int(stdin.Fd()), old)
			t := term.NewTerminal(struct {
				io.Reader
				io.Writer
			}{stdin, e.stdout}, "")
			if wd, ht, err := term.GetSize(int(stdin.Fd())); err == nil && wd > 0 && ht > 0 {
				t.SetSize(wd, ht)
			}
			w, lr = t, termLines{t}
		}
	}
	s, err := tabletop.New(cfg, w)
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost %s: %v\n", name, err)
		return exitUsage
	}
	if lr == nil {
		var prompts io.Writer
		if isTerm {
			prompts = w
		}
		lr = tabletop.Lines(e.stdin, prompts)
	}
	if err := s.Run(e.ctx, lr); err != nil {
		fmt.Fprintf(e.stderr, "icepost %s: %v\n", name, err)
		return exitInvalid
	}
	if n := s.Refused(); n > 0 && !isTerm {
		// A script piping moves must notice that some were not recorded.
		fmt.Fprintf(e.stderr, "icepost %s: %s refused by the rules and not recorded\n", name, countOf(n, "move was", "moves were"))
		return exitInvalid
	}
	return exitOK
}

// recordDoc is what icepost record -h says it does, with the games this
// build has.
func recordDoc() string {
	return "Record a game played at the table. GAME is one of " + strings.Join(games.Names(), ", ") +
		" (any case). With -resume FILE, go on with the unfinished record in FILE." +
		" Type help at the prompt for the commands; review, once the game is over, shows the engine's analysis of every move."
}

// terminal reports whether r is a terminal, and returns it as a file.
func terminal(r io.Reader) (*os.File, bool) {
	f, ok := r.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil, false
	}
	return f, true
}

// termLines reads lines with editing and history from a raw terminal.
type termLines struct{ t *term.Terminal }

func (l termLines) ReadLine(prompt string) (string, error) {
	l.t.SetPrompt(prompt)
	line, err := l.t.ReadLine()
	// Output between reads must not redraw the old prompt after it.
	l.t.SetPrompt("")
	return line, err
}
