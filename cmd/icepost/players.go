// icepost players: the players by mail; block or unblock an address.

package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"icepost/archive"
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
	ratings, err := mailRatings(e, srv)
	if err != nil {
		return failed(e, "players list", err)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ADDRESS\tGAMES\tVACATION LEFT\tDIGEST\tBLOCKED\tRATINGS")
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
		r := ratings[strings.ToLower(p.Address)]
		if r == "" {
			r = "-"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\n", p.Address, p.Games, vac, yesNo(p.Digest), yesNo(p.Blocked), r)
	}
	tw.Flush()
	return exitOK
}

// mailRatings says each address's ratings, from the archive in the
// daemon's file (the games it finished): "IceSickle 1620±80, Pikemen
// 1480±150", by the player the archive knows at that address.
func mailRatings(e *env, srv *pbem.Server) (map[string]string, error) {
	a := archive.Wrap(srv.DB)
	players, err := a.AddressPlayers(e.ctx)
	if err != nil {
		return nil, err
	}
	rs, err := a.Ratings(e.ctx, "")
	if err != nil {
		return nil, err
	}
	byName := map[string][]string{}
	for _, r := range rs {
		byName[r.Player] = append(byName[r.Player], fmt.Sprintf("%s %.0f±%.0f", r.Game, r.Rating, r.RD))
	}
	out := map[string]string{}
	for addr, name := range players {
		out[addr] = strings.Join(byName[name], ", ")
	}
	return out, nil
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
