// icepost archive delete: remove games.

package main

import (
	"fmt"

	"icepost/archive"
)

func archiveDelete(e *env, a *archive.Archive, args []string) int {
	fs := newFlags(e, "archive", "delete")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "icepost archive delete: give one or more game ids")
		return exitUsage
	}
	code := exitOK
	for _, s := range fs.Args() {
		id, ok := parseID(e, "delete", s)
		if !ok {
			return exitUsage
		}
		if err := a.Delete(e.ctx, id); err != nil {
			code = archiveFail(e, "delete", err)
			continue
		}
		fmt.Fprintf(e.stdout, "deleted game %d\n", id)
	}
	return code
}
