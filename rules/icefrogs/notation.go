package icefrogs

import (
	"fmt"
	"strings"

	"icepost/rules"
)

var sizeNames = [4]string{"", "small", "medium", "large"}

// check returns why m is not legal here, or "" when it is. It walks the
// path by the rules rather than generating every move, so that reading a
// token costs little however many moves the position has.
func (p *Position) check(m rules.Move) string {
	if p.toMove == 0 {
		return "the game is over"
	}
	seat := p.toMove
	g := p.geo()
	if m.Arg != 0 || int(m.N) > rules.MaxPath {
		return "not an IceFrogs move"
	}
	for i := int(m.N); i < rules.MaxPath; i++ {
		if m.Path[i] != 0 {
			return "not an IceFrogs move"
		}
	}
	for _, c := range m.Path[:m.N] {
		if c >= maxCells {
			return "not an IceFrogs move"
		}
	}
	own := g.start(int(p.seats), int(seat))
	switch m.Kind {
	case Pass:
		if m.N != 0 || m.Size != 0 {
			return "not an IceFrogs move"
		}
		if p.canMove(seat) {
			return "a player may pass only when there is no other legal turn"
		}
		return ""
	case Step, Enter:
	default:
		return "not an IceFrogs move"
	}
	if m.N < 2 {
		if m.Kind == Enter {
			return "an entering piece moves on at once, like " + rules.SizeLetter(int(m.Size)) + "@" + g.names[own] + "-" + g.names[g.firstNeighbour(own)]
		}
		return "a move names the cell it starts from and at least one more"
	}
	ts := p.sizes()
	c0 := m.Path[0]
	var size uint8
	if m.Kind == Enter {
		if m.Size < 1 || m.Size > 3 {
			return "not an IceFrogs move"
		}
		if c0 != own {
			return fmt.Sprintf("pieces enter on your start space %s, not %s", g.names[own], g.names[c0])
		}
		if p.supply[seat-1][m.Size-1] == 0 {
			return fmt.Sprintf("you have no %s piece left in your supply", sizeNames[m.Size])
		}
		size = m.Size
	} else {
		if m.Size != 0 {
			return "not an IceFrogs move"
		}
		t := p.top[c0]
		if t == 0 {
			if c0 == own {
				return fmt.Sprintf("there is no piece on %s; to enter one from your supply write it like M@%s-...", g.names[c0], g.names[c0])
			}
			return fmt.Sprintf("there is no piece on %s", g.names[c0])
		}
		if s := pieceSeat(t - 1); s != seat {
			return fmt.Sprintf("the top piece on %s is seat %d's: only the top piece of a stack moves, and only by its owner", g.names[c0], s)
		}
		size = pieceSize(t - 1)
		ts[c0] = 0
		if b := p.below[t-1]; b != 0 {
			ts[c0] = pieceSize(b - 1)
		}
	}
	piece := "the " + sizeNames[size]
	visited := uint64(1) << c0
	last := int(m.N) - 1
	for i := 1; i <= last; i++ {
		a, b := m.Path[i-1], m.Path[i]
		d, dist := g.dir(a, b)
		if visited&(1<<b) != 0 {
			if b == c0 {
				return fmt.Sprintf("the move may not come back to %s, where it began", g.names[c0])
			}
			return fmt.Sprintf("the move lands on %s twice", g.names[b])
		}
		visited |= 1 << b
		switch dist {
		case 1:
			if i != last {
				return fmt.Sprintf("a step ends the move: nothing may follow %s-%s", g.names[a], g.names[b])
			}
			if ts[b] == 0 && i > 1 {
				return fmt.Sprintf("after a hop a step must go onto a piece, and %s is empty", g.names[b])
			}
			if ts[b] != 0 && ts[b] < size {
				return fmt.Sprintf("%s cannot step onto the %s on %s: a piece lands only on one the same size or larger", piece, sizeNames[ts[b]], g.names[b])
			}
		case 2:
			over := g.nb[a][d]
			if ts[over] == 0 {
				return fmt.Sprintf("there is nothing on %s to hop over", g.names[over])
			}
			if ts[over] > size {
				return fmt.Sprintf("%s cannot hop over the %s on %s: a piece hops only over one the same size or smaller", piece, sizeNames[ts[over]], g.names[over])
			}
			if ts[b] != 0 && ts[b] < size {
				return fmt.Sprintf("%s cannot land on the %s on %s: a piece lands only on one the same size or larger", piece, sizeNames[ts[b]], g.names[b])
			}
			if ts[b] != 0 && i != last {
				return fmt.Sprintf("landing on the piece on %s ends the move", g.names[b])
			}
		default:
			return fmt.Sprintf("%s to %s is neither a step to a neighbouring cell nor a hop over one along a line", g.names[a], g.names[b])
		}
	}
	if m.Path[last] == own {
		return fmt.Sprintf("no move may end on your own start space %s", g.names[own])
	}
	return ""
}

func (g *geometry) firstNeighbour(c uint8) uint8 {
	for _, n := range g.nb[c] {
		if n != none {
			return n
		}
	}
	return c
}

// FormatMove writes m as d2-d3, c3-e3-e5, M@a1-b1 or pass.
func (p Position) FormatMove(m rules.Move) string {
	g := p.geo()
	var b strings.Builder
	switch m.Kind {
	case Pass:
		return "pass"
	case Enter:
		b.WriteString(rules.SizeLetter(int(m.Size)))
		b.WriteByte('@')
	case Step:
	default:
		return fmt.Sprintf("?%d", m.Kind)
	}
	for i, c := range m.Squares() {
		if i > 0 {
			b.WriteByte('-')
		}
		if c >= maxCells {
			b.WriteString("??")
			continue
		}
		b.WriteString(g.names[c])
	}
	return b.String()
}

