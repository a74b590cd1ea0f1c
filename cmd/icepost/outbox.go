// icepost outbox: the mails the daemon has not sent, and sending again
// those it gave up.

package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"icepost/pbem"
	"icepost/pbem/outbox"
)

func cmdOutbox(e *env, args []string) int { return operator(e, "outbox", args) }

func outboxList(e *env, srv *pbem.Handler, args []string) int {
	fs := newFlags(e, "outbox", "list")
	failedOnly := fs.Bool("failed", false, "only the mails given up")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(e.stderr, "icepost outbox list: no arguments but -failed")
		return exitUsage
	}
	if since, advice, err := outbox.Held(e.ctx, srv.DB); err != nil {
		return failed(e, "outbox list", err)
	} else if !since.IsZero() {
		fmt.Fprintf(e.stdout, "Sending is held since %s: %s\nThe mails wait; the daemon tries again by itself. Fix the setting and restart it.\n\n", since.Format("2006-01-02 15:04 MST"), advice)
	}
	ms, err := outbox.List(e.ctx, srv.DB, *failedOnly)
	if err != nil {
		return failed(e, "outbox list", err)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tTO\tQUEUED\tTRIES\tSTATUS\tSUBJECT\tLAST ERROR")
	stamp := func(t time.Time) string { return t.Format("2006-01-02 15:04") }
	for _, m := range ms {
		status := "due " + stamp(m.NextTry)
		if !m.Failed.IsZero() {
			status = "given up " + stamp(m.Failed)
		}
		lastErr := m.LastError
		if lastErr == "" {
			lastErr = "-"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%s\t%s\n", m.ID, m.To, stamp(m.Queued), m.Attempts, status, oneLine(m.Subject), oneLine(lastErr))
	}
	tw.Flush()
	return exitOK
}

// oneLine keeps a table cell on its line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func outboxRetry(e *env, srv *pbem.Handler, args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(e.stderr, "icepost outbox retry: give a mail's ID (from icepost outbox list), or all")
		return exitUsage
	}
	var id int64
	if args[0] != "all" {
		var err error
		if id, err = strconv.ParseInt(args[0], 10, 64); err != nil || id < 1 {
			fmt.Fprintf(e.stderr, "icepost outbox retry: %q is neither a mail's ID nor all\n", args[0])
			return exitUsage
		}
	}
	n, err := outbox.Retry(e.ctx, srv.DB, id, time.Now())
	if errors.Is(err, outbox.ErrNoMail) {
		fmt.Fprintf(e.stderr, "icepost outbox retry: %v\n", err)
		return exitInvalid
	}
	if err != nil {
		return failed(e, "outbox retry", err)
	}
	fmt.Fprintf(e.stdout, "%d mails due now: the running daemon sends them within a minute (or at its next start)\n", n)
	return exitOK
}
