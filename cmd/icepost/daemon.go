// The daemon's database and the embedded mail system, shared by serve,
// demo, games and players: opening the database, the archive that
// finished mail games go to, the embedded system with its daemon, and the
// daemon's logger.

package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	"icepost/analysis"

	"icepost/archive"
	"icepost/notation"
	"icepost/pbem"
	"icepost/pbem/daemon"
	"icepost/pbem/events"
	"icepost/pbem/localmail"
	"icepost/pbem/mailbox"
	"icepost/pbem/store"
	"icepost/puzzle"
)

// archiveAdder puts finished mail games into the archive, inside the
// daemon's transaction. db, when set, is the daemon's database, whose
// archive rates the players (Rating).
type archiveAdder struct{ db *sql.DB }

// Rating makes archiveAdder a pbem.RatingArchive: a seek's range of
// ratings is checked against the archive's Glicko-2 ratings.
func (a archiveAdder) Rating(ctx context.Context, address, game string) (float64, bool, error) {
	if a.db == nil {
		return 0, false, nil
	}
	r, ok, err := archive.Wrap(a.db).AddressRating(ctx, address, game)
	return r.Rating, ok, err
}

// NextPuzzle and Puzzle make archiveAdder a pbem.PuzzleArchive: the
// daily puzzle by mail comes from the puzzles the archive found in its
// games (icepost archive puzzles).
func (a archiveAdder) NextPuzzle(ctx context.Context, after int64) (int64, puzzle.Puzzle, bool, error) {
	if a.db == nil {
		return 0, puzzle.Puzzle{}, false, nil
	}
	p, err := archive.Wrap(a.db).NextPuzzle(ctx, "", after)
	if errors.Is(err, archive.ErrNotFound) {
		return 0, puzzle.Puzzle{}, false, nil
	}
	if err != nil {
		return 0, puzzle.Puzzle{}, false, err
	}
	return p.ID, p.Puzzle, true, nil
}

func (a archiveAdder) Puzzle(ctx context.Context, id int64) (puzzle.Puzzle, bool, error) {
	if a.db == nil {
		return puzzle.Puzzle{}, false, nil
	}
	p, err := archive.Wrap(a.db).Puzzle(ctx, id)
	if errors.Is(err, archive.ErrNotFound) {
		return puzzle.Puzzle{}, false, nil
	}
	if err != nil {
		return puzzle.Puzzle{}, false, err
	}
	return p.Puzzle, true, nil
}

func (archiveAdder) AddGame(ctx context.Context, tx *sql.Tx, g *notation.Game, source string) error {
	_, _, err := archive.AddGame(ctx, tx, g, archive.Provenance{MailGame: source})
	return err
}

// AddAnalysis makes archiveAdder a pbem.AnalysisArchive: the analyses
// players ask for by mail go into the archived game too.
func (archiveAdder) AddAnalysis(ctx context.Context, tx *sql.Tx, source string, rep *analysis.Report) error {
	_, err := archive.AddAnalysis(ctx, tx, source, rep)
	return err
}

// openDaemonDB opens the database and brings the archive's and the
// daemon's tables up to date. log, when not nil, is told how far an
// upgrade that indexes the archive's games again got (it can take
// minutes, and the daemon reads no mail meanwhile).
func openDaemonDB(ctx context.Context, path string, log *slog.Logger) (*sql.DB, error) {
	db, err := store.Open(path)
	if err != nil {
		return nil, err
	}
	var opt archive.MigrateOptions
	if log != nil {
		opt.Reindexing = func(done, total int) {
			log.Info("indexing the archive's positions again (once, after an upgrade)", "games", done, "of", total)
		}
	}
	if err := archive.MigrateWith(ctx, db, opt); err != nil {
		db.Close()
		return nil, err
	}
	if err := store.Migrate(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// openExistingDaemonDB opens the daemon's database at path as
// openDaemonDB does, but only when the file exists: a command that reads
// the daemon's database (games, players, outbox) must not leave an empty
// one behind when given a wrong path. The error names the file looked
// for; the command exits 2 (exitUsage) on it.
func openExistingDaemonDB(ctx context.Context, path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		where := path
		if abs, aerr := filepath.Abs(path); aerr == nil && abs != path {
			where += " (" + abs + ")"
		}
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no database at %s: name the daemon's with -db FILE or -config FILE", where)
		}
		return nil, fmt.Errorf("the database %s: %w", where, err)
	}
	return openDaemonDB(ctx, path, nil)
}

