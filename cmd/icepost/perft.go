// icepost perft: move-generation counts from a game's start or from the
// end of a record.

package main

import (
	"fmt"
	"os"
	"strings"

	"icepost/rules"
	"icepost/rules/games"
)

func cmdPerft(e *env, args []string) int {
	fs := newFlags(e, "perft")
	depth := fs.Int("depth", 3, "count to this many plies")
	opts := optionFlags(fs)
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 || *depth < 1 {
		fmt.Fprintln(e.stderr, "icepost perft: name one game or record file, and a -depth of 1 or more")
		return exitUsage
	}
	var start rules.State
	if g, ok := games.Lookup(fs.Arg(0)); ok {
		s, err := g.Start(opts())
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost perft: %v\n", err)
			return exitUsage
		}
		start = s
	} else if _, err := os.Stat(fs.Arg(0)); err == nil {
		g, code := firstGame(e, "perft", fs.Arg(0))
		if g == nil {
			return code
		}
		start = g.Final()
	} else {
		fmt.Fprintf(e.stderr, "icepost perft: %q is neither a game (%s) nor a record file\n", fs.Arg(0), strings.Join(games.Names(), ", "))
		return exitUsage
	}
	for d := 1; d <= *depth; d++ {
		if e.ctx.Err() != nil {
			return exitUsage
		}
		fmt.Fprintf(e.stdout, "depth %d nodes %d\n", d, rules.CountPerft(start, d))
	}
	return exitOK
}
