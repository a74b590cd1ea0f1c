package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"time"

	"icepost/archive"
	"icepost/notation"
	"icepost/pbem"
	"icepost/pbem/mailbox"
	"icepost/pbem/mailread"
	"icepost/pbem/mailtest"
	"icepost/rules/games"
)

// archiveAdder puts finished mail games into the archive, inside the
// daemon's transaction.
type archiveAdder struct{}

func (archiveAdder) AddGame(ctx context.Context, tx *sql.Tx, g *notation.Game, source string) error {
	_, _, err := archive.AddGame(ctx, tx, g, archive.Provenance{MailGame: source})
	return err
}

// openDaemonDB opens the database and brings the archive's and the
// daemon's tables up to date.
func openDaemonDB(ctx context.Context, path string) (*sql.DB, error) {
	db, err := pbem.OpenDB(path)
	if err != nil {
		return nil, err
	}
	if err := archive.Migrate(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	if err := pbem.Migrate(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// embeddedUsers are the accounts of the embedded mail system: the server's
// and three players'. Passwords equal the names: it listens on loopback
// only.
var embeddedUsers = []string{"games", "ada", "bob", "cy"}

// embedded is the mail system and daemon of `serve` without a config.
type embedded struct {
	sys    *mailtest.System
	db     *sql.DB
	daemon *pbem.Daemon
}

func startEmbedded(ctx context.Context, dbPath, imapAddr, smtpAddr string, log *slog.Logger, dryRun bool) (*embedded, error) {
	users := map[string]string{}
	for _, u := range embeddedUsers {
		users[u] = u
	}
	sys, err := mailtest.Start(ctx, mailtest.Config{Domain: "icepost.localhost", Users: users,
		IMAPAddr: freeOr(imapAddr), SMTPAddr: freeOr(smtpAddr)})
	if err != nil {
		return nil, err
	}
	db, err := openDaemonDB(ctx, dbPath)
	if err != nil {
		sys.Stop()
		return nil, err
	}
	// The embedded system keeps its token secret in the database, so that
	// games survive a restart.
	secret, err := pbem.StoredSecret(ctx, db, func() string {
		var b [32]byte
		rand.Read(b[:])
		return hex.EncodeToString(b[:])
	})
	if err != nil {
		sys.Stop()
		db.Close()
		return nil, err
	}
	srv := &pbem.Server{DB: db, Address: sys.Address("games"), Secret: []byte(secret), Log: log, Archive: archiveAdder{}, DryRun: dryRun}
	reader, err := mailbox.NewReader(mailbox.IMAPConfig{Addr: sys.IMAPAddr, TLS: mailbox.TLSNone, Username: "games", Password: "games", Logger: log})
	if err != nil {
		sys.Stop()
		db.Close()
		return nil, err
	}
	sender, err := mailbox.NewSender(mailbox.SMTPConfig{Addr: sys.SMTPAddr, TLS: mailbox.TLSNone})
	if err != nil {
		sys.Stop()
		db.Close()
		return nil, err
	}
	return &embedded{sys: sys, db: db, daemon: &pbem.Daemon{Server: srv, Mailbox: reader, Sender: sender, Poll: 30 * time.Second}}, nil
}

func (e *embedded) close() {
	e.sys.Stop()
	e.db.Close()
}

// freeOr returns addr when it can be listened on, else a free port on
// loopback (so that a second icepost, or a taken port, still starts).
func freeOr(addr string) string {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return "127.0.0.1:0"
	}
	l.Close()
	return addr
}

func newLogger(w io.Writer, verbose bool) *slog.Logger {
	level := slog.LevelInfo
	if !verbose {
		level = slog.LevelWarn
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level}))
}