// ParseMove reads a move token in any case (d2-d3, c3-e3-e5, M@a1-b1,
// pass) and returns it if it is legal here; otherwise the error says which
// rule forbids it.
func (p Position) ParseMove(tok string) (rules.Move, error) {
	if p.toMove == 0 {
		return rules.Move{}, &rules.MoveError{Token: tok, Reason: "the game is over", Kind: rules.ErrGameOver}
	}
	g := p.geo()
	var m rules.Move
	switch {
	case tok == "":
		return rules.Move{}, rules.Syntax(tok, "no move given: write the cells visited joined by '-', like d2-d3, an entry like M@a1-b1, or pass")
	case strings.EqualFold(tok, "pass"):
		m.Kind = Pass
		if why := p.check(m); why != "" {
			return rules.Move{}, rules.Illegal(tok, "%s", why)
		}
		return m, nil
	case len(tok) >= 2 && tok[1] == '@':
		size, ok := rules.ParseSize(tok[0])
		if !ok {
			return rules.Move{}, rules.Syntax(tok, "an entry starts with the size S, M or L, like M@%s-...", g.names[g.start(int(p.seats), int(p.toMove))])
		}
		m.Kind, m.Size = Enter, uint8(size)
		tok2 := tok[2:]
		if tok2 == "" {
			return rules.Move{}, rules.Syntax(tok, "an entry names the start space and the cells the piece moves to, like M@a1-b1")
		}
		if err := p.parsePath(tok, tok2, &m); err != nil {
			return rules.Move{}, err
		}
	default:
		m.Kind = Step
		if err := p.parsePath(tok, tok, &m); err != nil {
			return rules.Move{}, err
		}
	}
	if p.legal(&m) {
		return m, nil
	}
	why := p.check(m)
	if why == "" { // cannot happen: legal and check agree (TestLegalAgreesWithCheck)
		why = "the move is not legal here"
	}
	if !p.canMove(p.toMove) {
		why = "you have no legal turn and must pass (" + why + ")"
	}
	return rules.Move{}, rules.Illegal(tok, "%s", why)
}

// parsePath reads the cells of path, joined by '-', into m. It works on
// the token in place: reading a move allocates nothing.
func (p *Position) parsePath(tok, path string, m *rules.Move) error {
	g := p.geo()
	if strings.Count(path, "-") >= rules.MaxPath {
		return rules.Syntax(tok, "a move visits at most %d cells", rules.MaxPath)
	}
	for {
		part, rest, more := strings.Cut(path, "-")
		c, ok := g.cell(part)
		if !ok {
			if part == "" {
				return rules.Syntax(tok, "cells are joined by single '-', like c3-e3-e5")
			}
			return rules.Syntax(tok, "%q is not a cell of the %s board (rows a to %c, numbered from 1 at the left); a move is cells joined by '-', like c3-e3-e5", part, g.name, 'a'+g.rows-1)
		}
		m.Add(c)
		if !more {
			break
		}
		path = rest
	}
	if m.N < 2 {
		if m.Kind == Enter {
			return nil // check explains
		}
		return rules.Syntax(tok, "a move names the cell it starts from and the cells it goes to, joined by '-', like d2-d3")
	}
	return nil
}

// topSize returns the size of the top piece on c, 0 when c is empty.
func (p *Position) topSize(c uint8) uint8 {
	if t := p.top[c]; t != 0 {
		return pieceSize(t - 1)
	}
	return 0
}

// legal reports whether m, a board move or an entry as parsePath builds
// it (cells on the board, Path zero past N), is legal for the seat to
// move. It is check's walk without the words: ParseMove's fast path,
// which looks at the cells the move touches and nothing else; check
// explains a refusal.
func (p *Position) legal(m *rules.Move) bool {
	seat := p.toMove
	if seat == 0 || m.N < 2 || m.Arg != 0 {
		return false
	}
	g := p.geo()
	own := g.start(int(p.seats), int(seat))
	c0 := m.Path[0]
	var size, under uint8 // the mover's size; what c0 shows with it lifted
	switch m.Kind {
	case Enter:
		if m.Size < 1 || m.Size > 3 || c0 != own || p.supply[seat-1][m.Size-1] == 0 {
			return false
		}
		size, under = m.Size, p.topSize(c0)
	case Step:
		t := p.top[c0]
		if m.Size != 0 || t == 0 || pieceSeat(t-1) != seat {
			return false
		}
		size = pieceSize(t - 1)
		if b := p.below[t-1]; b != 0 {
			under = pieceSize(b - 1)
		}
	default:
		return false
	}
	ts := func(c uint8) uint8 {
		if c == c0 {
			return under
		}
		return p.topSize(c)
	}
	visited := uint64(1) << c0
	last := int(m.N) - 1
	for i := 1; i <= last; i++ {
		a, b := m.Path[i-1], m.Path[i]
		if visited&(1<<b) != 0 {
			return false
		}
		visited |= 1 << b
		r := g.rel[a][b]
		tb := ts(b)
		switch r >> 3 {
		case 1:
			if i != last || tb == 0 && i > 1 || tb != 0 && tb < size {
				return false
			}
		case 2:
			over := ts(g.nb[a][r&7])
			if over == 0 || over > size || tb != 0 && (tb < size || i != last) {
				return false
			}
		default:
			return false
		}
	}
	return m.Path[last] != own
}
