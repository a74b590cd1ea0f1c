// One icepost serve per database: two daemons on one database would each
// send every board, and the second's start would note a false outage
// that pauses every clock.

package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A daemonLock is held by the icepost serve that runs on a database: an
// flock on the file DB.lock beside it, which holds the daemon's pid. The
// kernel drops the lock when the process ends, however it ends (kill -9,
// a crash), so a restart is never blocked by a lock left behind. The
// file itself stays: removing it would let a second daemon lock a new
// file while the first still holds the old one.
//
// The lock follows the file, not the name a config gives it: DB is the
// database's real path, every symbolic link resolved (its folders' and
// its own, also when the file does not exist yet), as SQLite resolves
// them to place its -wal and -shm files. A database with a second name
// by a hard link is refused: SQLite would keep a -wal beside each name,
// two logs of one database, and a daemon under each name would lock a
// file of its own.
type daemonLock struct{ f *os.File }

// runningError: another daemon holds the lock.
type runningError struct {
	pid  string // as the holder wrote it; "unknown" when it wrote nothing
	db   string // as the config or -db names it
	real string // the file it names
}

func (e *runningError) Error() string {
	if e.real != e.db {
		return fmt.Sprintf("another icepost serve (pid %s) is running on %s (the file %s)", e.pid, e.db, e.real)
	}
	return fmt.Sprintf("another icepost serve (pid %s) is running on %s", e.pid, e.db)
}

// linkedError: the database has more than one name (hard links).
type linkedError struct {
	db    string
	links uint64
}

func (e *linkedError) Error() string {
	return fmt.Sprintf("%s has %d names (hard links): SQLite keeps its -wal and -shm beside the name it opens, so each name would have its own log of one database, and a daemon under each name its own lock; "+
		"keep one name and remove the others (find / -xdev -samefile %s lists them)", e.db, e.links, e.db)
}

// lockDaemon takes the lock of the database at db, or fails at once: with
// a *runningError when another daemon holds it, a *linkedError when the
// database has a second name.
func lockDaemon(db string) (*daemonLock, error) {
	real, err := realPath(db)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", db, err)
	}
	if err := oneName(db, real); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(real+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("locking %s: %w", db, err)
	}
	ok, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", db, err)
	}
	if !ok {
		pid := lockHolder(f)
		f.Close()
		return nil, &runningError{pid: pid, db: db, real: real}
	}
	err = f.Truncate(0)
	if err == nil {
		_, err = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", db, err)
	}
	return &daemonLock{f: f}, nil
}

// oneName returns a *linkedError when the database at real (db as named)
// has more than one name; nil when it has one, or does not exist yet.
func oneName(db, real string) error {
	fi, err := os.Stat(real)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("locking %s: %w", db, err)
	}
	if n := linkCount(fi); n > 1 {
		return &linkedError{db: db, links: n}
	}
	return nil
}

// realPath is path, absolute, with every symbolic link resolved: its
// folders' and its own, also when the file does not exist yet (a link
// may point to where serve will make the database). The folder must
// exist.
func realPath(path string) (string, error) {
	p, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	for range 40 {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			return r, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		// p, or what a link on its way points to, is not there.
		dir, err := filepath.EvalSymlinks(filepath.Dir(p))
		if err != nil {
			return "", err
		}
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return filepath.Join(dir, filepath.Base(p)), nil
		case err != nil:
			return "", err
		case fi.Mode()&fs.ModeSymlink == 0:
			return "", fmt.Errorf("%s: cannot resolve it", path)
		}
		// A link to a file not made yet: follow it from its folder.
		target, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		p = target
	}
	return "", fmt.Errorf("%s: too many symbolic links", path)
}

// lockHolder reads the pid the holder wrote, giving it a moment when it
// has just taken the lock and not yet written it.
func lockHolder(f *os.File) string {
	b := make([]byte, 32)
	for range 20 {
		n, _ := f.ReadAt(b, 0)
		if pid := strings.TrimSpace(string(b[:n])); pid != "" {
			return pid
		}
		time.Sleep(5 * time.Millisecond)
	}
	return "unknown"
}

// release gives the lock up, on a clean stop (closing the file is
// enough: the lock belongs to the open file).
func (l *daemonLock) release() { l.f.Close() }
