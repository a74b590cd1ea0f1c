// icepost players: the players by mail; block or unblock an address.

package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"icepost/pbem"
)

func cmdPlayers(e *env, args []string) int { return operator(e, "players", args) }

func playersList(e *env, srv *pbem.Server, args []string) int {
	if len(args) != 0 {
		fmt.Fprintln(e.stderr, "icepost players list: no arguments")
		return exitUsage
	}
	ps, err := srv.Players(e.ctx)
	if err != nil {
		return failed(e, "players list", err)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ADDRESS\tGAMES\tVACATION LEFT\tDIGEST\tBLOCKED")
	yesNo := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	for _, p := range ps {
		vac := fmt.Sprintf("%dd", p.VacationLeft)
		if p.OnVacation {
			vac += " (away)"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", p.Address, p.Games, vac, yesNo(p.Digest), yesNo(p.Blocked))
	}
	tw.Flush()
	return exitOK
}

func playersBlock(e *env, srv *pbem.Server, args []string, block bool) int {
	what := "block"
	if !block {
		what = "unblock"
	}
	if len(args) != 1 {
		fmt.Fprintf(e.stderr, "icepost players %s: give one address\n", what)
		return exitUsage
	}
	if err := srv.Block(e.ctx, args[0], block); err != nil {
		fmt.Fprintf(e.stderr, "icepost players %s: %v\n", what, err)
		return exitUsage
	}
	fmt.Fprintf(e.stdout, "%s %sed\n", strings.ToLower(args[0]), what)
	return exitOK
}
