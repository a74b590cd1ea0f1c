package pbem

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	_ "github.com/mattn/go-sqlite3" // the SQLite driver, "sqlite3"

	"icepost/archive"
)

//go:embed migrations/*.sql
var migrations embed.FS

// OpenDB opens (creating if need be) the SQLite database at path with the
// settings the daemon relies on, the archive's (archive.DSN): WAL, foreign
// keys, a busy timeout, and immediate write transactions, set in the
// connection string so that every pooled connection has them, so that the
// daemon writing and a person searching the archive never see "database
// is locked".
func OpenDB(path string) (*sql.DB, error) {
	db, err := sql.Open("sqlite3", archive.DSN(path))
	if err != nil {
		return nil, err
	}
	if err := db.Ping(); err != nil {
		db.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return db, nil
}

// Migrate brings the daemon's tables up to date: each numbered migration
// not yet applied runs in its own transaction, and the table
// pbem_migrations remembers which ran.
func Migrate(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS pbem_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("pbem: migrations table: %w", err)
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, name := range names {
		base := strings.TrimPrefix(name, "migrations/")
		v, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil {
			return fmt.Errorf("pbem: migration %s: the name must start with its number", base)
		}
		body, err := migrations.ReadFile(name)
		if err != nil {
			return err
		}
		if err := migrateOne(ctx, db, v, base, string(body)); err != nil {
			return err
		}
	}
	return nil
}

func migrateOne(ctx context.Context, db *sql.DB, version int, name, body string) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pbem_migrations WHERE version = ?`, version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, body); err != nil {
		return fmt.Errorf("pbem: migration %s: %w", name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO pbem_migrations (version, name) VALUES (?, ?)`, version, name); err != nil {
		return err
	}
	return tx.Commit()
}

// getState reads a value from pbem_state ("" when missing).
func getState(ctx context.Context, q querier, key string) (string, error) {
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM pbem_state WHERE key = ?`, key).Scan(&v)
	if err == sql.ErrNoRows {
		return "", nil
	}
	return v, err
}

func setState(ctx context.Context, q querier, key, value string) error {
	_, err := q.ExecContext(ctx, `INSERT INTO pbem_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}

// querier is what *sql.DB and *sql.Tx share.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// StoredSecret returns the token secret kept in the database, making and
// storing one with generate the first time (the embedded mail system has
// no configuration to hold it).
func StoredSecret(ctx context.Context, db *sql.DB, generate func() string) (string, error) {
	v, err := getState(ctx, db, "secret")
	if err != nil || v != "" {
		return v, err
	}
	v = generate()
	if _, err := db.ExecContext(ctx, `INSERT OR IGNORE INTO pbem_state (key, value) VALUES ('secret', ?)`, v); err != nil {
		return "", err
	}
	return getState(ctx, db, "secret")
}
