package sqlitedb

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/fstest"
)

func openTemp(t *testing.T, name string) (*sql.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, path
}

func files(m map[string]string) fstest.MapFS {
	fs := fstest.MapFS{}
	for name, text := range m {
		fs["migrations/"+name] = &fstest.MapFile{Data: []byte(text)}
	}
	return fs
}

func count(t *testing.T, db *sql.DB, query string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(query).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func TestMigrationsAppliedOnce(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t, "once.db")
	m := Migrations{Name: "test", Table: "test_migrations", Dir: "migrations", Files: files(map[string]string{
		"001_table.sql": "CREATE TABLE t (x INTEGER);",
		"002_row.sql":   "INSERT INTO t VALUES (1);\nINSERT INTO t VALUES (2);",
	})}
	if m.Latest() != 2 {
		t.Fatalf("Latest = %d, want 2", m.Latest())
	}
	// Several at once, as several processes starting together would.
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() { errs[i] = m.Apply(ctx, db) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := m.Apply(ctx, db); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db, `SELECT count(*) FROM t`); n != 2 {
		t.Errorf("%d rows in t, want 2: a migration ran twice", n)
	}
	if n := count(t, db, `SELECT count(*) FROM test_migrations`); n != 2 {
		t.Errorf("%d migrations recorded, want 2", n)
	}
	var name string
	db.QueryRow(`SELECT name FROM test_migrations WHERE version = 2`).Scan(&name)
	if name != "002_row.sql" {
		t.Errorf("migration 2 recorded as %q", name)
	}

	// A new file is applied alone; numbers order, not names.
	m.Files.(fstest.MapFS)["migrations/10_more.sql"] = &fstest.MapFile{Data: []byte("INSERT INTO t(x) VALUES (10);")}
	m.Files.(fstest.MapFS)["migrations/3_col.sql"] = &fstest.MapFile{Data: []byte("ALTER TABLE t ADD COLUMN y INTEGER NOT NULL DEFAULT 3;")}
	if err := m.Apply(ctx, db); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db, `SELECT count(*) FROM t WHERE y = 3`); n != 3 {
		t.Errorf("%d rows with y, want 3: 3_col.sql ran after 10_more.sql, or not at all", n)
	}
	if m.Latest() != 10 {
		t.Errorf("Latest = %d, want 10", m.Latest())
	}

	// Another user of the file keeps its own table and versions.
	other := Migrations{Name: "other", Table: "other_migrations", Dir: "migrations", Files: files(map[string]string{
		"0001_u.sql": "CREATE TABLE u (x INTEGER);",
	})}
	if err := other.Apply(ctx, db); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db, `SELECT count(*) FROM other_migrations`); n != 1 {
		t.Errorf("%d rows in other_migrations, want 1", n)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	ctx := context.Background()
	db, path := openTemp(t, "newer.db")
	m := Migrations{Name: "test", Table: "test_migrations", Dir: "migrations", Files: files(map[string]string{
		"001_table.sql": "CREATE TABLE t (x INTEGER);",
	})}
	if err := m.Apply(ctx, db); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO test_migrations(version, name) VALUES (7, '007_future.sql')`); err != nil {
		t.Fatal(err)
	}
	m.Files.(fstest.MapFS)["migrations/002_row.sql"] = &fstest.MapFile{Data: []byte("INSERT INTO t VALUES (1);")}
	err := m.Apply(ctx, db)
	var ne *NewerSchemaError
	if !errors.Is(err, ErrNewerSchema) || !errors.As(err, &ne) {
		t.Fatalf("Apply on a newer schema: %v", err)
	}
	if ne.Have != 7 || ne.Known != 2 || ne.Path != path {
		t.Errorf("error %+v, want version 7, known 2, path %s", ne, path)
	}
	for _, w := range []string{path, "test schema version 7", "knows only up to 2", "use a newer icepost"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not say %q", err, w)
		}
	}
	if n := count(t, db, `SELECT count(*) FROM t`); n != 0 {
		t.Error("a migration ran on a schema that was refused")
	}
}

func TestFailedMigrationRollsBack(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t, "fail.db")
	m := Migrations{Name: "test", Table: "test_migrations", Dir: "migrations", Files: files(map[string]string{
		"1_table.sql": "CREATE TABLE t (x INTEGER);",
		"2_bad.sql":   "CREATE TABLE half (x INTEGER);\nINSERT INTO nowhere VALUES (1);",
	})}
	err := m.Apply(ctx, db)
	if err == nil || !strings.Contains(err.Error(), "test migration 2_bad.sql") {
		t.Fatalf("Apply = %v, want the failing migration named", err)
	}
	if n := count(t, db, `SELECT count(*) FROM sqlite_master WHERE name = 'half'`); n != 0 {
		t.Error("the failed migration left a table behind")
	}
	if n := count(t, db, `SELECT max(version) FROM test_migrations`); n != 1 {
		t.Errorf("version %d after a failed migration 2, want 1", n)
	}
}

// TestOlderMigrationsTable: the daemon's table had no applied column
// before this package; such a database keeps working.
func TestOlderMigrationsTable(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t, "old.db")
	if _, err := db.Exec(`CREATE TABLE pbem_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL);
		CREATE TABLE t (x INTEGER);
		INSERT INTO pbem_migrations (version, name) VALUES (1, '001_table.sql')`); err != nil {
		t.Fatal(err)
	}
	m := Migrations{Name: "pbem", Table: "pbem_migrations", Dir: "migrations", Files: files(map[string]string{
		"001_table.sql": "CREATE TABLE t (x INTEGER);",
		"002_row.sql":   "INSERT INTO t VALUES (1);",
	})}
	if err := m.Apply(ctx, db); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db, `SELECT count(*) FROM t`); n != 1 {
		t.Errorf("%d rows, want 1", n)
	}
	if n := count(t, db, `SELECT count(*) FROM pbem_migrations`); n != 2 {
		t.Errorf("%d migrations recorded, want 2", n)
	}
}

func TestMigrationsMisnamed(t *testing.T) {
	ctx := context.Background()
	db, _ := openTemp(t, "names.db")
	for _, c := range []struct {
		files map[string]string
		table string
		msg   string
	}{
		{map[string]string{"init.sql": ""}, "x_migrations", "name it NNN_what.sql"},
		{map[string]string{"0_init.sql": ""}, "x_migrations", "name it NNN_what.sql"},
		{map[string]string{"1_a.sql": "", "001_b.sql": ""}, "x_migrations", "two are numbered 1"},
		{map[string]string{"1_a.sql": ""}, "x; DROP TABLE t", "not a plain SQL name"},
	} {
		m := Migrations{Name: "x", Table: c.table, Dir: "migrations", Files: files(c.files)}
		if err := m.Apply(ctx, db); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%v in %q: %v, want an error saying %q", c.files, c.table, err, c.msg)
		}
	}
}

// TestDSNOnEveryConnection: the settings are in the connection string, so
// every connection of the pool has them, not only the first.
func TestDSNOnEveryConnection(t *testing.T) {
	ctx := context.Background()
	db, path := openTemp(t, "pool.db")
	if _, err := db.Exec(`CREATE TABLE p (id INTEGER PRIMARY KEY); CREATE TABLE c (p INTEGER REFERENCES p(id))`); err != nil {
		t.Fatal(err)
	}
	// Another writer that does not wait, to see who holds the write lock.
	probe, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=0")
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()

	const n = 4
	var conns []*sql.Conn
	for range n {
		c, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns = append(conns, c)
	}
	if s := db.Stats(); s.OpenConnections < n {
		t.Fatalf("%d connections open, want %d distinct ones", s.OpenConnections, n)
	}
	for i, c := range conns {
		for _, p := range []struct{ pragma, want string }{
			{"journal_mode", "wal"},
			{"foreign_keys", "1"},
			{"busy_timeout", "30000"},
			{"synchronous", "1"}, // NORMAL
			{"cache_size", "-65536"},
		} {
			var got string
			if err := c.QueryRowContext(ctx, "PRAGMA "+p.pragma).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != p.want {
				t.Errorf("connection %d: PRAGMA %s = %s, want %s", i, p.pragma, got, p.want)
			}
		}
		// Foreign keys are enforced, not only reported on.
		if _, err := c.ExecContext(ctx, `INSERT INTO c VALUES (99)`); err == nil {
			t.Errorf("connection %d: a row referring to no parent was accepted", i)
		}
		// BEGIN takes the write lock at once (_txlock=immediate): the
		// probe cannot write while a transaction that wrote nothing is
		// open.
		tx, err := c.BeginTx(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := probe.Exec(`INSERT INTO p DEFAULT VALUES`); err == nil || !strings.Contains(err.Error(), "locked") {
			t.Errorf("connection %d: another writer got in during a transaction: %v", i, err)
		}
		tx.Rollback()
	}
	if _, err := probe.Exec(`INSERT INTO p DEFAULT VALUES`); err != nil {
		t.Errorf("the probe cannot write with no transaction open: %v", err)
	}
}

// TestOpenOddPath: characters the URI form reads as syntax stay part of
// the file name.
func TestOpenOddPath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a?b#c%d.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE t (x)`); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the database is not at %s: %v", path, err)
	}
	if _, err := Open(context.Background(), filepath.Join(dir, "missing", "x.db")); err == nil || !strings.Contains(err.Error(), "opening") {
		t.Errorf("Open in a missing directory: %v", err)
	}
}

// A new database and its -wal and -shm files are for their owner only,
// whatever the umask lets SQLite do by itself.
func TestOpenCreatesPrivateFiles(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	db, path := openTemp(t, "private.db")
	if _, err := db.Exec(`CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", filepath.Base(p), fi.Mode().Perm())
		}
	}
}

// An existing file keeps the mode its owner gave it.
func TestOpenKeepsModeOfExistingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.db")
	if err := os.WriteFile(path, nil, 0o640); err != nil {
		t.Fatal(err)
	}
	os.Chmod(path, 0o640)
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", fi.Mode().Perm())
	}
}
