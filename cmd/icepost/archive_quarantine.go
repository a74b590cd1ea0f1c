// icepost archive quarantine: the records that did not replay, and
// retrying them under the current rules.

package main

import (
	"fmt"
	"strings"

	"icepost/archive"
)

func archiveQuarantine(e *env, a *archive.Archive, args []string) int {
	fs := newFlags(e, "archive", "quarantine")
	verbose := fs.Bool("v", false, "print each record's text too")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	switch {
	case fs.NArg() == 1 && fs.Arg(0) == "retry":
		st, err := a.RetryQuarantine(e.ctx)
		if err != nil {
			return archiveFail(e, "quarantine", err)
		}
		fmt.Fprintf(e.stdout, "%d imported, %d duplicates, %d still quarantined\n", st.Imported, st.Duplicates, st.Quarantined)
		return exitOK
	case fs.NArg() != 0:
		fmt.Fprintln(e.stderr, "icepost archive quarantine: give no argument (to list) or retry")
		return exitUsage
	}
	qs, err := a.Quarantine(e.ctx)
	if err != nil {
		return archiveFail(e, "quarantine", err)
	}
	for _, q := range qs {
		fmt.Fprintf(e.stdout, "%d\t%s\n", q.ID, cell2(q.Reason))
		if *verbose {
			fmt.Fprintf(e.stdout, "%s\n", strings.TrimRight(q.Text, "\n"))
		}
	}
	fmt.Fprintf(e.stdout, "%d quarantined\n", len(qs))
	return exitOK
}

// cell2 is one line of text, for a reason that may hold several.
func cell2(s string) string { return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\n", "; ") }
