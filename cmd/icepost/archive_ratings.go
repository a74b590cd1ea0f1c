// icepost archive ratings: Glicko-2 ratings per game from the archive.

package main

import (
	"fmt"
	"text/tabwriter"

	"icepost/archive"
)

func archiveRatings(e *env, a *archive.Archive, args []string) int {
	fs := newFlags(e, "archive", "ratings")
	game := fs.String("game", "", "only this game (default: every game, one table each)")
	limit := fs.Int("limit", 0, "at most this many players per game (0: all)")
	format := fs.String("format", "table", "table (for people) or json (one array, for programs)")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(e.stderr, "icepost archive ratings: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if *format != "table" && *format != "json" {
		fmt.Fprintf(e.stderr, "icepost archive ratings: -format %q: use table or json\n", *format)
		return exitUsage
	}
	if *limit < 0 {
		fmt.Fprintln(e.stderr, "icepost archive ratings: -limit is 0 or more")
		return exitUsage
	}
	rs, err := a.Ratings(e.ctx, *game)
	if err != nil {
		return archiveFail(e, "ratings", err)
	}
	var shown []archive.Rating
	rank := map[int]int{}
	for i, r := range rs {
		n := 1
		if i > 0 && rs[i-1].Game == r.Game {
			n = rank[i-1] + 1
		}
		rank[i] = n
		if *limit == 0 || n <= *limit {
			shown = append(shown, r)
		}
	}
	if *format == "json" {
		if shown == nil {
			shown = []archive.Rating{}
		}
		return writeJSON(e, shown)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "GAME\tRANK\tPLAYER\tRATING\tRD\tGAMES\tWINS\tDRAWS\tLOSSES\t")
	n := 0
	for i, r := range rs {
		if *limit != 0 && rank[i] > *limit {
			continue
		}
		n++
		fmt.Fprintf(tw, "%s\t%d\t%s\t%.0f\t%.0f\t%d\t%d\t%d\t%d\t\n", r.Game, rank[i], cell(r.Player), r.Rating, r.RD, r.Games, r.Wins, r.Draws, r.Losses)
	}
	tw.Flush()
	if n == 0 {
		fmt.Fprintln(e.stdout, "no rated games: ratings count finished games with a result between named players")
	}
	return exitOK
}
