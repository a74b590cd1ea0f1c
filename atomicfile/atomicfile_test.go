package atomicfile_test

import (
	"os"
	"path/filepath"
	"testing"

	"icepost/atomicfile"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.txt")
	if err := atomicfile.Write(path, []byte("one\n")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.Write(path, []byte("two\n")); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != "two\n" {
		t.Fatalf("read %q, %v", got, err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the replaced file's 0600", info.Mode().Perm())
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("%d files in the folder, want 1: a temporary file was left", len(ents))
	}
}

func TestWriteFails(t *testing.T) {
	dir := t.TempDir()
	// A folder in the file's place cannot be replaced by a file.
	path := filepath.Join(dir, "sub")
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, "keep"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := atomicfile.Write(path, []byte("data")); err == nil {
		t.Fatal("replacing a folder that holds a file succeeded")
	}
	if err := atomicfile.Write(filepath.Join(dir, "missing", "r.txt"), []byte("data")); err == nil {
		t.Fatal("writing into a missing folder succeeded")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("%d entries in the folder, want 1: a temporary file was left", len(ents))
	}
}

// TestCreateDiscard: a file written a piece at a time replaces the old
// one only on Commit; discarded, it leaves the old file and nothing else.
func TestCreateDiscard(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.txt")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("n"))
	f.Write([]byte("ew"))
	f.Discard()
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("discarded: %q", b)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("%d files left, want 1", len(es))
	}
	f, _ = atomicfile.Create(path)
	f.Write([]byte("new"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	f.Discard() // after Commit: nothing
	info, _ := os.Stat(path)
	if b, _ := os.ReadFile(path); string(b) != "new" || info.Mode().Perm() != 0o600 {
		t.Errorf("committed: %q, mode %v", b, info.Mode().Perm())
	}
}
