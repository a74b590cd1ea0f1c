package rules

// CellMove is a legal move as a board shows it: its token and the cells
// it goes through, by name, read from the game's diagram (Drawable), so
// that a mail can list the moves by the piece that makes them and a page
// can draw them, without reading any game's notation.
type CellMove struct {
	Move  Move
	Token string // its canonical token
	// Path names the cells the move goes through (LastMove.Path): the
	// start, then every landing cell; one cell for a placement or a piece
	// turned where it stands, none for a pass.
	Path []string
	// Placed is true when the first cell of Path is where a piece comes
	// onto the board (LastMove.Placed).
	Placed bool
}

// From is the cell the move starts from, "" for none.
func (m CellMove) From() string {
	if len(m.Path) == 0 {
		return ""
	}
	return m.Path[0]
}

// To is the cell the move ends on, "" for none.
func (m CellMove) To() string {
	if len(m.Path) == 0 {
		return ""
	}
	return m.Path[len(m.Path)-1]
}

// CellMoves lists the legal moves of s, in the game's order, with the
// cells each goes through. A game that does not describe its positions
// gives its moves with no cells, and ok false.
func CellMoves(s State) (moves []CellMove, ok bool) {
	legal := s.Moves(nil)
	moves = make([]CellMove, len(legal))
	d, ok := s.(Drawable)
	var cells []Cell
	if ok {
		cells = d.Diagram(0).Cells
	}
	for i, m := range legal {
		moves[i] = CellMove{Move: m, Token: s.FormatMove(m)}
		if !ok {
			continue
		}
		lm := d.LastMove(m)
		moves[i].Placed = lm.Placed
		for _, c := range lm.Path {
			if c < 0 || c >= len(cells) {
				moves[i].Path = nil // a path off the diagram: draw none
				break
			}
			moves[i].Path = append(moves[i].Path, cells[c].Name)
		}
	}
	return moves, ok
}