func cmdServe(e *env, args []string) int {
	fs := newFlags(e, "serve")
	config := fs.String("config", "", "the configuration file (TOML); without it, run on the embedded mail system")
	dbPath := fs.String("db", "icepost.db", "the database file (embedded mode; a config names its own)")
	imapAddr := fs.String("imap", "127.0.0.1:1143", "embedded mode: where the IMAP server listens")
	smtpAddr := fs.String("smtp", "127.0.0.1:1025", "embedded mode: where the SMTP server listens")
	dryRun := fs.Bool("dry-run", false, "read mail and log what would be done; change and send nothing")
	quiet := fs.Bool("q", false, "log only warnings and errors")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	log := newLogger(e.stderr, !*quiet)
	if *config == "" {
		emb, err := startEmbedded(e.ctx, *dbPath, *imapAddr, *smtpAddr, log, *dryRun)
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost serve: %v\n", err)
			return exitUsage
		}
		defer emb.close()
		printEmbedded(e.stdout, emb.sys, *dbPath)
		if err := emb.daemon.Run(e.ctx); err != nil {
			fmt.Fprintf(e.stderr, "icepost serve: %v\n", err)
			return exitUsage
		}
		return exitOK
	}
	cfg, err := pbem.LoadConfig(*config)
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost serve: %v\n", err)
		return exitUsage
	}
	d, closeAll, err := configuredDaemon(e.ctx, cfg, log, *dryRun)
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost serve: %v\n", err)
		return exitUsage
	}
	defer closeAll()
	log.Info("icepost serve", "address", cfg.Address, "imap", cfg.IMAP.Addr, "smtp", cfg.SMTP.Addr, "database", cfg.Database, "dry_run", *dryRun)
	if err := d.Run(e.ctx); err != nil {
		fmt.Fprintf(e.stderr, "icepost serve: %v\n", err)
		return exitUsage
	}
	return exitOK
}

func configuredDaemon(ctx context.Context, cfg *pbem.Config, log *slog.Logger, dryRun bool) (*pbem.Daemon, func(), error) {
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
	db, err := openDaemonDB(ctx, cfg.Database)
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
	srv := &pbem.Server{DB: db, Address: cfg.Address, Name: cfg.Name, Secret: secret, Log: log, Starters: cfg.Starters,
		Archive: archiveAdder{}, ErrorLimit: cfg.ErrorLimit, AuthServID: cfg.AuthServID, DryRun: dryRun,
		Deadlines: cfg.Deadlines}
	d := &pbem.Daemon{Server: srv, Mailbox: reader, Sender: sender, Poll: cfg.PollInterval.Duration}
	return d, func() { reader.Close(); db.Close() }, nil
}

func printEmbedded(w io.Writer, sys *mailtest.System, dbPath string) {
	fmt.Fprintf(w, `icepost is running on its embedded mail system (loopback only; mail is kept in memory).

Connect any mail client:
  IMAP  %s   (no TLS)
  SMTP  %s   (no TLS)
  accounts (user name = password): ada, bob, cy   at %s

Try it: as ada, send a mail to %s with the text
  challenge icesickle %s
then, as bob, reply "accept" to the invitation, and play by replying to the boards.
Games are kept in %s. Stop with Ctrl-C.
`, sys.IMAPAddr, sys.SMTPAddr, sys.Domain, sys.Address("games"), sys.Address("bob"), dbPath)
}

func cmdMail(e *env, args []string) int {
	if len(args) == 0 || args[0] != "parse" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
			fmt.Fprintln(e.stdout, "Usage: icepost mail parse [-json] [FILE]\n\nPrint what the daemon reads out of one mail (standard input without FILE).")
			return exitOK
		}
		fmt.Fprintln(e.stderr, "icepost mail: the subcommand is parse: icepost mail parse [-json] [FILE]")
		return exitUsage
	}
	fs := newFlags(e, "mail")
	asJSON := fs.Bool("json", false, "print one JSON object: commands, comment, auto, error")
	if code := parseFlags(e, fs, args[1:]); code >= 0 {
		return code
	}
	in := e.stdin
	if fs.NArg() > 1 {
		fmt.Fprintln(e.stderr, "icepost mail parse: at most one file")
		return exitUsage
	}
	if fs.NArg() == 1 {
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost mail parse: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		in = f
	}
	res := mailread.Summary(in, games.Grammar{})
	if *asJSON {
		b, err := res.JSON()
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost mail parse: %v\n", err)
			return exitUsage
		}
		e.stdout.Write(append(b, '\n'))
	} else {
		fmt.Fprintf(e.stdout, "from:     %s\nsubject:  %s\n", res.From, res.Subject)
		for _, c := range res.Commands {
			fmt.Fprintf(e.stdout, "command:  %s\n", c)
		}
		if len(res.Commands) == 0 {
			fmt.Fprintln(e.stdout, "command:  (none)")
		}
		if res.Comment != "" {
			fmt.Fprintf(e.stdout, "comment:  %s\n", res.Comment)
		}
		if res.Auto {
			fmt.Fprintf(e.stdout, "automatic: yes (%s): it would not be answered\n", res.AutoReason)
		}
	}
	if res.Error != "" {
		fmt.Fprintf(e.stderr, "icepost mail parse: %s\n", res.Error)
		return exitInvalid
	}
	return exitOK
}
