package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"icepost/sqlitedb"
)

func TestMigrateOnceAndRefuseNewer(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "daemon.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for range 2 {
		if err := Migrate(ctx, db); err != nil {
			t.Fatal(err)
		}
	}
	var n, v int
	db.QueryRow(`SELECT count(*), max(version) FROM pbem_migrations`).Scan(&n, &v)
	if n != schema.Latest() || v != schema.Latest() || v < 2 {
		t.Errorf("%d migrations recorded, up to %d; want %d", n, v, schema.Latest())
	}

	// A database from a newer icepost is refused, as the archive's is.
	if _, err := db.Exec(`INSERT INTO pbem_migrations (version, name) VALUES (99, '099_future.sql')`); err != nil {
		t.Fatal(err)
	}
	err = Migrate(ctx, db)
	if !errors.Is(err, sqlitedb.ErrNewerSchema) {
		t.Fatalf("Migrate on a newer schema: %v", err)
	}
	for _, w := range []string{path, "mail daemon schema version 99", "use a newer icepost"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q does not say %q", err, w)
		}
	}
}

// TestMigrateOlderTable: databases made before the shared migration runner
// have a pbem_migrations table without the applied column.
func TestMigrateOlderTable(t *testing.T) {
	ctx := context.Background()
	db, err := Open(filepath.Join(t.TempDir(), "old.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	first, err := migrations.ReadFile("migrations/001_pbem.sql")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE pbem_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(string(first)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO pbem_migrations (version, name) VALUES (1, '001_pbem.sql')`); err != nil {
		t.Fatal(err)
	}
	if err := Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	var n int
	db.QueryRow(`SELECT count(*) FROM pragma_table_info('pbem_games') WHERE name = 'days_per_move'`).Scan(&n)
	if n != 1 {
		t.Error("migration 2 did not run on a database at version 1")
	}
}

// TestSyncDBLeavesThePoolAsFound: Sync commits at synchronous=FULL on a
// connection of the pool, and gives it back at the DSN's NORMAL; it says
// which outbox rows it covered.
func TestSyncDBLeavesThePoolAsFound(t *testing.T) {
	ctx := context.Background()
	db, err := Open(filepath.Join(t.TempDir(), "daemon.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1) // the connection Sync used is the one asked next
	if _, err := db.Exec(`INSERT INTO pbem_outbox (recipient, message, created_at, next_try_at) VALUES ('a@b', x'00', 0, 0), ('c@d', x'00', 0, 0)`); err != nil {
		t.Fatal(err)
	}
	id, err := Sync(ctx, db, time.Now())
	if err != nil || id != 2 {
		t.Fatalf("Sync = %d, %v; want 2 (the last outbox row)", id, err)
	}
	var sync int
	if err := db.QueryRow(`PRAGMA synchronous`).Scan(&sync); err != nil || sync != 1 {
		t.Errorf("PRAGMA synchronous = %d (%v) after Sync, want 1 (NORMAL)", sync, err)
	}
}
