// icepost archive stats: seat wins, lengths and player results, or with
// -explore the moves played from a position.

package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"icepost/archive"
	"icepost/rules"
)

func archiveStats(e *env, a *archive.Archive, args []string) int {
	fs := newFlags(e, "archive", "stats")
	query := queryFlags(fs)
	players := fs.Int("players", 20, "list this many players, most games first")
	explore := fs.Bool("explore", false, "the opening explorer: moves played from -position (default: -game's start)")
	opts := optionFlags(fs)
	format := fs.String("format", "table", "table (for people) or json (one object, for programs)")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(e.stderr, "icepost archive stats: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if *format != "table" && *format != "json" {
		fmt.Fprintf(e.stderr, "icepost archive stats: -format %q: use table or json\n", *format)
		return exitUsage
	}
	q, err := query()
	if err != nil {
		return archiveFail(e, "stats", err)
	}
	if *explore {
		return exploreStats(e, a, q, opts(), *format == "json")
	}
	st, err := a.Stats(e.ctx, q, *players)
	if err != nil {
		return archiveFail(e, "stats", err)
	}
	if *format == "json" {
		return writeJSON(e, statsJSON(st))
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "GAME\tSEATS\tGAMES\tAVG PLIES\tDRAWS\tUNDECIDED\tWINS BY SEAT\t")
	for _, k := range st.Kinds {
		var seats []string
		decided := k.Games - k.Undecided
		for i, w := range k.Wins {
			seats = append(seats, fmt.Sprintf("%d: %d (%s)", i+1, w, pct(w, decided)))
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f\t%d\t%d\t%s\t\n", k.Game, k.Seats, k.Games, k.AvgPlies(), k.Draws, k.Undecided, strings.Join(seats, "  "))
	}
	tw.Flush()
	if len(st.Players) > 0 {
		fmt.Fprintln(e.stdout)
		// The computer analysis's columns, when a game counted has one
		// (archive analyze): moves analysed, the average loss a move, blunders.
		analysed := false
		for _, p := range st.Players {
			analysed = analysed || p.Analysis.Moves > 0
		}
		tw = tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		head := "PLAYER\tGAMES\tWINS\tLOSSES\tDRAWS\tSCORE\t"
		if analysed {
			head += "ANALYSED MOVES\tAVG LOSS\tBLUNDERS\t"
		}
		fmt.Fprintln(tw, head)
		for _, p := range st.Players {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.1f\t", cell(p.Name), p.Games, p.Wins, p.Losses, p.Draws, p.Score())
			if an := p.Analysis; analysed && an.Moves > 0 {
				fmt.Fprintf(tw, "%d\t%.3f\t%d\t", an.Moves, an.Loss, an.Blunders)
			} else if analysed {
				fmt.Fprint(tw, "-\t-\t-\t")
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
		if analysed {
			fmt.Fprintln(e.stdout, "AVG LOSS: how much a move lowered the player's chance by the engine's estimate (0 to 1), averaged over the analysed moves.")
		}
	}
	return exitOK
}

func pct(n, of int) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
}

func exploreStats(e *env, a *archive.Archive, q archive.Query, o rules.Options, asJSON bool) int {
	var pos rules.State
	var err error
	if q.Position != "" {
		pos, err = archive.ParsePosition(q.Position)
		q.Position = "" // the explorer looks the position up itself
	} else {
		if q.Game == "" {
			fmt.Fprintln(e.stderr, "icepost archive stats -explore: give -game (for its start) or -position")
			return exitUsage
		}
		g, ok := lookupGame(e, "archive stats", q.Game)
		if !ok {
			return exitUsage
		}
		pos, err = g.Start(o)
	}
	if err != nil {
		return archiveFail(e, "stats", err)
	}
	moves, err := a.Explore(e.ctx, q, pos)
	if err != nil {
		return archiveFail(e, "stats", err)
	}
	if asJSON {
		out := exploreOut{Position: pos.Code(), ToMove: pos.ToMove(), Moves: []exploreMove{}}
		for _, m := range moves {
			out.Moves = append(out.Moves, exploreMove{m.Move, m.Games, m.Wins, m.Draws, m.Losses, m.Undone, m.Score()})
		}
		return writeJSON(e, out)
	}
	fmt.Fprintf(e.stdout, "Position: %s\nSeat %d to move\n\n", pos.Code(), pos.ToMove())
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "MOVE\tGAMES\tWINS\tDRAWS\tLOSSES\tUNDECIDED\tSCORE\t")
	for _, m := range moves {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%.1f%%\t\n", m.Move, m.Games, m.Wins, m.Draws, m.Losses, m.Undone, 100*m.Score())
	}
	tw.Flush()
	if len(moves) == 0 {
		fmt.Fprintln(e.stdout, "no stored game reached this position and went on")
	}
	return exitOK
}

// The JSON that stats -format json writes: one object, the same numbers
// as the tables.
type statsOut struct {
	Kinds   []kindOut   `json:"kinds"`
	Players []playerOut `json:"players"`
}

type kindOut struct {
	Game      string  `json:"game"`
	Seats     int     `json:"seats"`
	Games     int     `json:"games"`
	AvgPlies  float64 `json:"avg_plies"`
	Draws     int     `json:"draws"`
	Undecided int     `json:"undecided"`
	Wins      []int   `json:"wins"` // by seat, seat 1 first
}

type playerOut struct {
	Name   string  `json:"name"`
	Games  int     `json:"games"`
	Wins   int     `json:"wins"`
	Losses int     `json:"losses"`
	Draws  int     `json:"draws"`
	Score  float64 `json:"score"`
	// The computer analysis of their moves in the analysed games counted
	// (archive analyze); absent when none is.
	Analysis *analysisOut `json:"analysis,omitempty"`
}

type analysisOut struct {
	Games        int     `json:"games"`
	Moves        int     `json:"moves"`
	AvgLoss      float64 `json:"avg_loss"` // per move, 0 to 1
	Inaccuracies int     `json:"inaccuracies"`
	Mistakes     int     `json:"mistakes"`
	Blunders     int     `json:"blunders"`
}

type exploreOut struct {
	Position string        `json:"position"`
	ToMove   int           `json:"to_move"`
	Moves    []exploreMove `json:"moves"`
}

type exploreMove struct {
	Move      string  `json:"move"`
	Games     int     `json:"games"`
	Wins      int     `json:"wins"`
	Draws     int     `json:"draws"`
	Losses    int     `json:"losses"`
	Undecided int     `json:"undecided"`
	Score     float64 `json:"score"` // for the player who made the move, 0 to 1
}

func statsJSON(st *archive.Stats) statsOut {
	out := statsOut{Kinds: []kindOut{}, Players: []playerOut{}}
	for _, k := range st.Kinds {
		out.Kinds = append(out.Kinds, kindOut{k.Game, k.Seats, k.Games, k.AvgPlies(), k.Draws, k.Undecided, k.Wins})
	}
	for _, p := range st.Players {
		po := playerOut{Name: p.Name, Games: p.Games, Wins: p.Wins, Losses: p.Losses, Draws: p.Draws, Score: p.Score()}
		if an := p.Analysis; an.Moves > 0 {
			po.Analysis = &analysisOut{an.Games, an.Moves, an.Loss, an.Inaccuracies, an.Mistakes, an.Blunders}
		}
		out.Players = append(out.Players, po)
	}
	return out
}

func writeJSON(e *env, v any) int {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return writeFailed(e, err)
	}
	return exitOK
}
