// One icepost serve per database: two daemons on one database would each
// send every board, and the second's start would note a false outage
// that pauses every clock.

package main

import (
	"fmt"
	"os"
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
type daemonLock struct{ f *os.File }

// runningError: another daemon holds the lock.
type runningError struct {
	pid string // as the holder wrote it; "unknown" when it wrote nothing
	db  string
}

func (e *runningError) Error() string {
	return fmt.Sprintf("another icepost serve (pid %s) is running on %s", e.pid, e.db)
}

// lockDaemon takes the lock of the database at db, or fails at once: with
// a *runningError when another daemon holds it.
func lockDaemon(db string) (*daemonLock, error) {
	f, err := os.OpenFile(db+".lock", os.O_RDWR|os.O_CREATE, 0o600)
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
		return nil, &runningError{pid: pid, db: db}
	}
	if err := f.Truncate(0); err == nil {
		_, err = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", db, err)
	}
	return &daemonLock{f: f}, nil
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
