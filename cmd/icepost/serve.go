// icepost serve: the mail daemon, on the mail system a config names or on
// the embedded one.

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"icepost/pbem"
	"icepost/pbem/config"
	"icepost/pbem/daemon"
	"icepost/pbem/events"
	"icepost/pbem/localmail"
	"icepost/pbem/mailbox"
	"icepost/pbem/monitor"
)

func cmdServe(e *env, args []string) int {
	fs := newFlags(e, "serve")
	configPath := fs.String("config", "", "the configuration file (TOML); without it, run on the embedded mail system")
	dbPath := fs.String("db", "icepost.db", "the database file (embedded mode; a config names its own)")
	imapAddr := fs.String("imap", "127.0.0.1:1143", "embedded mode: where the IMAP server listens")
	smtpAddr := fs.String("smtp", "127.0.0.1:1025", "embedded mode: where the SMTP server listens")
	dryRun := fs.Bool("dry-run", false, "read mail and log what would be done; change and send nothing")
	quiet := fs.Bool("q", false, "log only warnings and errors")
	webAddr := fs.String("web", "", "also serve the web site and its play pages here (host:port, like 127.0.0.1:8080); board mails link to it (a config's web_addr says the same)")
	check := fs.Bool("check", false, "check the settings: the database, and a login to IMAP and SMTP; start nothing, send nothing (exit 0 when all works)")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if *check {
		ok := false
		if *configPath == "" {
			ok = checkEmbedded(e.ctx, e.stdout, *dbPath, *imapAddr, *smtpAddr)
		} else {
			ok = checkConfigured(e.ctx, e.stdout, *configPath)
		}
		if !ok {
			return exitInvalid
		}
		return exitOK
	}
	var cfg *config.Config
	db, format := *dbPath, "text"
	if *configPath != "" {
		var err error
		if cfg, err = config.Load(*configPath); err != nil {
			fmt.Fprintf(e.stderr, "icepost serve: %v\n", err)
			return exitUsage
		}
		db, format = cfg.Database, cfg.LogFormat
	}
	log := newFormatLogger(e.stderr, !*quiet, format)
	// Before the database is opened, so that a refused start changes
	// nothing in it.
	lock, err := lockDaemon(db)
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost serve: %v\n", err)
		if errors.As(err, new(*runningError)) {
			return exitRunning
		}
		return exitUsage
	}
	defer lock.release()
	defer onHangup(log)()
	if cfg == nil {
		emb, err := startEmbedded(e.ctx, *dbPath, *imapAddr, *smtpAddr, log, *dryRun)
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost serve: %v\n", err)
			return exitUsage
		}
		defer emb.close()
		site := ""
		if *webAddr != "" {
			got, stop, err := serveWeb(e, log, *webAddr, *dbPath, emb.daemon.Handler)
			if err != nil {
				fmt.Fprintf(e.stderr, "icepost serve: %v\n", err)
				return exitUsage
			}
			defer stop()
			site = "http://" + got + "/"
		}
		logStarted(log, "imap", emb.sys.IMAPAddr, "smtp", emb.sys.SMTPAddr, "web", site, "database", *dbPath, "dry_run", *dryRun)
		printEmbedded(e.stdout, emb.sys, *dbPath, site)
		// Said on the terminal whatever the log level: a mail client set
		// up for the usual port would find nothing there.
		for _, p := range []struct{ what, asked, got string }{{"IMAP", *imapAddr, emb.sys.IMAPAddr}, {"SMTP", *smtpAddr, emb.sys.SMTPAddr}} {
			if p.got != p.asked && !strings.HasSuffix(p.asked, ":0") {
				fmt.Fprintf(e.stderr, "NOTE: %s is taken: %s listens on %s instead. Point your mail client there (or stop what holds %s).\n", p.asked, p.what, p.got, p.asked)
			}
		}
		return runDaemon(e, log, emb.daemon)
	}
	d, closeAll, err := configuredDaemon(e.ctx, cfg, log, *dryRun)
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost serve: %v\n", err)
		return exitUsage
	}
	defer closeAll()
	// A fault of the settings stops serve now rather than after the
	// first reply is lost (check.go).
	reader, sender := d.Mailbox.(*mailbox.Reader), d.Sender.(*mailbox.Sender)
	if err := checkAtStart(e.ctx, log, reader.Check, func(ctx context.Context) error { return sender.Check(ctx, cfg.Address) }); err != nil {
		fmt.Fprintf(e.stderr, "icepost serve: %v\n", err)
		return exitInvalid
	}
	if cfg.MetricsAddr != "" {
		stop, err := serveMonitor(e.ctx, log, cfg.MetricsAddr, d)
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost serve: metrics_addr: %v\n", err)
			return exitInvalid
		}
		defer stop()
		if cfg.MetricsPublic {
			log.Warn("metrics_addr listens beyond loopback (metrics_public = true): /metrics and /healthz answer anyone who can reach them, with no login", "metrics", cfg.MetricsAddr)
		}
	}
	if *webAddr == "" {
		*webAddr = cfg.WebAddr
	}
	site := ""
	if *webAddr != "" {
		got, stop, err := serveWeb(e, log, *webAddr, cfg.Database, d.Handler)
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost serve: %v\n", err)
			return exitInvalid
		}
		defer stop()
		site = "http://" + got + "/"
	}
	logStarted(log, "address", cfg.Address, "imap", cfg.IMAP.Addr, "smtp", cfg.SMTP.Addr, "database", cfg.Database, "metrics", cfg.MetricsAddr, "web", site, "dry_run", *dryRun)
	return runDaemon(e, log, d)
}

