// icepost archive export: the selected games as a record file.

package main

import (
	"fmt"

	"icepost/archive"
)

func archiveExport(e *env, a *archive.Archive, args []string) int {
	fs := newFlags(e, "archive", "export")
	query := queryFlags(fs)
	limit := fs.Int("limit", 0, "at most this many games (0: all)")
	offset := fs.Int("offset", 0, "skip this many games first")
	format := fs.String("format", "records", "records (icepost's record file) or ap (Abstract Play's APGameRecord JSON: one record, or an array of them)")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(e.stderr, "icepost archive export: unexpected argument %q (filters are flags)\n", fs.Arg(0))
		return exitUsage
	}
	q, err := query()
	if err != nil {
		return archiveFail(e, "export", err)
	}
	q.Limit, q.Offset = *limit, *offset
	if *format != "records" && *format != "ap" {
		fmt.Fprintf(e.stderr, "icepost archive export: -format %q: use records or ap\n", *format)
		return exitUsage
	}
	return writeGames(e, a, "export", q, *format)
}
