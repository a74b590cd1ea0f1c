package notation

import (
	"cmp"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
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
	return CheckParallel(file, src, 1, fn)
}

// CheckParallel is CheckFunc with the replays spread over workers
// goroutines: records are independent, so a file checks in about 1/workers
// of the time. fn is called from those goroutines, in no particular order,
// one call at a time. The errors come back in input order.
func CheckParallel(file string, src []byte, workers int, fn func(*Game)) ErrorList {
	return checkAt(file, src, 1, workers, fn)
}

// checkAt is CheckParallel on a piece of a file that starts at line.
func checkAt(file string, src []byte, line, workers int, fn func(*Game)) ErrorList {
	recs, errs := parseAt(file, src, line)
	replayErrs := make([]*Error, len(recs))
	var mu sync.Mutex
	replay := func(i int) {
		rec := recs[i]
		recs[i] = nil
		g, err := Replay(rec)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				e = &Error{File: file, Pos: rec.Pos, Err: err}
			}
			replayErrs[i] = e
			return
		}
		mu.Lock()
		fn(g)
		mu.Unlock()
	}
	if workers <= 1 || len(recs) < 2 {
		for i := range recs {
			replay(i)
		}
	} else {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range min(workers, len(recs)) {
			wg.Go(func() {
				for {
					i := int(next.Add(1) - 1)
					if i >= len(recs) {
						return
					}
					replay(i)
				}
			})
		}
		wg.Wait()
	}
	for _, e := range replayErrs {
		if e != nil {
			errs = append(errs, e)
		}
	}
	slices.SortStableFunc(errs, func(a, b *Error) int {
		if c := cmp.Compare(a.Pos.Line, b.Pos.Line); c != 0 {
			return c
		}
		return cmp.Compare(a.Pos.Col, b.Pos.Col)
	})
	return errs
}
