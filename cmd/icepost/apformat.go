// Abstract Play's records (APGameRecord JSON, package notation/aprecord)
// for the record commands: read wherever icepost's records are, told
// apart by content; written by fmt -format ap and archive export -format
// ap.

package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"time"

	"icepost/archive"
	"icepost/notation"
	"icepost/notation/aprecord"
)

// streamRecords reads a file a record at a time as notation.Stream does,
// in icepost's format or as APGameRecord JSON, whichever it holds: a
// JSON record comes to work as icepost's record, its moves replayed from
// the site's notation (aprecord.Stream).
func streamRecords[T any](ctx context.Context, name string, r io.Reader, opt notation.StreamOptions, work func(*notation.Chunk) T, emit func(*notation.Chunk, T) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	if aprecord.Sniff(br) {
		return aprecord.Stream(ctx, name, br, opt.MaxBytes, work, emit)
	}
	return notation.Stream(ctx, name, br, opt, work, emit)
}

// writeAP writes the selected games as APGameRecord JSON: those the
// format cannot hold are named on standard error and counted, the others
// written.
func writeAP(e *env, a *archive.Archive, cmd string, q archive.Query) (written, refused int, err error) {
	w := aprecord.NewWriter(e.stdout)
	now := time.Now()
	err = a.Each(e.ctx, q, func(s archive.Summary, text []byte) error {
		recs, errs := notation.Parse(fmt.Sprintf("game %d", s.ID), text)
		if len(errs) > 0 || len(recs) != 1 {
			return fmt.Errorf("game %d: its stored record does not read: %v", s.ID, errs.Err())
		}
		b, err := aprecord.Marshal(recs[0], now)
		if err != nil {
			refused++
			fmt.Fprintf(e.stderr, "icepost archive %s: game %d left out: %v\n", cmd, s.ID, errorText(err))
			return nil
		}
		written++
		return w.Write(b)
	})
	if err == nil {
		err = w.Close()
	}
	return written, refused, err
}

// errorText is an error without the position of a record that has none
// in a file (a stored game).
func errorText(err error) string {
	if e, ok := err.(*notation.Error); ok {
		return e.Err.Error()
	}
	return err.Error()
}
