//go:build !unix

package main

import "os"

// tryLock: where flock is missing, serve runs without the lock, and
// nothing stops a second daemon on the same database.
func tryLock(f *os.File) (bool, error) { return true, nil }

// linkCount: where the count of names is not known, a file has one.
func linkCount(fi os.FileInfo) uint64 { return 1 }
