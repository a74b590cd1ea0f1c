// icepost archive show: a stored game's record and final board.

package main

import (
	"fmt"

	"icepost/archive"
	"icepost/notation"
)

func archiveShow(e *env, a *archive.Archive, args []string) int {
	fs := newFlags(e, "archive", "show")
	view := fs.Int("view", 0, "the seat whose side is at the bottom")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "icepost archive show: give one game id")
		return exitUsage
	}
	id, ok := parseID(e, "show", fs.Arg(0))
	if !ok {
		return exitUsage
	}
	st, err := a.Get(e.ctx, id)
	if err != nil {
		return archiveFail(e, "show", err)
	}
	e.stdout.Write(st.Record)
	fmt.Fprintln(e.stdout)
	gs, errs := notation.Check(fmt.Sprintf("game %d", id), st.Record)
	if len(errs) > 0 || len(gs) != 1 {
		fmt.Fprintf(e.stderr, "icepost archive show: the record no longer replays: %v\n", errs.Err())
		return exitInvalid
	}
	final := gs[0].Final()
	fmt.Fprint(e.stdout, final.Board(*view))
	fmt.Fprintf(e.stdout, "Position: %s\n", final.Code())
	switch {
	case st.MailGame != "":
		fmt.Fprintf(e.stdout, "From mail game %s\n", st.MailGame)
	case st.Source != "":
		fmt.Fprintf(e.stdout, "From %s:%d\n", st.Source, st.SourceLine)
	}
	return exitOK
}
