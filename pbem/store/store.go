// Package store holds the mail daemon's tables: their migrations, the
// connection settings they rely on, the small key-value state, the token
// secret, and the sync that makes a batch of commits survive a power
// loss. It is functions of *sql.DB, so that the game service, the outbox
// and the operator's commands share one way in without sharing a type.
package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"strconv"
	"time"

	"icepost/sqlitedb"
)

//go:embed migrations/*.sql
var migrations embed.FS

// schema is the daemon's migrations, recorded in pbem_migrations.
var schema = sqlitedb.Migrations{Name: "mail daemon", Table: "pbem_migrations", Files: migrations, Dir: "migrations"}

// Open opens (creating if need be) the SQLite database at path with the
// settings the daemon relies on (sqlitedb.DSN, the archive's too): WAL,
// foreign keys, a busy timeout, and immediate write transactions, set in
// the connection string so that every pooled connection has them, so that
// the daemon writing and a person searching the archive never see
// "database is locked".
func Open(path string) (*sql.DB, error) {
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

// State reads a value from pbem_state ("" when missing).
func State(ctx context.Context, q Querier, key string) (string, error) {
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM pbem_state WHERE key = ?`, key).Scan(&v)
	if err == sql.ErrNoRows {
		return "", nil
	}
	return v, err
}

func SetState(ctx context.Context, q Querier, key, value string) error {
	_, err := q.ExecContext(ctx, `INSERT INTO pbem_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}

// Querier is what *sql.DB and *sql.Tx share.
type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Secret returns the token secret kept in the database, making and
// storing one with generate the first time (the embedded mail system has
// no configuration to hold it).
func Secret(ctx context.Context, db *sql.DB, generate func() string) (string, error) {
	v, err := State(ctx, db, "secret")
	if err != nil || v != "" {
		return v, err
	}
	v = generate()
	if _, err := db.ExecContext(ctx, `INSERT OR IGNORE INTO pbem_state (key, value) VALUES ('secret', ?)`, v); err != nil {
		return "", err
	}
	return State(ctx, db, "secret")
}

// Sync makes every transaction committed so far survive a power loss or
// a crash of the operating system, not only a crash of the process, and
// returns the highest outbox id it covers.
//
// Transactions commit with synchronous=NORMAL (sqlitedb.DSN): in WAL mode
// a commit is written to the WAL but not synced, which a crash of the
// process keeps and a power loss may undo. That is safe only as long as
// nothing outside the database acts on the commit. So the daemon calls
// Sync before a handled mail is filed away and before a queued reply is
// sent: it commits one small write with synchronous=FULL, which syncs the
// WAL, and with it every commit written to it before (one file, appended
// in order; recovery keeps every commit up to the last synced one). One
// sync covers a whole batch of mails, where synchronous=FULL everywhere
// would cost one per transaction.
//
// The caller keeps other writers of this process out while it runs.
func Sync(ctx context.Context, db *sql.DB, now time.Time) (outbox int64, err error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	// Read before the synced commit: every row seen here was committed
	// before it.
	if err := conn.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) FROM pbem_outbox`).Scan(&outbox); err != nil {
		return 0, err
	}
	if _, err := conn.ExecContext(ctx, `PRAGMA synchronous = FULL`); err != nil {
		return 0, err
	}
	_, err = conn.ExecContext(ctx, `INSERT INTO pbem_state (key, value) VALUES ('synced_at', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
		strconv.FormatInt(now.UnixNano(), 10))
	// Back to the DSN's setting before the connection goes back to the
	// pool; one that cannot be set back is closed instead.
	if _, rerr := conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA synchronous = NORMAL`); rerr != nil {
		conn.Raw(func(any) error { return driver.ErrBadConn })
	}
	if err != nil {
		return 0, err
	}
	return outbox, nil
}

// Column reads a one-Column query.
func Column[T any](ctx context.Context, q Querier, query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
