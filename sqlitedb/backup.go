package sqlitedb

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Backup writes a consistent copy of the SQLite file at src to dst, while
// other processes (the daemon) go on writing src: VACUUM INTO reads src in
// one read transaction, so the copy holds every transaction committed
// before it began, whether still in the -wal file or not, and none of
// those after. (A plain file copy of a live database in WAL mode misses
// what the -wal file holds.) The copy is a single file, in the
// rollback-journal mode, mode 0600.
//
// The copy is written beside dst and renamed over it only once it is on
// disk and PRAGMA integrity_check finds it sound: dst is either the
// backup it was or a checked new one. src is opened read-only and never
// created.
func Backup(ctx context.Context, src, dst string) error {
	db, err := OpenReadOnly(ctx, src)
	if err != nil {
		return err
	}
	defer db.Close()
	// VACUUM INTO wants a file that does not exist or is empty;
	// CreateTemp makes an empty one, mode 0600.
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".*")
	if err != nil {
		return err
	}
	tmpName := tmp.Name()
	tmp.Close()
	defer os.Remove(tmpName) // after the rename there is nothing to remove
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, tmpName); err != nil {
		return fmt.Errorf("copying %s: %w", src, err)
	}
	// SQLite does not sync what VACUUM INTO wrote.
	if err := syncFile(tmpName); err != nil {
		return fmt.Errorf("writing %s: %w", tmpName, err)
	}
	if err := Check(ctx, tmpName); err != nil {
		return fmt.Errorf("the copy of %s: %w", src, err)
	}
	if err := os.Rename(tmpName, dst); err != nil {
		return err
	}
	return syncFile(filepath.Dir(dst))
}

// ErrCorrupt is what Check finds in a file that is not a sound database.
var ErrCorrupt = errors.New("the database is not sound")

// Check runs PRAGMA integrity_check on the SQLite file at path, read-only,
// and returns nil when it says ok, or an error that wraps ErrCorrupt with
// the first problems it lists.
func Check(ctx context.Context, path string) error {
	db, err := OpenReadOnly(ctx, path)
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `PRAGMA integrity_check(10)`)
	if err != nil {
		return fmt.Errorf("integrity check of %s: %w", path, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return fmt.Errorf("integrity check of %s: %w", path, err)
		}
		problems = append(problems, s)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("integrity check of %s: %w", path, err)
	}
	if len(problems) == 1 && problems[0] == "ok" {
		return nil
	}
	return fmt.Errorf("integrity check of %s: %w: %s", path, ErrCorrupt, strings.Join(problems, "; "))
}

func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
