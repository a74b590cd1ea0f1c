package pbem_test

import (
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"icepost/archive"
	"icepost/notation"
	"icepost/puzzle"
	"icepost/rules"
	"icepost/rules/games"
	"icepost/solve"
)

// puzzleArchive is the world's archive with its puzzles, as serve's is.
type puzzleArchive struct {
	testArchive
	db *sql.DB
}

func (a puzzleArchive) NextPuzzle(ctx context.Context, after int64) (int64, puzzle.Puzzle, bool, error) {
	p, err := archive.Wrap(a.db).NextPuzzle(ctx, "", after)
	if errors.Is(err, archive.ErrNotFound) {
		return 0, puzzle.Puzzle{}, false, nil
	}
	if err != nil {
		return 0, puzzle.Puzzle{}, false, err
	}
	return p.ID, p.Puzzle, true, nil
}

func (a puzzleArchive) Puzzle(ctx context.Context, id int64) (puzzle.Puzzle, bool, error) {
	p, err := archive.Wrap(a.db).Puzzle(ctx, id)
	if errors.Is(err, archive.ErrNotFound) {
		return puzzle.Puzzle{}, false, nil
	}
	if err != nil {
		return puzzle.Puzzle{}, false, err
	}
	return p.Puzzle, true, nil
}

// withPuzzles fills the world's archive with random games of Ice Lady
// (which miss wins often) and their puzzles, and returns them in id
// order.
func withPuzzles(t *testing.T, w *world) []*archive.StoredPuzzle {
	t.Helper()
	rng := rand.New(rand.NewPCG(41, 3))
	var b strings.Builder
	for i, v := range []struct {
		game string
		opt  rules.Options
	}{{"IceLady", rules.Options{}}, {"IceLady", rules.Options{}}} {
		g, _ := games.Lookup(v.game)
		start, err := g.Start(v.opt)
		if err != nil {
			t.Fatal(err)
		}
		tags := []notation.Tag{{Name: "Event", Value: "Puzzle night"}, {Name: "Player1", Value: "Ada"}, {Name: "Player2", Value: "Bob"}}
		rec, err := notation.FromMoves(tags, start, notation.RandomGame(start, rng, 150+i))
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(rec.String() + "\n")
	}
	a := archive.Wrap(w.srv.DB)
	if _, err := a.Import(w.ctx, strings.NewReader(b.String()), "random.rec", archive.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.FindPuzzles(w.ctx, archive.Query{}, archive.PuzzleOptions{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	ps, err := a.Puzzles(w.ctx, archive.PuzzleQuery{})
	if err != nil || len(ps) < 2 {
		t.Fatalf("%d puzzles in the random games (%v), want two at least", len(ps), err)
	}
	w.srv.Archive = puzzleArchive{db: w.srv.DB}
	return ps
}

// TestPuzzleByMail: "puzzle on" sends a puzzle at once and one a day
// after; a reply with a move that keeps the forced win gets the defence
// (or "solved"), one that does not gets the solution; an old mail of
// the puzzle, a move that is not legal and a second answer change
// nothing; "puzzle off" stops them; the reply token is ada's alone.
func TestPuzzleByMail(t *testing.T) {
	w := newWorld(t)
	w.send("ada", "puzzle on")
	w.wantLast("ada", "keeps no archive")
	ps := withPuzzles(t, w)

	w.send("ada", "puzzle on")
	first := w.wantLast("ada", "Puzzle 1:", "Find the win", "Puzzle night", "Reply to this mail with your move")
	if countRows(t, w, `SELECT count(*) FROM pbem_puzzle_tries WHERE address = ? AND puzzle_id = 1 AND status = 'open'`, w.sys.Address("ada")) != 1 {
		t.Fatal("puzzle 1 is not open for ada")
	}
	// bob replies to ada's puzzle mail: the token is hers, so it is no
	// answer of bob's, and nothing changes.
	w.deliver(w.reply("bob", first, ps[0].Solution[0]))
	w.step()
	if countRows(t, w, `SELECT count(*) FROM pbem_puzzle_tries WHERE moves <> '' OR status <> 'open'`) != 0 {
		t.Fatal("bob's reply to ada's puzzle changed her answer")
	}
	// Not a move here: nothing changes, the board comes again.
	w.deliver(w.reply("ada", first, "zz9"))
	w.step()

	// ada plays the solution, move by move, each from the last mail.
	p := ps[0]
	var mine []string
	for {
		at, err := puzzle.Play(w.ctx, p.Puzzle, mine, 0)
		if err != nil {
			t.Fatal(err)
		}
		s := at.Position
		r, err := solve.Win(w.ctx, s, at.Left, 0)
		if err != nil || r.In == 0 {
			t.Fatalf("no move keeps the win after %v: %+v, %v", mine, r, err)
		}
		next := s.FormatMove(r.Line[0])
		last := w.last("ada")
		w.deliver(w.reply("ada", last, next))
		w.step()
		mine = append(mine, next)
		if strings.Contains(w.last("ada").text, "Solved") {
			break
		}
		w.wantLast("ada", "Right: "+next+" still forces the win")
		if len(mine) > p.In {
			t.Fatalf("not solved after %d moves of a win in %d", len(mine), p.In)
		}
		// The first mail again: it answers an older point.
		if len(mine) == 1 {
			n := w.mailCount("ada")
			w.deliver(w.reply("ada", first, next))
			w.step()
			w.wantLast("ada", "answers an earlier mail")
			if w.mailCount("ada") != n+1 {
				t.Fatal("an old puzzle mail's reply was not answered once")
			}
		}
	}
	if countRows(t, w, `SELECT count(*) FROM pbem_puzzle_tries WHERE puzzle_id = ? AND status = 'solved'`, p.ID) != 1 {
		t.Fatal("the solved puzzle is not marked solved")
	}
	w.deliver(w.reply("ada", w.last("ada"), mine[0]))
	w.step()
	w.wantLast("ada", "You have answered puzzle 1 already")

	// A day later the next puzzle comes; a move that does not force the
	// win is told the solution.
	w.clock.Advance(24*time.Hour + time.Minute)
	w.tick()
	second := w.wantLast("ada", "Puzzle 2:")
	q := ps[1]
	s, err := q.Start()
	if err != nil {
		t.Fatal(err)
	}
	// A move that does not force the win: one the solver cannot make a
	// win of (the last of the legal moves that is not the solution's).
	wrong := ""
	for _, m := range s.Moves(nil) {
		if tok := s.FormatMove(m); tok != q.Solution[0] {
			if r, err := solve.WinWith(w.ctx, s, m, q.In, 0); err == nil && r.In == 0 && !r.Exhausted {
				wrong = tok
				break
			}
		}
	}
	if wrong == "" {
		t.Fatal("no move of puzzle 2 is proved wrong")
	}
	w.deliver(w.reply("ada", second, wrong))
	w.step()
	w.wantLast("ada", wrong+" does not force the win", "The solution was "+q.Solution[0])

	// Off: no puzzle the next day.
	w.send("ada", "puzzle off")
	w.wantLast("ada", "No more daily puzzles")
	n := w.mailCount("ada")
	w.clock.Advance(48 * time.Hour)
	w.tick()
	if w.mailCount("ada") != n {
		t.Error("a puzzle came after puzzle off")
	}
}
