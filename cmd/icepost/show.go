// icepost show: the board after any ply of a record.

package main

import "fmt"

func cmdShow(e *env, args []string) int {
	fs := newFlags(e, "show")
	ply := fs.Int("ply", -1, "show the position after this many plies of the main line (default: the end)")
	view := fs.Int("view", 0, "the seat whose side is at the bottom (2-seat games)")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "icepost show: name one record file")
		return exitUsage
	}
	g, code := firstGame(e, "show", fs.Arg(0))
	if g == nil {
		return code
	}
	n := len(g.States) - 1
	if *ply >= 0 {
		if *ply > n {
			fmt.Fprintf(e.stderr, "icepost show: the record has %d plies; -ply goes from 0 to %d\n", n, n)
			return exitUsage
		}
		n = *ply
	}
	s := g.States[n]
	if n > 0 {
		prev := g.States[n-1]
		fmt.Fprintf(e.stdout, "After ply %d: seat %d played %s\n\n", n, prev.ToMove(), prev.FormatMove(g.Moves[n-1]))
	} else {
		fmt.Fprintln(e.stdout, "Start position")
		fmt.Fprintln(e.stdout)
	}
	fmt.Fprint(e.stdout, s.Board(*view))
	fmt.Fprintf(e.stdout, "Position: %s\n", s.Code())
	return exitOK
}
