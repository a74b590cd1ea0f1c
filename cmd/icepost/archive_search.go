// icepost archive search: list the games the filters select, as a table,
// records or JSON, or count them.

package main

import (
	"fmt"

	"icepost/archive"
)

func archiveSearch(e *env, a *archive.Archive, args []string) int {
	fs := newFlags(e, "archive", "search")
	query := queryFlags(fs)
	limit := fs.Int("limit", 50, "at most this many games (0: all)")
	offset := fs.Int("offset", 0, "skip this many games first")
	count := fs.Bool("count", false, "print only how many games match")
	format := fs.String("format", "table", "table (for people), records (a record file), json (one object a line) or ap (Abstract Play's APGameRecord JSON)")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(e.stderr, "icepost archive search: unexpected argument %q (filters are flags)\n", fs.Arg(0))
		return exitUsage
	}
	q, err := query()
	if err != nil {
		return archiveFail(e, "search", err)
	}
	q.Limit, q.Offset = *limit, *offset
	if *count {
		q.Limit, q.Offset = 0, 0
		n, err := a.Count(e.ctx, q)
		if err != nil {
			return archiveFail(e, "search", err)
		}
		fmt.Fprintln(e.stdout, n)
		return exitOK
	}
	code, shown := writeGamesN(e, a, "search", q, *format)
	if code != exitOK || (q.Offset == 0 && (q.Limit == 0 || shown < q.Limit)) {
		return code // every game that matched was shown
	}
	// Fewer may have been shown than matched: say so, on standard error so
	// that the records or JSON on standard output stay clean.
	q.Limit, q.Offset = 0, 0
	n, err := a.Count(e.ctx, q)
	if err != nil {
		return archiveFail(e, "search", err)
	}
	if shown < n {
		from := ""
		if *offset > 0 {
			from = fmt.Sprintf(" (from game %d)", *offset+1)
		}
		fmt.Fprintf(e.stderr, "%d of %d games shown%s; -limit 0 shows all, -offset N skips N.\n", shown, n, from)
	}
	return exitOK
}
