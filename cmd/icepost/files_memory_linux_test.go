package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestFilesHelperProcess is not a test: it is icepost, run in a child
// process by the tests of memory below, so that they measure one run's
// peak memory: the kernel's high-water mark of its resident set since
// the exec (VmHWM), which it prints on standard output. (The rusage's
// maxrss would not do: it counts the parent's resident set, which the
// child shares until its exec.)
func TestFilesHelperProcess(t *testing.T) {
	args := os.Getenv("ICEPOST_HELPER_ARGS")
	if args == "" {
		return
	}
	code := run(context.Background(), strings.Split(args, "\n"), os.Stdin, io.Discard, os.Stderr)
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(99)
	}
	for _, l := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			fmt.Println(l)
		}
	}
	os.Exit(code)
}

// icepostRSS runs icepost with args in a child process and returns its
// exit code, what it wrote to standard error, and its peak resident
// memory in bytes.
func icepostRSS(t *testing.T, args ...string) (int, string, int64) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFilesHelperProcess$")
	cmd.Env = append(os.Environ(), "ICEPOST_HELPER_ARGS="+strings.Join(args, "\n"))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	var kb int64
	if _, err := fmt.Sscanf(strings.TrimSpace(out.String()), "VmHWM: %d kB", &kb); err != nil {
		t.Fatalf("the child's peak memory: %q: %v (%s)", out.String(), err, errb.String())
	}
	return cmd.ProcessState.ExitCode(), errb.String(), kb << 10
}

// validate reads a file a record at a time: its peak memory does not grow
// with the file. Garbage on one line of 16 MB costs less than a quarter
// of the 14 MB more than on one of 2 MB (today's code held it whole,
// several times over, and quoted it back), and gives a line of error; 32
// MB of good records stay under 96 MB (the heap is let grow to 40 MB,
// whatever the input). TestValidateHundredMegabytes measures the same at
// 100 MB.
func TestValidateMemoryFollowsTheRecord(t *testing.T) {
	if testing.Short() {
		t.Skip("runs icepost in child processes")
	}
	dir := t.TempDir()
	var rss [2]int64
	for i, size := range []int{2 << 20, 16 << 20} {
		noise := filepath.Join(dir, fmt.Sprintf("garbage%d.txt", i))
		garbage(t, noise, size)
		code, errs, peak := icepostRSS(t, "validate", noise)
		rss[i] = peak
		t.Logf("validate, %d MB of garbage on one line: exit %d, %d bytes of errors, peak RSS %.1f MB", size>>20, code, len(errs), mb(peak))
		if code != exitInvalid || len(errs) > 4096 || !strings.Contains(errs, fmt.Sprintf("garbage%d.txt:1:1: record 1 is %d bytes, over the limit of 1048576 bytes", i, size)) {
			t.Errorf("validate garbage: exit %d, errors:\n%.2000s", code, errs)
		}
	}
	if rss[1]-rss[0] > (14<<20)/4 && !raceDetector() {
		t.Errorf("validate of garbage peaks at %.1f MB for 2 MB, %.1f MB for 16 MB", mb(rss[0]), mb(rss[1]))
	}

	good := filepath.Join(dir, "good.txt")
	goodRecords(t, good, 1600, 20<<10)
	code, errs, peak := icepostRSS(t, "validate", good)
	t.Logf("validate, 1600 records of 20 kB: peak RSS %.1f MB", mb(peak))
	if code != exitOK {
		t.Fatalf("validate good records: exit %d\n%.2000s", code, errs)
	}
	if peak > 96<<20 && !raceDetector() {
		t.Errorf("validate of 32 MB of records peaks at %.1f MB", mb(peak))
	}
}

// raceDetector reports whether the test runs with -race, which multiplies
// the memory a program takes.
func raceDetector() bool {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range info.Settings {
		if s.Key == "-race" && s.Value == "true" {
			return true
		}
	}
	return false
}

// With ICEPOST_BIGFILES set (to a folder to keep the files in, or to 1),
// validate reads 100 MB of garbage on one line and 100 MB of 5,000 good
// records, each in less than 128 MB, and writes less than 4 kB of
// errors:
//
//	ICEPOST_BIGFILES=1 go test ./cmd/icepost/ -run TestValidateHundredMegabytes -v
func TestValidateHundredMegabytes(t *testing.T) {
	dir := os.Getenv("ICEPOST_BIGFILES")
	if dir == "" {
		t.Skip("set ICEPOST_BIGFILES to a folder (or 1) to write 200 MB of files and validate them")
	}
	if dir == "1" {
		dir = t.TempDir()
	}
	const size = 100 << 20
	noise, good := filepath.Join(dir, "garbage100.txt"), filepath.Join(dir, "good100.txt")
	garbage(t, noise, size)
	goodRecords(t, good, 5000, size/5000)
	for _, c := range []struct {
		file string
		code int
	}{{noise, exitInvalid}, {good, exitOK}} {
		info, err := os.Stat(c.file)
		if err != nil {
			t.Fatal(err)
		}
		code, errs, rss := icepostRSS(t, "validate", c.file)
		t.Logf("validate %s (%.1f MB): exit %d, %d bytes of errors, peak RSS %.1f MB", c.file, mb(info.Size()), code, len(errs), mb(rss))
		if code != c.code || len(errs) > 4096 {
			t.Errorf("exit %d, errors:\n%.2000s", code, errs)
		}
		if rss > 128<<20 && !raceDetector() {
			t.Errorf("peak RSS %.1f MB, over 128 MB", mb(rss))
		}
	}
}

func mb(n int64) float64 { return float64(n) / (1 << 20) }
