package aprecord

import (
	"context"
	"io"

	"icepost/notation"
)

// Stream reads a file of APGameRecord JSON a record at a time (Splitter,
// none kept longer than maxBytes) and hands each record, turned into
// icepost's record (Parse), to work and then to emit, as
// notation.Stream does with icepost's own records: each Chunk holds one
// record, or its errors (a record over the limit, one that does not
// replay, JSON that cannot be read on). So validate, fmt and analyze
// read either format through one loop. Records are done one after
// another: the site's records are small and few.
func Stream[T any](ctx context.Context, file string, r io.Reader, maxBytes int, work func(*notation.Chunk) T, emit func(*notation.Chunk, T) error) error {
	sp := NewSplitter(r, maxBytes)
	for sp.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		t := sp.Record()
		c := &notation.Chunk{File: file, N: t.N, Line: t.Line, Size: t.Size, TooLarge: t.TooLarge}
		if t.TooLarge {
			c.Errs = notation.ErrorList{{File: file, Pos: notation.Pos{Line: t.Line, Col: t.Col},
				Err: kindErrorf(notation.ErrTooLarge, "record %d is %d bytes, over the limit of %d bytes: not read", t.N, t.Size, maxBytes)}}
		} else if rec, err := Parse(file, t.Text, t.Line, t.Col); err != nil {
			c.Errs = notation.ErrorList{asError(file, t, err)}
		} else {
			c.Records = []*notation.Record{rec}
		}
		if err := emit(c, work(c)); err != nil {
			return err
		}
	}
	err := sp.Err()
	if e, ok := err.(*notation.Error); ok {
		// JSON that cannot be read on: the last chunk's error.
		e.File = file
		c := &notation.Chunk{File: file, N: sp.n + 1, Line: e.Pos.Line, Errs: notation.ErrorList{e}}
		return emit(c, work(c))
	}
	return err
}

// asError makes any error of a record a *notation.Error at its start.
func asError(file string, t RecordText, err error) *notation.Error {
	if e, ok := err.(*notation.Error); ok {
		return e
	}
	return &notation.Error{File: file, Pos: notation.Pos{Line: t.Line, Col: t.Col}, Err: err}
}
