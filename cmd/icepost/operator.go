package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"icepost/pbem"
)

// The operator's commands on the daemon's database: icepost games and
// icepost players. They work whether the daemon runs or not; the mails
// they decide (a cancelled game, an adjudication) go to the outbox, and
// the daemon sends them when it runs.

type operatorCommand struct {
	name, args, summary string
	run                 func(e *env, srv *pbem.Server, args []string) int
}

var gamesCommands, playersCommands []operatorCommand

func init() {
	gamesCommands = []operatorCommand{
		{"list", "", "every game: status, players, whose turn, time left", gamesList},
		{"show", "ID", "a game's record and board", gamesShow},
		{"cancel", "ID", "end a game without a result; the players are told", gamesCancel},
		{"adjudicate", "ID RESULT", "end a game with the result given (1-0, 0-1, 1/2-1/2, 1-0-0 ...) and archive it (Termination \"abandoned\")", gamesAdjudicate},
	}
	playersCommands = []operatorCommand{
		{"list", "", "every player: active games, vacation days left, digest, blocked", playersList},
		{"block", "ADDRESS", "ignore an address's mail: no replies, no challenges, no moves", func(e *env, srv *pbem.Server, args []string) int { return playersBlock(e, srv, args, true) }},
		{"unblock", "ADDRESS", "answer an address again", func(e *env, srv *pbem.Server, args []string) int { return playersBlock(e, srv, args, false) }},
	}
}

func cmdGames(e *env, args []string) int { return operator(e, "games", gamesCommands, args) }

func cmdPlayers(e *env, args []string) int { return operator(e, "players", playersCommands, args) }

// operator parses the shared flags, opens the database, and runs a
// subcommand.
func operator(e *env, name string, subs []operatorCommand, args []string) int {
	fs := newFlags(e, name)
	db := fs.String("db", "icepost.db", "the daemon's database file")
	config := fs.String("config", "", "the daemon's configuration file: its database, address, secret and [deadlines]")
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: icepost %s [-db PATH | -config FILE] COMMAND [args]\n\nCommands:\n", name)
		for _, c := range subs {
			fmt.Fprintf(w, "  %-10s %-10s %s\n", c.name, c.args, c.summary)
		}
		fmt.Fprintln(w, "\nFlags:")
		fs.PrintDefaults()
	}
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	rest := fs.Args()
	if len(rest) == 0 {
		fs.Usage()
		return exitUsage
	}
	var sub *operatorCommand
	for i := range subs {
		if subs[i].name == rest[0] {
			sub = &subs[i]
		}
	}
	if sub == nil {
		fmt.Fprintf(e.stderr, "icepost %s: unknown command %q\n", name, rest[0])
		fs.Usage()
		return exitUsage
	}
	srv := &pbem.Server{Archive: archiveAdder{}}
	path := *db
	if *config != "" {
		cfg, err := pbem.LoadConfig(*config)
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost %s: %v\n", name, err)
			return exitUsage
		}
		path, srv.Address, srv.Name, srv.Deadlines = cfg.Database, cfg.Address, cfg.Name, cfg.Deadlines
		if srv.Secret, err = cfg.Secret(); err != nil {
			fmt.Fprintf(e.stderr, "icepost %s: %v\n", name, err)
			return exitUsage
		}
	}
	d, err := openDaemonDB(e.ctx, path)
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost %s: %v\n", name, err)
		return exitUsage
	}
	defer d.Close()
	srv.DB = d
	if *config == "" {
		// The daemon notes its address at each start; the embedded
		// system also keeps its secret in the database.
		srv.Address, srv.Secret, err = pbem.StoredIdentity(e.ctx, d)
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost %s: %v\n", name, err)
			return exitUsage
		}
	}
	return sub.run(e, srv, rest[1:])
}

// needMail checks that the server can write mails: it knows its address
// and secret.
func needMail(e *env, srv *pbem.Server, what string) bool {
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

// failed reports an error: a game that does not exist or a refusal is
// the input's fault (1), anything else the setup's (2).
func failed(e *env, what string, err error) int {
	fmt.Fprintf(e.stderr, "icepost %s: %v\n", what, err)
	if errors.Is(err, pbem.ErrNoGame) || errors.Is(err, pbem.ErrRefused) {
		return exitInvalid
	}
	return exitUsage
}

func gamesList(e *env, srv *pbem.Server, args []string) int {
	if len(args) != 0 {
		fmt.Fprintln(e.stderr, "icepost games list: no arguments")
		return exitUsage
	}
	gs, err := srv.Games(e.ctx)
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

func gamesShow(e *env, srv *pbem.Server, args []string) int {
	id, ok := gameID(e, "show", args, 1)
	if !ok {
		return exitUsage
	}
	g, err := srv.Game(e.ctx, id)
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

func gamesCancel(e *env, srv *pbem.Server, args []string) int {
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

func gamesAdjudicate(e *env, srv *pbem.Server, args []string) int {
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
