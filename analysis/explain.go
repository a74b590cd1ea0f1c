package analysis

import (
	"slices"

	"icepost/rules"
)

// Capture is a piece a move can take: whose, what size, where.
type Capture struct {
	Owner int    // the seat whose piece it is
	Size  int    // rules.Small, Medium or Large
	Cell  string // where it stands ("f2")
}

// Explanation is what a move did, told from the positions alone, beside
// the estimates: what the displays can say in words a player knows
// ("it gave away your medium on f2") rather than in numbers. Each field
// is empty when the positions do not show it; nothing in it is an
// estimate.
type Explanation struct {
	// Lets is the winning move the move played left to the next seat
	// (LetsSeat), in the position right after it: the move let that seat
	// win at once.
	Lets     string
	LetsSeat int
	// Exposed is a piece of the mover's that the next seat (Taker) can
	// take right after the move played, bigger than any it could take
	// after the better move: what the move gave away. The biggest such
	// piece.
	Exposed *Capture
	Taker   int
	// Took says that the game's next move did take Exposed.
	Took bool
	// BetterTakes is a piece of another seat's that the better move
	// takes and the move played does not: what the move missed. The
	// biggest such piece.
	BetterTakes *Capture
}

// Explain tells what m, the analysis of a move played in s (the position
// before it), did that the positions show: whether it let the next seat
// win at once; else, when m has a better move, whether it left a piece
// of the mover's to the next seat that the better move would not have
// (and whether reply, the game's next move, "" when none, took it); and
// what the better move would have taken that the move played did not.
// It reads the captures from rules.Drawable's LastMove (and its Taken
// pieces), so a game that does not describe its pieces, or has no
// owners (IceSickle's pieces are neutral), gets only Lets. It plays a
// few moves and looks at the next seat's legal moves once or twice: a
// few milliseconds, for the moves a display shows.
func Explain(s rules.State, m Move, reply string) Explanation {
	var e Explanation
	if s == nil || s.ToMove() != m.Seat {
		return e
	}
	after, played, err := rules.Play(s, m.Token)
	if err != nil || after.Outcome().Over {
		return e
	}
	next := after.ToMove()
	if next == 0 || next == m.Seat {
		return e // the mover plays again: there is no next seat to give anything to
	}
	if win, ok := winInOne(after, next); ok {
		e.Lets, e.LetsSeat = after.FormatMove(win), next
		return e
	}
	if m.Better == "" {
		return e
	}
	better, bm, err := rules.Play(s, m.Better)
	if err != nil || bm == played {
		return e
	}
	if !better.Outcome().Over && better.ToMove() == next {
		// Only a bigger piece than the better move leaves counts: a piece
		// the better move moves elsewhere, where it can be taken as well,
		// was not given away.
		shut := takeable(better, m.Seat)
		most := 0
		for _, c := range shut {
			most = max(most, c.Size)
		}
		var biggest *Capture
		for _, c := range takeable(after, m.Seat) {
			if c.Size > most && !slices.Contains(shut, c) && (biggest == nil || c.Size > biggest.Size) {
				biggest = &c
			}
		}
		if biggest != nil {
			e.Exposed, e.Taker = biggest, next
			if reply != "" {
				if rm, err := after.ParseMove(reply); err == nil {
					e.Took = slices.Contains(captures(after, rm, func(o int) bool { return o == m.Seat }), *biggest)
				}
			}
		}
	}
	others := func(o int) bool { return o != 0 && o != m.Seat }
	mine := captures(s, played, others)
	for _, c := range captures(s, bm, others) {
		if !slices.Contains(mine, c) && (e.BetterTakes == nil || c.Size > e.BetterTakes.Size) {
			e.BetterTakes = &c
		}
	}
	return e
}

// takeable lists the pieces of owner's that the seat to move in s can
// take at once, each once.
func takeable(s rules.State, owner int) []Capture {
	d, ok := s.(rules.Drawable)
	if !ok {
		return nil
	}
	var out, buf []Capture
	var cells []rules.Cell
	for _, mv := range s.Moves(nil) {
		lm := d.LastMove(mv)
		if len(lm.Captured) == 0 {
			continue
		}
		if cells == nil {
			cells = d.Diagram(0).Cells
		}
		buf = appendTaken(buf[:0], lm, cells, func(o int) bool { return o == owner })
		for _, c := range buf {
			if !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// captures lists the pieces mv, a legal move of s, takes whose owner
// want accepts.
func captures(s rules.State, mv rules.Move, want func(owner int) bool) []Capture {
	d, ok := s.(rules.Drawable)
	if !ok {
		return nil
	}
	lm := d.LastMove(mv)
	if len(lm.Captured) == 0 {
		return nil
	}
	return appendTaken(nil, lm, d.Diagram(0).Cells, want)
}

// appendTaken appends the pieces lm took whose owner want accepts, named
// by cells (the diagram's): none when the game does not say which pieces
// its captures took (LastMove.Taken).
func appendTaken(out []Capture, lm rules.LastMove, cells []rules.Cell, want func(owner int) bool) []Capture {
	if len(lm.Taken) != len(lm.Captured) {
		return out
	}
	for k, i := range lm.Captured {
		p := lm.Taken[k]
		if i < 0 || i >= len(cells) || !want(p.Owner) {
			continue
		}
		out = append(out, Capture{Owner: p.Owner, Size: p.Size, Cell: cells[i].Name})
	}
	return out
}
