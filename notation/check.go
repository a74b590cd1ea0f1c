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
	var out []*Game
	errs := CheckFunc(file, src, func(g *Game) { out = append(out, g) })
	return out, errs
}

// CheckFunc is Check that hands each valid game to fn instead of keeping
// them all, so that a large file needs the memory of one game at a time.
func CheckFunc(file string, src []byte, fn func(*Game)) ErrorList {
	recs, errs := Parse(file, src)
	for i, rec := range recs {
		g, err := Replay(rec)
		recs[i] = nil
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				errs = append(errs, e)
			} else {
				errs = append(errs, &Error{File: file, Pos: rec.Pos, Err: err})
			}
			continue
		}
		fn(g)
	}
	slices.SortStableFunc(errs, func(a, b *Error) int {
		if c := cmp.Compare(a.Pos.Line, b.Pos.Line); c != 0 {
			return c
		}
		return cmp.Compare(a.Pos.Col, b.Pos.Col)
	})
	return errs
}
