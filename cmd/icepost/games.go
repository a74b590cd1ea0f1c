// icepost games: the operator's view of the games by mail: list, show,
// cancel, adjudicate.

package main

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"icepost/pbem"
	"icepost/pbem/mailgames"
)

func cmdGames(e *env, args []string) int { return operator(e, "games", args) }

// needMail checks that the server can write mails: it knows its address
// and secret.
func needMail(e *env, srv *pbem.Handler, what string) bool {
	if srv.Address == "" || len(srv.Secret) == 0 {
		fmt.Fprintf(e.stderr, "icepost %s: the players must be told by mail, but the database does not hold the server's address and secret: give -config FILE\n", what)
		return false
	}
	return true
}

func gameID(e *env, what string, args []string, n int) (int64, bool) {
	if len(args) != n {
		fmt.Fprintf(e.stderr, "icepost games %s: wrong number of arguments\n", what)
		return 0, false
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(args[0], "#"), 10, 64)
	if err != nil || id < 1 {
		fmt.Fprintf(e.stderr, "icepost games %s: %q is not a game number\n", what, args[0])
		return 0, false
	}
	return id, true
}

func gamesList(e *env, srv *pbem.Handler, args []string) int {
	if len(args) != 0 {
		fmt.Fprintln(e.stderr, "icepost games list: no arguments")
		return exitUsage
	}
	gs, err := (&mailgames.Reader{DB: srv.DB}).All(e.ctx)
	if err != nil {
		return failed(e, "games list", err)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tGAME\tSTATUS\tPLAYERS\tTO MOVE\tMOVES\tTIME LEFT")
	for _, g := range gs {
		toMove, left := "-", "-"
		if g.ToMove != "" {
			toMove = g.ToMove
		}
		if g.Days > 0 && g.Status == "active" {
			left = fmt.Sprintf("%s of %dd", shortSpan(g.Left), g.Days)
			if g.Paused {
				left += " (vacation)"
			}
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\t%s\n", g.ID, g.Game, g.Status, strings.Join(g.Players, ", "), toMove, g.Ply, left)
	}
	tw.Flush()
	return exitOK
}

// shortSpan writes 2d03h, 5h40m.
func shortSpan(d time.Duration) string {
	d = d.Round(time.Minute)
	if d >= 24*time.Hour {
		return fmt.Sprintf("%dd%02dh", d/(24*time.Hour), d%(24*time.Hour)/time.Hour)
	}
	return fmt.Sprintf("%dh%02dm", d/time.Hour, d%time.Hour/time.Minute)
}

func gamesShow(e *env, srv *pbem.Handler, args []string) int {
	id, ok := gameID(e, "show", args, 1)
	if !ok {
		return exitUsage
	}
	g, err := (&mailgames.Reader{DB: srv.DB}).Game(e.ctx, id)
	if err != nil {
		return failed(e, "games show", err)
	}
	fmt.Fprintf(e.stdout, "%s\n%s", g.Record, g.Position)
	fmt.Fprintf(e.stdout, "Status: %s; moves played: %d\n", g.Status, g.Ply)
	if g.ToMove != "" {
		fmt.Fprintf(e.stdout, "To move: %s", g.ToMove)
		if g.Days > 0 {
			fmt.Fprintf(e.stdout, " (%s left of %d days per move)", shortSpan(g.Left), g.Days)
		}
		fmt.Fprintln(e.stdout)
	}
	return exitOK
}

func gamesCancel(e *env, srv *pbem.Handler, args []string) int {
	id, ok := gameID(e, "cancel", args, 1)
	if !ok || !needMail(e, srv, "games cancel") {
		return exitUsage
	}
	if err := srv.CancelGame(e.ctx, id); err != nil {
		return failed(e, "games cancel", err)
	}
	fmt.Fprintf(e.stdout, "game %d cancelled; the players' mails are in the outbox\n", id)
	return exitOK
}

func gamesAdjudicate(e *env, srv *pbem.Handler, args []string) int {
	id, ok := gameID(e, "adjudicate", args, 2)
	if !ok || !needMail(e, srv, "games adjudicate") {
		return exitUsage
	}
	if err := srv.Adjudicate(e.ctx, id, args[1]); err != nil {
		return failed(e, "games adjudicate", err)
	}
	fmt.Fprintf(e.stdout, "game %d adjudicated %s and archived; the players' mails are in the outbox\n", id, args[1])
	return exitOK
}
