// Package atomicfile replaces files so that a crash, a closed terminal or a
// full disk leaves either the old file or the new one, never half of one.
// Records written move by move at the table, records rewritten by fmt -w
// (streamed, a record at a time), analyses written by analyze -o, and
// pictures written by the command line all go through it.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write replaces path with data (Create, Write, Commit): on an error
// path is as it was, and no temporary file is left behind.
func Write(path string, data []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Discard()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Commit()
}

// File is a new file written beside path a piece at a time, so that what
// is written need not be held whole, which replaces path only on Commit:
// a temporary file in the same folder, synced, given the mode of the file
// it replaces (0644 for a new file), renamed over path, the folder
// synced. Discard, after Commit or instead of it, removes what is left;
// a crash leaves the old file, and at worst a .icepost-* file beside it.
type File struct {
	path string
	tmp  *os.File
	mode os.FileMode
	done bool
}

// Create starts the replacement of path.
func Create(path string) (*File, error) {
	mode := os.FileMode(0o644)
	if info, err := os.Stat(path); err == nil {
		mode = info.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".icepost-*")
	if err != nil {
		return nil, fmt.Errorf("writing %s: %w", path, err)
	}
	return &File{path: path, tmp: tmp, mode: mode}, nil
}

// Write writes to the new file.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.tmp.Write(p)
	if err != nil {
		err = fmt.Errorf("writing %s: %w", f.path, err)
	}
	return n, err
}

// Commit replaces path with what was written. On an error path is as it
// was.
func (f *File) Commit() error {
	err := f.tmp.Sync()
	if cerr := f.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.tmp.Name(), f.mode)
	}
	if err == nil {
		err = os.Rename(f.tmp.Name(), f.path)
	}
	f.done = true
	if err != nil {
		os.Remove(f.tmp.Name())
		return fmt.Errorf("writing %s: %w", f.path, err)
	}
	// The rename is durable once the folder is: a failure here leaves the
	// new file in place, so it is not reported.
	if d, err := os.Open(filepath.Dir(f.path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Discard drops the new file, unless Commit came first.
func (f *File) Discard() {
	if !f.done {
		f.tmp.Close()
		os.Remove(f.tmp.Name())
		f.done = true
	}
}
