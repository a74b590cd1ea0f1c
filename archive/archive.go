// Package archive keeps every finished game in one SQLite file so that
// people can find games again: by player, result, date, event, tag, length,
// words in comments, a position reached or the moves a game began with,
// and so that statistics (first-player advantage, results per player, an
// opening explorer) come from one place.
//
// Games enter through Import (record files, streamed, each record replayed
// and validated; what does not validate goes to a quarantine table with
// the reason) or through AddGame, which the mail daemon calls inside its
// own transaction when a game ends. The schema is created and upgraded by
// numbered migrations embedded in the binary; Migrate runs them on any
// *sql.DB, so that the daemon's tables and the archive's can share a file.
//
// Tables: games, players, player_aliases, seats, tags, positions,
// game_text (FTS4), quarantine, and archive_migrations for the schema
// version.
package archive

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	_ "github.com/mattn/go-sqlite3" // the database/sql driver "sqlite3"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Archive is an open archive database.
type Archive struct {
	db *sql.DB
}

// DSN returns the connection string for the SQLite file at path with the
// settings the archive relies on: WAL journal (readers do not block the
// writer), foreign keys, a busy timeout, and transactions that take the
// write lock at BEGIN (_txlock=immediate) so that two writers queue up
// instead of failing with "database is locked" half-way. Settings are in
// the connection string so that every pooled connection gets them.
func DSN(path string) string {
	v := url.Values{}
	v.Set("_journal_mode", "WAL")
	v.Set("_foreign_keys", "on")
	v.Set("_busy_timeout", "30000")
	v.Set("_txlock", "immediate")
	v.Set("_synchronous", "NORMAL")
	v.Set("_cache_size", "-65536") // KiB: the position index is large and written at random
	return "file:" + escapePath(path) + "?" + v.Encode()
}

// escapePath keeps characters of a file name that the URI form would read
// as syntax.
func escapePath(p string) string {
	r := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
	return r.Replace(p)
}

// Open opens (creating if needed) the archive at path and brings its
// schema up to date.
func Open(ctx context.Context, path string) (*Archive, error) {
	db, err := sql.Open("sqlite3", DSN(path))
	if err != nil {
		return nil, err
	}
	if err := Migrate(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("archive %s: %w", path, err)
	}
	return &Archive{db: db}, nil
}

// DB returns the underlying database, for callers that want their own
// transactions (AddGame takes one).
func (a *Archive) DB() *sql.DB { return a.db }

// Close closes the database.
func (a *Archive) Close() error { return a.db.Close() }

type migration struct {
	version int
	name    string
	sql     string
}

func migrations() ([]migration, error) {
	files, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, f := range files {
		base := path.Base(f)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v < 1 {
			return nil, fmt.Errorf("migration file %s: name it NNNN_what.sql", base)
		}
		b, err := migrationFiles.ReadFile(f)
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: base, sql: string(b)})
	}
	slices.SortFunc(ms, func(a, b migration) int { return a.version - b.version })
	for i := 1; i < len(ms); i++ {
		if ms[i].version == ms[i-1].version {
			return nil, fmt.Errorf("two migrations numbered %d", ms[i].version)
		}
	}
	return ms, nil
}

// SchemaVersion is the newest migration this build knows.
func SchemaVersion() int {
	ms, err := migrations()
	if err != nil || len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

// ErrNewerSchema: the database was written by a newer icepost.
var ErrNewerSchema = errors.New("the archive's schema is newer than this program")

// Migrate creates the archive's tables in db, or upgrades them, running
// each pending migration in its own transaction. The version is kept in
// the table archive_migrations (not PRAGMA user_version, which the file
// may share with the mail daemon's own schema). db should be opened with
// DSN's settings. Migrate is safe to run from several processes at once.
func Migrate(ctx context.Context, db *sql.DB) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS archive_migrations (
		version INTEGER PRIMARY KEY,
		name    TEXT NOT NULL,
		applied INTEGER NOT NULL DEFAULT (unixepoch())
	)`); err != nil {
		return fmt.Errorf("migrations table: %w", err)
	}
	var have int
	if err := db.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM archive_migrations`).Scan(&have); err != nil {
		return err
	}
	if len(ms) > 0 && have > ms[len(ms)-1].version {
		return fmt.Errorf("%w (version %d, this program knows up to %d)", ErrNewerSchema, have, ms[len(ms)-1].version)
	}
	for _, m := range ms {
		if m.version <= have {
			continue
		}
		if err := migrateOne(ctx, db, m); err != nil {
			return err
		}
	}
	return nil
}

func migrateOne(ctx context.Context, db *sql.DB, m migration) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Another process may have run it while we waited for the lock.
	var done int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM archive_migrations WHERE version = ?`, m.version).Scan(&done); err != nil {
		return err
	}
	if done > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return fmt.Errorf("migration %s: %w", m.name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO archive_migrations(version, name) VALUES (?, ?)`, m.version, m.name); err != nil {
		return err
	}
	return tx.Commit()
}