// serveMonitor serves /metrics and /healthz for d on addr
// (pbem/monitor) until stop is called.
func serveMonitor(ctx context.Context, log *slog.Logger, addr string, d *daemon.Server) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: monitor.New(d.Handler.DB, d).Handler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server stopped", "err", err)
		}
	}()
	return func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}, nil
}

// runDaemon runs d until the context ends, and logs why it stopped (a
// signal, for the operator who wonders whether it crashed).
func runDaemon(e *env, log *slog.Logger, d *daemon.Server) int {
	err := d.Run(e.ctx)
	if err != nil && e.ctx.Err() == nil {
		fmt.Fprintf(e.stderr, "icepost serve: %v\n", err)
		return exitUsage
	}
	// Logged at Warn, so that -q shows it too: it is the last line.
	log.Warn("icepost serve stopped", "cause", context.Cause(e.ctx))
	return exitOK
}

// exitRunning: serve refused to start because another daemon runs on
// its database.
const exitRunning = 1

// logStarted logs serve's start line, with the build that icepost
// version prints.
func logStarted(log *slog.Logger, args ...any) {
	b := readBuild()
	rev := b.revision
	switch {
	case rev == "":
		rev = "unknown"
	case b.modified:
		rev += " (modified)"
	}
	log.Info("icepost serve started", append([]any{"version", b.version, "revision", rev}, args...)...)
}

// onHangup keeps SIGHUP from ending serve without a word, as it would by
// default (a closed terminal, or an operator who expects a reload):
// there is nothing to reload, and logs go to stderr, so there is no log
// file to reopen either. It returns the func that stops it.
func onHangup(log *slog.Logger) (stop func()) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-hup:
				log.Warn("SIGHUP: nothing to reload; restart icepost serve to apply a new config")
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(hup)
		close(done)
	}
}

func configuredDaemon(ctx context.Context, cfg *config.Config, log *slog.Logger, dryRun bool) (*daemon.Server, func(), error) {
	secret, err := cfg.Secret()
	if err != nil {
		return nil, nil, err
	}
	imapCfg, err := cfg.IMAPConfig()
	if err != nil {
		return nil, nil, err
	}
	imapCfg.Logger = log
	smtpCfg, err := cfg.SMTPConfig()
	if err != nil {
		return nil, nil, err
	}
	db, err := openDaemonDB(ctx, cfg.Database, log)
	if err != nil {
		return nil, nil, err
	}
	reader, err := mailbox.NewReader(imapCfg)
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	sender, err := mailbox.NewSender(smtpCfg)
	if err != nil {
		db.Close()
		return nil, nil, err
	}
	srv := &pbem.Handler{DB: db, Address: cfg.Address, Name: cfg.Name, Secret: secret, Log: log, Starters: cfg.Starters,
		Archive: archiveAdder{db}, ErrorLimit: cfg.ErrorLimit, AuthServID: cfg.AuthServID, DryRun: dryRun,
		Deadlines: cfg.Deadlines, Bots: cfg.Bots, WebURL: cfg.WebURL}
	tournaments := &events.Service{Handler: srv}
	srv.Events = tournaments
	d := &daemon.Server{Handler: srv, Mailbox: reader, Sender: sender, Poll: cfg.PollInterval.Duration, KeepSent: cfg.KeepSent.Duration,
		Services: []daemon.Service{tournaments}}
	return d, func() { sender.Close(); reader.Close(); db.Close() }, nil
}

func printEmbedded(w io.Writer, sys *localmail.System, dbPath, site string) {
	fmt.Fprintf(w, `icepost is running on its embedded mail system (loopback only; mail is kept in memory).

Connect any mail client:
  IMAP  %s   (no TLS)
  SMTP  %s   (no TLS)
  accounts (user name = password): ada, bob, cy   at %s
  (log in as ada or ada@%s: both work; SMTP takes mail only from the
  account logged in, with its own address as From)

Try it: as ada, send a mail to %s with the text
  challenge icesickle %s
then, as bob, reply "accept" to the invitation, and play by replying to the boards.
Or play the computer: as ada, send  challenge icesickle bot  (level=1 to 5 for its strength).
Games are kept in %s. Stop with Ctrl-C.
`, sys.IMAPAddr, sys.SMTPAddr, sys.Domain, sys.Domain, sys.Address("games"), sys.Address("bob"), dbPath)
	if site != "" {
		fmt.Fprintf(w, `
The web site: %s
  (the games, the archive, and the play pages each board mail links to)
`, site)
	} else {
		fmt.Fprintf(w, "\nWith -web 127.0.0.1:8080, serve also runs the web site, and each board mail links to its play page.\n")
	}
}