// embeddedUsers are the accounts of the embedded mail system: the server's
// and three players'. Passwords equal the names: it listens on loopback
// only.
var embeddedUsers = []string{"games", "ada", "bob", "cy"}

// embedded is the mail system and daemon of `serve` without a config.
type embedded struct {
	sys    *localmail.System
	db     *sql.DB
	daemon *daemon.Server
}

func startEmbedded(ctx context.Context, dbPath, imapAddr, smtpAddr string, log *slog.Logger, dryRun bool) (*embedded, error) {
	users := map[string]string{}
	for _, u := range embeddedUsers {
		users[u] = u
	}
	sys, err := localmail.Start(ctx, localmail.Config{Domain: "icepost.localhost", Users: users,
		IMAPAddr: freeOr(imapAddr), SMTPAddr: freeOr(smtpAddr)})
	if err != nil {
		return nil, err
	}
	db, err := openDaemonDB(ctx, dbPath, log)
	if err != nil {
		sys.Stop()
		return nil, err
	}
	// The embedded system keeps its token secret in the database, so that
	// games survive a restart.
	secret, err := store.Secret(ctx, db, func() string {
		var b [32]byte
		rand.Read(b[:])
		return hex.EncodeToString(b[:])
	})
	if err != nil {
		sys.Stop()
		db.Close()
		return nil, err
	}
	// The embedded system vouches for its senders (it takes a mail only
	// from a logged-in account, with its own address as From): a new mail
	// acts at once, as with an operator's checked senders.
	srv := &pbem.Handler{DB: db, Address: sys.Address("games"), Secret: []byte(secret), Log: log, Archive: archiveAdder{db}, DryRun: dryRun,
		AuthServID: sys.AuthServID()}
	reader, err := mailbox.NewReader(mailbox.IMAPConfig{Addr: sys.IMAPAddr, TLS: mailbox.TLSNone, Username: "games", Password: "games", Logger: log})
	if err != nil {
		sys.Stop()
		db.Close()
		return nil, err
	}
	// The embedded SMTP server takes mail only from a logged-in account,
	// with that account's address as From: the server's own is games.
	sender, err := mailbox.NewSender(mailbox.SMTPConfig{Addr: sys.SMTPAddr, TLS: mailbox.TLSNone, Username: "games", Password: sys.Password("games")})
	if err != nil {
		sys.Stop()
		db.Close()
		return nil, err
	}
	tournaments := &events.Service{Handler: srv}
	srv.Events = tournaments
	return &embedded{sys: sys, db: db, daemon: &daemon.Server{Handler: srv, Mailbox: reader, Sender: sender, Poll: 30 * time.Second,
		Services: []daemon.Service{tournaments}}}, nil
}

func (e *embedded) close() {
	if c, ok := e.daemon.Sender.(io.Closer); ok {
		c.Close() // kept SMTP connections say QUIT before the server stops
	}
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

func newLogger(w io.Writer, verbose bool) *slog.Logger { return newFormatLogger(w, verbose, "text") }

// newFormatLogger logs in the config's log_format: "json" (one object a
// line, for a log collector) or "text" (key=value).
func newFormatLogger(w io.Writer, verbose bool, format string) *slog.Logger {
	level := slog.LevelInfo
	if !verbose {
		level = slog.LevelWarn
	}
	opts := &slog.HandlerOptions{Level: level}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
