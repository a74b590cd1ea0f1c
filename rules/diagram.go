package rules

// Diagram describes one position as data for a picture: the board's cells
// and where they lie, what stands on each, the supplies and reserves off
// the board, the scores, whose turn it is and the last move. A game fills
// it in (Drawable); one renderer (package render) draws every game from
// it, so that the games hold no drawing code.
type Diagram struct {
	Game string // the game's name, "Pikemen"
	// Grid is the shape of the cells: Square cells at (X, Y) with X the
	// file and Y the rank; Hex cells in rows, where X counts half cells
	// (neighbours in a row are 2 apart, neighbouring rows offset by 1)
	// and Y is the row from the bottom.
	Grid Grid
	// Cells are the board's cells in a fixed order per board; LastMove
	// names cells by their index here. A game without a board has none.
	Cells []Cell
	// Columns and Rows label the board's edges: the file letters under
	// and over the columns, the rank numbers or row letters beside the
	// rows. A hex board labels its rows only; its empty cells show their
	// names (NameCells).
	Columns, Rows []Label
	NameCells     bool
	// Pointing is true for a game whose pieces lie down pointing a way
	// as well as stand upright (Pikemen): words about a piece then say
	// which.
	Pointing bool
	// Turned is true when the board is seen from the other side (the
	// viewer's rule is the text board's): everything is drawn turned by
	// 180 degrees, directions included.
	Turned bool
	// Seats describes each seat, index 0 for seat 1.
	Seats []SeatInfo
	// Supplies are the pieces off the board that can still come onto it:
	// each seat's supply, a shared stash (Owner 0), a reserve of kings.
	Supplies []Supply
	// ToMove is the seat to move, 0 when the game is over; Over and
	// Winner (0 for a draw) tell the end.
	ToMove int
	Over   bool
	Winner int
	// Notes are short lines about the position a player needs beside the
	// board: "Round 1 of 2: placing", "12 points win", "Total 7 of 10".
	Notes []string
	// Last is the move that led to this position, when known (the caller
	// sets it from LastMove of the position before).
	Last *LastMove
}

// Grid is the shape of a board's cells.
type Grid uint8

// Grids.
const (
	Square Grid = iota
	Hex
)

// Cell is one cell of a board.
type Cell struct {
	Name string // "c3"
	X, Y int    // where it lies (see Diagram.Grid)
	// Start is the seat whose start space this is, 0 for none.
	Start int
	// Pieces stand on the cell, bottom first; the last is the top.
	Pieces []Piece
}

// Piece is one pyramid on a cell.
type Piece struct {
	Owner int // seat 1..4, or 0 for a neutral piece
	Size  int // Small, Medium or Large
	// Points is where a lying piece points, Upright for a standing one.
	Points Direction
}

// Direction is where a lying pyramid points, in the board's own compass
// (North toward the top row as seat 1 sees the board, East toward the
// right), or Upright.
type Direction uint8

// Directions, clockwise from North.
const (
	Upright Direction = iota
	North
	NorthEast
	East
	SouthEast
	South
	SouthWest
	West
	NorthWest
)

// Label is one coordinate on a board's edge: At is the X of a column or
// the Y of a row.
type Label struct {
	At   int
	Text string
}

// SeatInfo is what a picture says of one seat besides its pieces.
type SeatInfo struct {
	// Side names the seat's place at the table where the game has one
	// ("South"), else "".
	Side string
	// Score is the seat's points, when HasScore.
	Score    int
	HasScore bool
	// Out is true for a seat that has no pieces left and is skipped.
	Out bool
}

// Supply is a group of pieces off the board: Count[size-1] pieces of
// each size.
type Supply struct {
	Owner int    // the seat, 0 for a stash no one owns
	Label string // "supply", "to place", "kings in reserve"
	Count [3]int
}

// LastMove is a move drawn on the position after it.
type LastMove struct {
	Seat  int    // who played it
	Token string // its canonical token
	// Path lists the cells the move went through, as indices into
	// Diagram.Cells: the start, then every landing cell. A placement or
	// a piece turned where it stands names one cell; a pass none.
	Path []int
	// Captured lists the cells whose pieces the move captured (the top
	// piece of a stack, or the whole piece), in the order taken; a cell
	// twice when a move took two pieces from it.
	Captured []int
	// Taken is the piece each capture took, as it stood before the move:
	// Taken[i] was the top of cell Captured[i], so that a picture can say
	// whose piece of what size went ("took Bob's medium on c1") after the
	// board no longer shows it.
	Taken []Piece
	// Placed is true when the first cell of Path is where a piece came
	// onto the board (a placement, an entry), not where one stood.
	Placed bool
}

// Drawable is a State that describes itself for a picture. Every game of
// rules/games implements it; the conformance suite checks it.
type Drawable interface {
	// Diagram describes the position as seen from viewer's side, by the
	// same rule as Board (0 for the game's usual view). Last is nil.
	Diagram(viewer int) Diagram
	// LastMove describes m, a legal move in this position, for the
	// diagram of the position after it.
	LastMove(m Move) LastMove
}

// DiagramOf returns the diagram of s from viewer's side, with the move m
// that led to it from prev when prev is not nil. ok is false when the
// game does not describe its positions.
func DiagramOf(s State, viewer int, prev State, m Move) (d Diagram, ok bool) {
	ds, ok := s.(Drawable)
	if !ok {
		return Diagram{}, false
	}
	d = ds.Diagram(viewer)
	if prev != nil {
		if dp, ok := prev.(Drawable); ok {
			l := dp.LastMove(m)
			d.Last = &l
		}
	}
	return d, true
}
