// icepost moves: the legal moves at the end of a record, one per line.

package main

import (
	"fmt"
	"slices"
)

func cmdMoves(e *env, args []string) int {
	fs := newFlags(e, "moves")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "icepost moves: name one record file")
		return exitUsage
	}
	g, code := firstGame(e, "moves", fs.Arg(0))
	if g == nil {
		return code
	}
	s := g.Final()
	var toks []string
	for _, m := range s.Moves(nil) {
		toks = append(toks, s.FormatMove(m))
	}
	slices.Sort(toks)
	for _, t := range toks {
		fmt.Fprintln(e.stdout, t)
	}
	return exitOK
}
