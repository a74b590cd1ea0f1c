//go:build linux

package pbem_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"icepost/internal/waitfor"
)

// mountTmpfs mounts a tmpfs of size bytes on a new folder, unmounted when
// the test ends (after what the test opened on it is closed, if it
// registers its cleanups later). Where no tmpfs can be mounted (not root,
// no CAP_SYS_ADMIN) the test is skipped, loudly.
func mountTmpfs(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+strconv.Itoa(size)); err != nil {
		t.Logf("SKIPPED: this test needs a real full disk: mounting a tmpfs on %s failed: %v (run it as root, or with CAP_SYS_ADMIN)", dir, err)
		t.Skipf("SKIPPED: cannot mount a tmpfs: %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmounting the test's tmpfs %s: %v", dir, err)
		}
	})
	return dir
}

// fillDisk writes a file in dir until the file system has no room left,
// and returns its path: removing it gives the room back.
func fillDisk(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, n := range []int{1 << 16, 1 << 12, 1} {
		buf := make([]byte, n)
		for {
			if _, err := f.Write(buf); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatal(err)
				}
				break
			}
		}
	}
	return path
}

// TestFullDiskSendsNoBoardTwice runs the daemon on a database on a real
// file system that fills up (a small tmpfs) while boards wait in the
// outbox: the boards it sends before it finds that it cannot record them
// are not sent again, nothing more goes out while the disk is full, and
// once there is room every board has reached its player exactly once.
func TestFullDiskSendsNoBoardTwice(t *testing.T) {
	dir := mountTmpfs(t, 4<<20)
	w := newWorld(t)
	w.onDisk(filepath.Join(dir, "icepost.db"))
	log := operatorLog(w)
	ids := tokenGames(t, w, "bob", "cy", "dee", "eve")
	before := delivered(w)
	firstMoves(t, w, ids)
	boards := outboxIDs(t, w, `sent_at IS NULL`)
	if len(boards) != 2*len(ids) {
		t.Fatalf("%d boards queued, want %d", len(boards), 2*len(ids))
	}
	// Every commit so far is in the database file, and the WAL is empty:
	// the next write must grow a file.
	if _, err := w.srv.DB.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	filler := fillDisk(t, dir)

	sent := &countingSender{Mailer: w.d.Sender}
	w.d.Sender = sent
	ctx, stop := context.WithCancel(w.ctx)
	done := make(chan error, 1)
	go func() { done <- w.d.Run(ctx) }()
	// Passes of the outbox while the disk is full: the first sends and
	// cannot record; the others must send nothing.
	passes := func() int { return strings.Count(log.String(), "msg=outbox ") }
	for pass := 1; pass <= 4; pass++ {
		waitfor.Until(t, "an outbox pass with the disk full", 30*time.Second, func() bool { return passes() >= pass })
		w.d.Wake()
	}
	if !strings.Contains(log.String(), "full") {
		t.Fatalf("the disk never showed as full to the outbox:\n%s", log.String())
	}
	whileFull := sent.n.Load()
	t.Logf("%d of %d boards sent before the daemon found the disk full; %d outbox passes with the disk full", whileFull, len(boards), passes())

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	w.d.Wake()
	waitfor.Until(t, "every board recorded as sent once the disk has room", 30*time.Second, func() bool {
		var n int
		w.srv.DB.QueryRow(`SELECT count(*) FROM pbem_outbox WHERE sent_at IS NULL`).Scan(&n)
		return n == 0
	})
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	got := delivered(w)
	for id, mid := range boards {
		if n := got[mid] - before[mid]; n != 1 {
			t.Errorf("board %d (<%s>) delivered %d times, want once", id, mid, n)
		}
	}
	if n := sent.n.Load(); n != int64(len(boards)) {
		t.Errorf("%d sends for %d boards", n, len(boards))
	}
}
