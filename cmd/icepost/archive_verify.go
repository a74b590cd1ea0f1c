// icepost archive verify: replay every stored game under the current
// rules.

package main

import (
	"fmt"

	"icepost/archive"
)

func archiveVerify(e *env, a *archive.Archive, args []string) int {
	fs := newFlags(e, "archive", "verify")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	checked, failed, err := a.Verify(e.ctx, func(id int64, err error) {
		fmt.Fprintf(e.stderr, "game %d no longer validates: %v\n", id, err)
	})
	if err != nil {
		return archiveFail(e, "verify", err)
	}
	fmt.Fprintf(e.stdout, "%d games checked, %d no longer validate\n", checked, failed)
	if failed > 0 {
		return exitInvalid
	}
	return exitOK
}
