// icepost web: the read-only web site over the archive and the games by
// mail.

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"icepost/pbem"
	"icepost/pbem/config"
	"icepost/pbem/mailgames"
	"icepost/sqlitedb"
	"icepost/web"
)

func cmdWeb(e *env, args []string) int {
	fs := newFlags(e, "web")
	addr := fs.String("addr", "127.0.0.1:8080", "where to listen (loopback unless told otherwise; port 0 for any free port)")
	dbPath := fs.String("db", "icepost.db", "the archive's database file")
	mailDB := fs.String("mail-db", "", "the mail daemon's database file, for the games by mail (read only; often the same file as -db)")
	quiet := fs.Bool("q", false, "log only warnings and errors")
	configPath := fs.String("config", "", "the mail daemon's configuration: its database for the archive and the games by mail, its secret, and the play pages a board mail's link opens (web_url)")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	var cfg *config.Config
	if *configPath != "" {
		var err error
		if cfg, err = config.Load(*configPath); err != nil {
			fmt.Fprintf(e.stderr, "icepost web: %v\n", err)
			return exitUsage
		}
		*dbPath, *mailDB = cfg.Database, cfg.Database
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(e.stderr, "icepost web: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	log := newLogger(e.stderr, !*quiet)
	// The site makes no archive: a mistyped path must not serve an
	// empty one.
	if _, err := os.Stat(*dbPath); err != nil {
		fmt.Fprintf(e.stderr, "icepost web: no archive at %s (icepost archive import FILE makes one; -db names another)\n", *dbPath)
		return exitUsage
	}
	a, err := openArchive(e, *dbPath)
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost web: %v\n", err)
		return exitUsage
	}
	defer a.Close()
	var mail web.MailGames // stays nil without -mail-db
	if *mailDB != "" {
		db, err := sqlitedb.OpenReadOnly(e.ctx, *mailDB)
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost web: -mail-db: %v\n", err)
			return exitUsage
		}
		defer db.Close()
		mg := &mailgames.Reader{DB: db}
		if _, err := mg.Revision(e.ctx); err != nil {
			fmt.Fprintf(e.stderr, "icepost web: -mail-db %s is not a mail daemon's database (%v)\n", *mailDB, err)
			return exitUsage
		}
		mail = mg
	}
	site, err := web.New(a, mail, log)
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost web: %v\n", err)
		return exitUsage
	}
	if cfg != nil {
		// The play pages write as the daemon does: through pbem, on a
		// connection of their own to the daemon's database.
		srv, closeDB, err := playServer(e.ctx, cfg, log)
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost web: %v\n", err)
			return exitUsage
		}
		defer closeDB()
		site.Play = srv
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost web: cannot listen on %s: %v (another program may hold the port: -addr 127.0.0.1:0 takes any free one)\n", *addr, err)
		return exitUsage
	}
	if host, _, err := net.SplitHostPort(ln.Addr().String()); err == nil {
		if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
			fmt.Fprintf(e.stderr, "NOTE: listening on %s: the site is open to other machines, not only this one.\n", ln.Addr())
		}
	}
	srv := site.Server(*addr)
	fmt.Fprintf(e.stdout, "icepost web: http://%s/ (archive %s", ln.Addr(), *dbPath)
	if *mailDB != "" {
		fmt.Fprintf(e.stdout, ", games by mail from %s", *mailDB)
	}
	fmt.Fprintln(e.stdout, "). Stop with Ctrl-C.")
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		fmt.Fprintf(e.stderr, "icepost web: %v\n", err)
		return exitUsage
	case <-e.ctx.Done():
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Warn("icepost web: shutdown", "err", err)
	}
	log.Warn("icepost web stopped", "cause", context.Cause(e.ctx))
	return exitOK
}

// playServer is the daemon's Server for the play pages: its database,
// address, secret and rules of play from the config, without a mailbox.
func playServer(ctx context.Context, cfg *config.Config, log *slog.Logger) (*pbem.Handler, func(), error) {
	secret, err := cfg.Secret()
	if err != nil {
		return nil, nil, err
	}
	db, err := openExistingDaemonDB(ctx, cfg.Database)
	if err != nil {
		return nil, nil, err
	}
	srv := &pbem.Handler{DB: db, Address: cfg.Address, Name: cfg.Name, Secret: secret, Log: log, Archive: archiveAdder{db},
		AuthServID: cfg.AuthServID, Deadlines: cfg.Deadlines, Bots: cfg.Bots, WebURL: cfg.WebURL}
	return srv, func() { db.Close() }, nil
}
