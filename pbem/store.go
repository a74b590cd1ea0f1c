package pbem

import (
	"context"
	"database/sql"
	"embed"

	"icepost/sqlitedb"
)

//go:embed migrations/*.sql
var migrations embed.FS

// schema is the daemon's migrations, recorded in pbem_migrations.
var schema = sqlitedb.Migrations{Name: "mail daemon", Table: "pbem_migrations", Files: migrations, Dir: "migrations"}

// OpenDB opens (creating if need be) the SQLite database at path with the
// settings the daemon relies on (sqlitedb.DSN, the archive's too): WAL,
// foreign keys, a busy timeout, and immediate write transactions, set in
// the connection string so that every pooled connection has them, so that
// the daemon writing and a person searching the archive never see
// "database is locked".
func OpenDB(path string) (*sql.DB, error) {
	return sqlitedb.Open(context.Background(), path)
}

// Migrate brings the daemon's tables up to date: each numbered migration
// not yet applied runs in its own transaction, and the table
// pbem_migrations remembers which ran. A database whose daemon tables are
// newer than this build knows is refused (sqlitedb.ErrNewerSchema), so
// that an older icepost never runs on tables it does not understand.
func Migrate(ctx context.Context, db *sql.DB) error {
	return schema.Apply(ctx, db)
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
