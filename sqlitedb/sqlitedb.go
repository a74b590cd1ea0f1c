// Package sqlitedb opens icepost's SQLite files and keeps their schemas
// up to date.
//
// It exists because the archive and the mail daemon keep their tables in
// one file (a finished game is archived in the transaction that finishes
// it), so both must open that file with the same connection settings and
// upgrade their schemas the same way: each migration in its own
// transaction, safe against another process doing the same, and never
// touching a schema written by a newer icepost. Before this package each
// had its own copy of that code, and only one of them refused a newer
// schema.
package sqlitedb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"

	_ "github.com/mattn/go-sqlite3" // the database/sql driver "sqlite3"
)

// DSN returns the connection string for the SQLite file at path with the
// settings icepost relies on: WAL journal (readers do not block the
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
	v.Set("_cache_size", "-65536") // KiB: the archive's position index is large and written at random
	return "file:" + escapePath(path) + "?" + v.Encode()
}

// escapePath keeps characters of a file name that the URI form would read
// as syntax.
func escapePath(p string) string {
	r := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
	return r.Replace(p)
}

// Open opens (creating if need be) the SQLite file at path with DSN's
// settings, and checks that it can be read. It does not migrate anything:
// each user of the file runs its own Migrations.
//
// A new file is created mode 0600: it holds players' addresses and games,
// and SQLite would create it with the process's umask (often 0644).
// SQLite gives the -wal and -shm files the mode of the database file.
func Open(ctx context.Context, path string) (*sql.DB, error) {
	if err := createPrivate(path); err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	db, err := sql.Open("sqlite3", DSN(path))
	if err != nil {
		return nil, err
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return db, nil
}

// createPrivate creates path, empty and mode 0600, unless it exists. An
// empty file is an empty database to SQLite.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return f.Close()
}
