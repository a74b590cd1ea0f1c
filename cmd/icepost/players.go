// icepost players: the players by mail; block or unblock an address;
// export or forget what is kept about one.

package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"icepost/archive"
	"icepost/notation"
	"icepost/pbem"
	"icepost/pbem/players"
)

func cmdPlayers(e *env, args []string) int { return operator(e, "players", args) }

func playersList(e *env, srv *pbem.Handler, args []string) int {
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
	losses, err := mailAnalyses(e, srv)
	if err != nil {
		return failed(e, "players list", err)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ADDRESS\tGAMES\tVACATION LEFT\tDIGEST\tBLOCKED\tAVG LOSS\tRATINGS")
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
		r := ratings[p.Address]
		if r == "" {
			r = "-"
		}
		loss := losses[p.Address]
		if loss == "" {
			loss = "-"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\n", p.Address, p.Games, vac, yesNo(p.Digest), yesNo(p.Blocked), loss, r)
	}
	tw.Flush()
	return exitOK
}

// mailRatings says each address's ratings, from the archive in the
// daemon's file (the games it finished): "IceSickle 1620±80, Pikemen
// 1480±150", by the player the archive knows at that address.
func mailRatings(e *env, srv *pbem.Handler) (map[string]string, error) {
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

// mailAnalyses says each address's average loss a move in the archived
// games the computer analysed (icepost archive analyze on the daemon's
// file): "0.031 (412 moves)", by the player the archive knows at that
// address.
func mailAnalyses(e *env, srv *pbem.Handler) (map[string]string, error) {
	a := archive.Wrap(srv.DB)
	players, err := a.AddressPlayers(e.ctx)
	if err != nil {
		return nil, err
	}
	an, err := a.PlayerAnalyses(e.ctx)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for addr, name := range players {
		if s, ok := an[name]; ok && s.Moves > 0 {
			out[addr] = fmt.Sprintf("%.3f (%d moves)", s.Loss, s.Moves)
		}
	}
	return out, nil
}

func playersBlock(e *env, srv *pbem.Handler, args []string, block bool) int {
	what := "block"
	if !block {
		what = "unblock"
	}
	if len(args) != 1 {
		fmt.Fprintf(e.stderr, "icepost players %s: give one address\n", what)
		return exitUsage
	}
	addr, err := players.Block(e.ctx, srv.DB, args[0], block)
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost players %s: %v\n", what, err)
		return exitUsage
	}
	fmt.Fprintf(e.stdout, "%s %sed\n", addr, what)
	return exitOK
}

func playersExport(e *env, srv *pbem.Handler, args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(e.stderr, "icepost players export: give one address")
		return exitUsage
	}
	p, err := players.Export(e.ctx, srv.DB, archiveAdder{}, args[0])
	if err != nil {
		return failed(e, "players export", err)
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(p); err != nil {
		return failed(e, "players export", err)
	}
	return exitOK
}

func playersForget(e *env, srv *pbem.Handler, args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(e.stderr, "icepost players forget: give one address")
		return exitUsage
	}
	f, err := players.Forget(e.ctx, srv.DB, archiveAdder{}, args[0], time.Now())
	if err != nil {
		return failed(e, "players forget", err)
	}
	fmt.Fprintf(e.stdout, "%s is now %s: %d games by mail, %d archived games, %d mails to them emptied\n",
		f.Address, f.Pseudonym, f.Games, f.Archived, f.Mails)
	if f.WasBlocked {
		fmt.Fprintln(e.stdout, "the address was blocked: the block is gone with it")
	}
	return exitOK
}

// AddressGames and RewriteAddressGames make archiveAdder a
// players.Archive, for players export and forget.
func (archiveAdder) AddressGames(ctx context.Context, tx *sql.Tx, address string) ([]players.ArchivedGame, error) {
	gs, err := archive.AddressGames(ctx, tx, address)
	out := make([]players.ArchivedGame, len(gs))
	for i, g := range gs {
		out[i] = players.ArchivedGame{ID: g.ID, MailGame: g.MailGame, Record: string(g.Record)}
	}
	return out, err
}

func (archiveAdder) RewriteAddressGames(ctx context.Context, tx *sql.Tx, address string, edit func(*notation.Record) error) (int, error) {
	return archive.RewriteAddressGames(ctx, tx, address, edit)
}
