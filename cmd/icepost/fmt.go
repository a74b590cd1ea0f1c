// icepost fmt: write records in their canonical form, to standard output
// or in place (-w) through writeFileAtomic.

package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"icepost/notation"
)

func cmdFmt(e *env, args []string) int {
	fs := newFlags(e, "fmt")
	write := fs.Bool("w", false, "rewrite each file in place instead of printing it")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "icepost fmt: name one or more record files (- for standard input)")
		return exitUsage
	}
	code := exitOK
	for _, file := range fs.Args() {
		gs, errs, err := readRecords(e, file)
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost fmt: %v\n", err)
			code = exitUsage
			continue
		}
		if len(errs) > 0 {
			// Like gofmt, refuse to rewrite what does not read: nothing
			// may be lost.
			printErrors(e, errs)
			code = exitInvalid
			continue
		}
		recs := make([]*notation.Record, len(gs))
		for i, g := range gs {
			g.Canonicalize()
			recs[i] = g.Record
		}
		var out bytes.Buffer
		notation.FormatAll(&out, recs)
		if *write && file != "-" {
			if err := writeFileAtomic(file, out.Bytes()); err != nil {
				fmt.Fprintf(e.stderr, "icepost fmt: %v\n", err)
				code = exitUsage
			}
			continue
		}
		e.stdout.Write(out.Bytes())
	}
	return code
}

// writeFileAtomic replaces file with data so that a crash or a full disk
// leaves either the old file or the new one, never half of one.
func writeFileAtomic(file string, data []byte) error {
	info, err := os.Stat(file)
	mode := os.FileMode(0o644)
	if err == nil {
		mode = info.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dirOf(file), ".icepost-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", file, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", file, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", file, err)
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

func dirOf(file string) string {
	if i := strings.LastIndexByte(file, '/'); i >= 0 {
		return file[:i+1]
	}
	return "."
}
