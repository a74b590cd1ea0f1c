// icepost fmt: write records in their canonical form, to standard output
// or in place (-w) through atomicfile.Write.

package main

import (
	"bytes"
	"fmt"

	"icepost/atomicfile"
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
			if err := atomicfile.Write(file, out.Bytes()); err != nil {
				fmt.Fprintf(e.stderr, "icepost fmt: %v\n", err)
				code = exitUsage
			}
			continue
		}
		e.stdout.Write(out.Bytes())
	}
	return code
}
