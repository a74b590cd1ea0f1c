package sqlitedb

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
)

// ReadOnlyDSN is the connection string for reading the SQLite file at
// path without ever writing it: mode=ro, and transactions that take no
// lock at BEGIN (_txlock=deferred), so that a reader (the web site)
// never holds up the writer (the mail daemon). Readers wait for a busy
// file as writers do.
func ReadOnlyDSN(path string) string {
	v := url.Values{}
	v.Set("mode", "ro")
	v.Set("_busy_timeout", "30000")
	v.Set("_txlock", "deferred")
	v.Set("_cache_size", "-65536")
	return "file:" + escapePath(path) + "?" + v.Encode()
}

// OpenReadOnly opens an existing SQLite file for reading only
// (ReadOnlyDSN). A file that does not exist is an error, not a new
// empty database.
func OpenReadOnly(ctx context.Context, path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	db, err := sql.Open("sqlite3", ReadOnlyDSN(path))
	if err != nil {
		return nil, err
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return db, nil
}
