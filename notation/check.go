package notation

import (
	"cmp"
	"errors"
	"slices"
)

// Check parses src and replays every record in it. It returns the records
// that are valid, replayed (tokens not yet canonical), and every problem
// found, in input order. A broken record never stops the next one being
// read.
func Check(file string, src []byte) ([]*Game, ErrorList) {
	recs, errs := Parse(file, src)
	var out []*Game
	for _, rec := range recs {
		g, err := Replay(rec)
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				errs = append(errs, e)
			} else {
				errs = append(errs, &Error{File: file, Pos: rec.Pos, Err: err})
			}
			continue
		}
		out = append(out, g)
	}
	slices.SortStableFunc(errs, func(a, b *Error) int {
		if c := cmp.Compare(a.Pos.Line, b.Pos.Line); c != 0 {
			return c
		}
		return cmp.Compare(a.Pos.Col, b.Pos.Col)
	})
	return out, errs
}
