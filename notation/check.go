package notation

import (
	"cmp"
	"errors"
	"slices"
	"sync"
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
	return checkAt(file, src, 1, workers, true, fn)
}

// checkAt is CheckParallel on a piece of a file that starts at line. Each
// record is replayed as soon as it is read, by the workers while the
// parser reads on, so that parsing and replaying overlap. Without keep
// the replays keep no positions (Validate) and fn gets nil for each valid
// record.
func checkAt(file string, src []byte, line, workers int, keep bool, fn func(*Game)) ErrorList {
	var (
		mu         sync.Mutex
		replayErrs []*Error // by record, in input order
	)
	replay := func(i int, rec *Record) {
		g, err := replayOrValidate(rec, keep)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				e = &Error{File: file, Pos: rec.Pos, Err: err}
			}
			mu.Lock()
			if i >= len(replayErrs) {
				replayErrs = append(replayErrs, make([]*Error, i+1-len(replayErrs))...)
			}
			replayErrs[i] = e
			mu.Unlock()
			return
		}
		mu.Lock()
		fn(g)
		mu.Unlock()
	}
	var errs ErrorList
	n := 0 // records read
	if workers <= 1 {
		errs = parseEach(file, src, line, func(rec *Record) {
			replay(n, rec)
			n++
		})
	} else {
		type job struct {
			i   int
			rec *Record
		}
		jobs := make(chan job, 4*workers)
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for j := range jobs {
					replay(j.i, j.rec)
				}
			})
		}
		errs = parseEach(file, src, line, func(rec *Record) {
			jobs <- job{n, rec}
			n++
		})
		close(jobs)
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

// replayOrValidate replays rec keeping its positions (keep), or only
// checks it (Validate; the game is nil then).
func replayOrValidate(rec *Record, keep bool) (*Game, error) {
	if keep {
		return Replay(rec)
	}
	return nil, Validate(rec)
}
