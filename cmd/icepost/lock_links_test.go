package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The lock follows the database's file, not the name a config gives it:
// a second serve that names the database through a symbolic link (to the
// file, to its folder, or to a file not made yet) is refused as one that
// names it directly, and changes nothing. Before, the lock file was
// named after the name given, and the second daemon ran.
func TestServeLockFollowsSymlinks(t *testing.T) {
	dir := t.TempDir()
	realDir := filepath.Join(dir, "state")
	if err := os.Mkdir(realDir, 0o700); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(realDir, "icepost.db")
	fileLink := filepath.Join(dir, "link.db")
	dirLink := filepath.Join(dir, "state-link")
	relLink := filepath.Join(dir, "rel.db")
	for _, l := range []struct{ target, name string }{{real, fileLink}, {realDir, dirLink}, {"state/icepost.db", relLink}} {
		if err := os.Symlink(l.target, l.name); err != nil {
			t.Fatal(err)
		}
	}
	names := []string{real, fileLink, filepath.Join(dirLink, "icepost.db"), relLink}
	label := map[string]string{real: "file", fileLink: "link", names[2]: "in-linked-folder", relLink: "relative-link"}

	// The database is not made yet: the links point to where serve will
	// make it.
	for _, first := range names {
		for _, second := range names {
			if first == second {
				continue
			}
			t.Run(label[first]+"-then-"+label[second], func(t *testing.T) {
				lock, err := lockDaemon(first)
				if err != nil {
					t.Fatal(err)
				}
				defer lock.release()
				code, _, errs := secondServe(t, embeddedArgs(second)...)
				want := fmt.Sprintf("another icepost serve (pid %d) is running on %s", os.Getpid(), second)
				if code != exitRunning || !strings.Contains(errs, want) {
					t.Errorf("serve -db %s beside one on %s: exit %d, %q; want exit 1 and %q", second, first, code, errs, want)
				}
				if second != real && !strings.Contains(errs, "(the file "+real+")") {
					t.Errorf("the refusal does not name the file: %q", errs)
				}
				if _, err := os.Stat(real); err == nil {
					t.Error("the refused serve made the database")
				}
			})
		}
	}

	// With a daemon running, under a link.
	stop, _, _ := startServe(t, "Stop with Ctrl-C", embeddedArgs(fileLink)...)
	if _, err := os.Stat(real); err != nil {
		t.Fatalf("serve under a link did not make the database where the link points: %v", err)
	}
	for _, second := range names {
		if code, _, errs := secondServe(t, embeddedArgs(second)...); code != exitRunning || !strings.Contains(errs, "another icepost serve") {
			t.Errorf("serve -db %s beside a running serve: exit %d, %q", second, code, errs)
		}
	}
	if code := stop(); code != exitOK {
		t.Errorf("the first serve stopped with exit %d", code)
	}
}

// A database with a second name by a hard link is refused, whichever
// name serve is given, with a daemon running or not: SQLite would keep a
// -wal beside each name, and a daemon under each name would lock a file
// of its own. serve -check says so too.
func TestServeRefusesHardLinkedDatabase(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "icepost.db")
	other := filepath.Join(t.TempDir(), "other.db")

	// A daemon runs; then the database gets a second name.
	stop, _, _ := startServe(t, "Stop with Ctrl-C", embeddedArgs(path)...)
	if err := os.Link(path, other); err != nil {
		t.Skipf("no hard link here: %v", err)
	}
	code, _, errs := secondServe(t, embeddedArgs(other)...)
	if code == exitOK || !strings.Contains(errs, other+" has 2 names (hard links)") {
		t.Errorf("serve -db LINK beside a running serve: exit %d, %q", code, errs)
	}
	if code := stop(); code != exitOK {
		t.Errorf("the first serve stopped with exit %d", code)
	}

	// No daemon runs: neither name starts one.
	for _, name := range []string{path, other} {
		code, _, errs := secondServe(t, embeddedArgs(name)...)
		if code == exitOK || !strings.Contains(errs, name+" has 2 names (hard links)") || !strings.Contains(errs, "-samefile") {
			t.Errorf("serve -db %s: exit %d, %q", name, code, errs)
		}
		code, out, _ := icepost(t, "", "serve", "-check", "-db", name, "-imap", "127.0.0.1:0", "-smtp", "127.0.0.1:0")
		if code != exitInvalid || !strings.Contains(out, "database  FAILED: "+name+" has 2 names (hard links)") {
			t.Errorf("serve -check -db %s: exit %d\n%s", name, code, out)
		}
	}

	// With the second name gone, it starts.
	if err := os.Remove(other); err != nil {
		t.Fatal(err)
	}
	stop, _, _ = startServe(t, "Stop with Ctrl-C", embeddedArgs(path)...)
	if code := stop(); code != exitOK {
		t.Errorf("serve after the link was removed stopped with exit %d", code)
	}
}

// realPath resolves the links of a path whose file is not there yet.
func TestRealPath(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "a"), 0o700)
	os.Mkdir(filepath.Join(dir, "b"), 0o700)
	os.Symlink("../a/db", filepath.Join(dir, "b", "up")) // dangling, relative, with ..
	os.Symlink(filepath.Join(dir, "b"), filepath.Join(dir, "lb"))
	os.Symlink("chain2", filepath.Join(dir, "chain1"))
	os.Symlink(filepath.Join(dir, "lb", "up"), filepath.Join(dir, "chain2"))
	for _, tc := range []struct{ in, want string }{
		{filepath.Join(dir, "a", "db"), filepath.Join(dir, "a", "db")},
		{filepath.Join(dir, "b", "up"), filepath.Join(dir, "a", "db")},
		{filepath.Join(dir, "lb", "up"), filepath.Join(dir, "a", "db")},
		{filepath.Join(dir, "chain1"), filepath.Join(dir, "a", "db")},
		{filepath.Join(dir, "lb", "new.db"), filepath.Join(dir, "b", "new.db")},
	} {
		if got, err := realPath(tc.in); err != nil || got != tc.want {
			t.Errorf("realPath(%s) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	os.Symlink("loop", filepath.Join(dir, "loop"))
	if _, err := realPath(filepath.Join(dir, "loop")); err == nil {
		t.Error("realPath of a link to itself: no error")
	}
	if _, err := realPath(filepath.Join(dir, "nowhere", "db")); err == nil {
		t.Error("realPath in a folder that does not exist: no error")
	}
}
