// icepost show: the board after any ply of a record, or of a position
// code, as text or as a picture (SVG or PNG).

package main

import (
	"bytes"
	"fmt"
	"strings"

	"icepost/atomicfile"
	"icepost/render"
	"icepost/rules"
	"icepost/rules/games"
)

func cmdShow(e *env, args []string) int {
	fs := newFlags(e, "show")
	ply := fs.Int("ply", -1, "show the position after this many plies of the main line (default: the end)")
	view := fs.Int("view", 0, "the `SEAT` whose side is at the bottom (0: the game's usual view)")
	format := fs.String("format", "text", "text, svg or png")
	out := fs.String("o", "", "write to `FILE` instead of standard output (replaced whole, or left as it was)")
	code := fs.String("code", "", "show this position `CODE` instead of a record (quote it; a code broken over lines after a \"/\" is read too)")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	usage := func(format string, args ...any) int {
		fmt.Fprintf(e.stderr, "icepost show: "+format+"\n", args...)
		return exitUsage
	}
	switch *format {
	case "text", "svg", "png":
	default:
		return usage("-format %s: the formats are text, svg and png", *format)
	}
	if *format == "png" && *out == "" && isTerminal(e.stdout) {
		return usage("-format png writes a binary picture: name a file with -o FILE, or redirect standard output")
	}

	// The position, the one before it and the move between them.
	var s, prev rules.State
	var last rules.Move
	var names []string
	var heading string
	switch {
	case *code != "" && fs.NArg() > 0:
		return usage("name a record file or give -code, not both")
	case *code != "":
		if *ply >= 0 {
			return usage("-ply counts the moves of a record; a position code has none")
		}
		var err error
		if s, err = parseCode(*code); err != nil {
			return usage("-code: %v", err)
		}
		heading = "Position"
	case fs.NArg() != 1:
		return usage("name one record file (or give a position with -code CODE)")
	default:
		g, code := firstGame(e, "show", fs.Arg(0))
		if g == nil {
			return code
		}
		n := len(g.States) - 1
		if *ply >= 0 {
			if *ply > n {
				return usage("the record has %d plies; -ply goes from 0 to %d", n, n)
			}
			n = *ply
		}
		s = g.States[n]
		if n > 0 {
			prev, last = g.States[n-1], g.Moves[n-1]
			heading = fmt.Sprintf("After ply %d: seat %d played %s", n, prev.ToMove(), prev.FormatMove(last))
		} else {
			heading = "Start position"
		}
		names = g.Record.Players()
	}
	if seats := s.Options().Seats; *view < 0 || *view > seats {
		return usage("-view %d: %s is played by %d seats here; -view goes from 1 to %d (0 for the usual view)", *view, s.Game().Name(), seats, seats)
	}

	var b bytes.Buffer
	switch *format {
	case "text":
		fmt.Fprintf(&b, "%s\n\n%s", heading, s.Board(*view))
		fmt.Fprintf(&b, "Position: %s\n", s.Code())
	default:
		d, ok := rules.DiagramOf(s, *view, prev, last)
		if !ok {
			return usage("%s has no pictures; use -format text", s.Game().Name())
		}
		opts := []render.Option{render.Names(names...)}
		var err error
		if *format == "svg" {
			err = render.SVG(&b, d, opts...)
		} else {
			err = render.PNG(&b, d, opts...)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost show: %v\n", err)
			return exitInvalid
		}
	}
	if *out != "" {
		if err := atomicfile.Write(*out, b.Bytes()); err != nil {
			return usage("-o: %v (name a file in a folder that exists and that you may write to)", err)
		}
		return exitOK
	}
	if _, err := e.stdout.Write(b.Bytes()); err != nil {
		return writeFailed(e, err)
	}
	return exitOK
}

// parseCode reads a position code of any game, named by its first word.
// A code copied from a mail may be broken over lines after a "/": the
// breaks are taken out.
func parseCode(code string) (rules.State, error) {
	var b strings.Builder
	for i, f := range strings.Fields(code) {
		if i > 0 && !strings.HasSuffix(b.String(), "/") {
			b.WriteByte(' ')
		}
		b.WriteString(f)
	}
	code = b.String()
	name, _, _ := strings.Cut(code, " ")
	g, ok := games.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("%q names no game: a position code starts with one of %s", name, strings.Join(games.Names(), ", "))
	}
	return g.ParsePosition(code)
}
