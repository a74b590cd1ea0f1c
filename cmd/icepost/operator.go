// The operator's commands on the daemon's database, icepost games and
// icepost players: what they share (their flags, opening the database,
// the dispatch to a subcommand, errors). They work whether the daemon
// runs or not; the mails they decide (a cancelled game, an adjudication)
// go to the outbox, and the daemon sends them when it runs.

package main

import (
	"errors"
	"fmt"

	"icepost/pbem"
	"icepost/pbem/config"
	"icepost/pbem/mailgames"
)

// operator parses the shared flags, opens the database, and runs a
// subcommand of the command name (games or players).
func operator(e *env, name string, args []string) int {
	fs := newFlags(e, name)
	db := fs.String("db", "icepost.db", "the daemon's database file")
	configPath := fs.String("config", "", "the daemon's configuration file: its database, address, secret and [deadlines]")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	rest := fs.Args()
	if len(rest) == 0 {
		fs.Usage()
		return exitUsage
	}
	sub := find(name).sub(rest[0])
	if sub == nil {
		fmt.Fprintf(e.stderr, "icepost %s: unknown command %q\n", name, rest[0])
		fs.Usage()
		return exitUsage
	}
	srv := &pbem.Handler{Archive: archiveAdder{}}
	path := *db
	if *configPath != "" {
		cfg, err := config.Load(*configPath)
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost %s: %v\n", name, err)
			return exitUsage
		}
		path, srv.Address, srv.Name, srv.Deadlines, srv.Bots = cfg.Database, cfg.Address, cfg.Name, cfg.Deadlines, cfg.Bots
		if srv.Secret, err = cfg.Secret(); err != nil {
			fmt.Fprintf(e.stderr, "icepost %s: %v\n", name, err)
			return exitUsage
		}
	}
	d, err := openExistingDaemonDB(e.ctx, path)
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost %s: %v\n", name, err)
		return exitUsage
	}
	defer d.Close()
	srv.DB = d
	if *configPath == "" {
		// The daemon notes its address at each start; the embedded
		// system also keeps its secret in the database.
		srv.Address, srv.Secret, err = pbem.StoredIdentity(e.ctx, d)
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost %s: %v\n", name, err)
			return exitUsage
		}
	}
	subEnv := *e
	subEnv.server = srv
	return sub.run(&subEnv, rest[1:])
}

// onServer makes the run of a games or players subcommand, which works on
// the server that operator set up.
func onServer(run func(e *env, srv *pbem.Handler, args []string) int) func(e *env, args []string) int {
	return func(e *env, args []string) int { return run(e, e.server, args) }
}

// failed reports an error: a game that does not exist or a refusal is
// the input's fault (1), anything else the setup's (2).
func failed(e *env, what string, err error) int {
	fmt.Fprintf(e.stderr, "icepost %s: %v\n", what, err)
	if errors.Is(err, mailgames.ErrNoGame) || errors.Is(err, mailgames.ErrRefused) {
		return exitInvalid
	}
	return exitUsage
}
