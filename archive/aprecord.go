package archive

import (
	"bufio"
	"context"
	"errors"
	"fmt"

	"icepost/notation"
	"icepost/notation/aprecord"
)

// An import reads Abstract Play's records (APGameRecord JSON, package
// notation/aprecord) as it reads icepost's: an input is told to be JSON
// by its content (aprecord.Sniff), cut into records by splitAP instead of
// split, and each record becomes icepost's record (aprecord.Parse, which
// replays the site's moves) before it is stored like any other. A record
// that does not replay is quarantined with its JSON and the reason (the
// ply and the site's move), and RetryQuarantine reads it again the same
// way. The same game imported twice is one game: the dedupe key is the
// game's moves and result, whatever the header says.

// splitAP cuts an input of APGameRecord JSON into records, batches of up
// to n of them going to emit, as split does for icepost's records.
func splitAP(ctx context.Context, br *bufio.Reader, n int, emit func(*batch) bool) error {
	sp := aprecord.NewSplitter(br, maxChunk)
	b := &batch{done: make(chan struct{})}
	for sp.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		t := sp.Record()
		c := chunk{line: t.Line, col: t.Col, offset: t.Offset, json: true}
		if t.TooLarge {
			c.text, c.oversize = append([]byte(nil), t.Head...), t.Size
		} else {
			c.text = append([]byte(nil), t.Text...)
		}
		b.chunks = append(b.chunks, c)
		if len(b.chunks) >= n {
			if !emit(b) {
				return nil
			}
			b = &batch{done: make(chan struct{})}
		}
	}
	if len(b.chunks) > 0 && !emit(b) {
		return nil
	}
	return sp.Err()
}

// processAP turns one record's JSON into a row, or the reason it is
// refused.
func processAP(file string, c chunk, moves *tokenNumbers) []outcome {
	fail := func(err error) []outcome {
		var e *notation.Error
		if !errors.As(err, &e) {
			err = &notation.Error{File: file, Pos: notation.Pos{Line: c.line, Col: max(c.col, 1)}, Err: err}
		}
		return []outcome{{reason: err, text: c.text, line: c.line, offset: c.offset}}
	}
	rec, err := aprecord.Parse(file, c.text, c.line, max(c.col, 1))
	if err != nil {
		return fail(err)
	}
	row, err := prepareRecord(rec, Provenance{File: file, Line: c.line, Offset: c.offset})
	if err != nil {
		return fail(fmt.Errorf("the record read from the JSON: %w", err))
	}
	moves.number(row)
	return []outcome{{row: row, line: c.line, offset: c.offset}}
}
