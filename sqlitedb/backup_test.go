package sqlitedb

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A backup holds what is still in the -wal file, is checked, and
// replaces the backup before it.
func TestBackupHoldsTheWAL(t *testing.T) {
	ctx := context.Background()
	db, path := openTemp(t, "live.db")
	// No checkpoint while the test writes: the rows stay in the -wal.
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(`PRAGMA wal_autocheckpoint = 0; CREATE TABLE t (x INTEGER)`); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "copy.db")
	for round, n := range []int{100, 250} {
		for range n - count(t, db, `SELECT count(*) FROM t`) {
			if _, err := db.Exec(`INSERT INTO t VALUES (1)`); err != nil {
				t.Fatal(err)
			}
		}
		if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() == 0 {
			t.Fatalf("round %d: the rows are not in the -wal file (%v)", round, err)
		}
		if err := Backup(ctx, path, dst); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		cp, err := OpenReadOnly(ctx, dst)
		if err != nil {
			t.Fatal(err)
		}
		if got := count(t, cp, `SELECT count(*) FROM t`); got != n {
			t.Errorf("round %d: the copy holds %d rows, want %d", round, got, n)
		}
		cp.Close()
		if fi, _ := os.Stat(dst); fi.Mode().Perm() != 0o600 {
			t.Errorf("round %d: the copy's mode is %v, want 0600", round, fi.Mode().Perm())
		}
	}
	if ents, _ := os.ReadDir(filepath.Dir(dst)); len(ents) != 1 {
		t.Errorf("backup left files behind: %v", ents)
	}
}

func TestBackupNeverCreatesTheSource(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.db")
	if err := Backup(context.Background(), missing, filepath.Join(dir, "copy.db")); err == nil {
		t.Fatal("backup of a missing file: no error")
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("backup created its source: %v", err)
	}
}

func TestCheckFindsDamage(t *testing.T) {
	db, path := openTemp(t, "damaged.db")
	if _, err := db.Exec(`CREATE TABLE t (x TEXT); CREATE INDEX tx ON t(x)`); err != nil {
		t.Fatal(err)
	}
	for i := range 2000 {
		if _, err := db.Exec(`INSERT INTO t VALUES (?)`, i*7919%2003); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if err := Check(context.Background(), path); err != nil {
		t.Fatalf("sound file: %v", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Page 3 onwards: table and index pages, never the header.
	junk := make([]byte, 4096)
	for i := range junk {
		junk[i] = byte(i * 31)
	}
	f.WriteAt(junk, 3*4096+100)
	f.Close()
	if err := Check(context.Background(), path); err == nil {
		t.Error("a damaged file passed the check")
	}
}
