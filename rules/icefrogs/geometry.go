package icefrogs

// The two boards are data: a list of rows, each with its number of cells
// and the doubled x coordinate of its first cell. Cells in a row are two
// x units apart and neighbouring rows are offset by one, so the six
// neighbours of (x, row) are (x±2, row) and (x±1, row±1), and a hop goes
// twice as far in one of those directions. Everything else (cell names,
// neighbours, hop lines, the drawing) is computed from this table.

// maxCells is the number of cells on either board.
const maxCells = 37

// none marks a missing neighbour.
const none = 0xff

type layoutRow struct{ n, x0 int8 }

// layout is one board as data.
type layout struct {
	name string
	rows []layoutRow
	// starts[seats-2][seat-1] names the start spaces.
	starts [2][3]string
}

var layouts = [2]layout{
	{
		// The six-pointed star: cube coordinates with max(x,y,z) <= 2 or
		// min(x,y,z) >= -2, rows a..i of 1, 2, 7, 6, 5, 6, 7, 2, 1 cells.
		name: "star",
		rows: []layoutRow{{1, 0}, {2, -1}, {7, -6}, {6, -5}, {5, -4}, {6, -5}, {7, -6}, {2, -1}, {1, 0}},
		starts: [2][3]string{
			{"a1", "i1"},
			{"a1", "g1", "g7"},
		},
	},
	{
		// The hexagon of side 4: rows a..g of 4, 5, 6, 7, 6, 5, 4 cells.
		name: "hex",
		rows: []layoutRow{{4, -3}, {5, -4}, {6, -5}, {7, -6}, {6, -5}, {5, -4}, {4, -3}},
		starts: [2][3]string{
			{"a1", "g4"},
			{"a1", "g1", "d7"},
		},
	},
}

// Directions, counter-clockwise from east, as (dx, drow) in doubled
// coordinates.
var dirs = [6][2]int8{{2, 0}, {1, 1}, {-1, 1}, {-2, 0}, {-1, -1}, {1, -1}}

// geometry is a board built from its layout.
type geometry struct {
	name       string
	rows       int
	rowFirst   [10]uint8 // index of each row's first cell; rowFirst[rows] = cells
	xmin, xmax int8
	x, row     [maxCells]int8
	names      [maxCells]string
	nb         [maxCells][6]uint8 // neighbour in each direction, or none
	// rel[a][b] is dir(a, b) as a table: the direction in the low three
	// bits and the distance (1 or 2) above them, 0 when neither, so that
	// checking a move's path looks each leg up once.
	rel    [maxCells][maxCells]uint8
	starts [2][3]uint8
	// away[seats-2][seat-1][c] is how many steps cell c is from the
	// nearest start space of seat's opponents, the board taken as empty.
	away [2][3][maxCells]uint8
	// goals[seats-2][seat-1] is the start spaces of seat's opponents (bit
	// c for cell c): a move of seat's that ends on one wins.
	goals [2][3]uint64
}

var geos = [2]*geometry{build(&layouts[0]), build(&layouts[1])}

func build(l *layout) *geometry {
	g := &geometry{name: l.name, rows: len(l.rows)}
	c := 0
	for r, lr := range l.rows {
		g.rowFirst[r] = uint8(c)
		for i := range lr.n {
			g.x[c] = lr.x0 + 2*i
			g.row[c] = int8(r)
			g.names[c] = string([]byte{byte('a' + r), byte('1' + i)})
			g.xmin = min(g.xmin, g.x[c])
			g.xmax = max(g.xmax, g.x[c])
			c++
		}
	}
	if c != maxCells {
		panic("icefrogs: a board must have 37 cells")
	}
	g.rowFirst[g.rows] = uint8(c)
	for c := range maxCells {
		for d, dv := range dirs {
			g.nb[c][d] = g.at(g.x[c]+dv[0], g.row[c]+dv[1])
		}
	}
	for a := range maxCells {
		for d := range 6 {
			n := g.nb[a][d]
			if n == none {
				continue
			}
			g.rel[a][n] = uint8(d) | 1<<3
			if h := g.nb[n][d]; h != none {
				g.rel[a][h] = uint8(d) | 2<<3
			}
		}
	}
	for s := range 2 {
		for i, name := range l.starts[s] {
			if name == "" {
				continue
			}
			c, ok := g.cell(name)
			if !ok {
				panic("icefrogs: bad start space " + name)
			}
			g.starts[s][i] = c
		}
	}
	for s := range 2 {
		for seat := range s + 2 {
			var from []uint8
			for o := range s + 2 {
				if o != seat {
					from = append(from, g.starts[s][o])
					g.goals[s][seat] |= 1 << g.starts[s][o]
				}
			}
			g.away[s][seat] = g.steps(from)
			for _, d := range g.away[s][seat] {
				if 15*(int(d)+1) > 0xff {
					panic("icefrogs: a seat's distance behind would not fit Position.behind")
				}
			}
		}
	}
	return g
}

// steps returns each cell's distance in steps from the nearest of from.
func (g *geometry) steps(from []uint8) [maxCells]uint8 {
	var d [maxCells]uint8
	for c := range d {
		d[c] = none
	}
	queue := make([]uint8, 0, maxCells)
	for _, c := range from {
		d[c] = 0
		queue = append(queue, c)
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, n := range g.nb[c] {
			if n != none && d[n] == none {
				d[n] = d[c] + 1
				queue = append(queue, n)
			}
		}
	}
	return d
}

// at returns the cell at (x, row), or none.
func (g *geometry) at(x, row int8) uint8 {
	if row < 0 || int(row) >= g.rows {
		return none
	}
	for c := g.rowFirst[row]; c < g.rowFirst[row+1]; c++ {
		if g.x[c] == x {
			return c
		}
	}
	return none
}

// cell reads a cell name in any case.
func (g *geometry) cell(s string) (uint8, bool) {
	if len(s) < 2 || len(s) > 3 {
		return 0, false
	}
	r := int(s[0]|0x20) - 'a'
	if r < 0 || r >= g.rows {
		return 0, false
	}
	n := 0
	for _, ch := range []byte(s[1:]) {
		if ch < '0' || ch > '9' {
			return 0, false
		}
		n = n*10 + int(ch-'0')
	}
	if s[1] == '0' || n < 1 || n > int(g.rowFirst[r+1]-g.rowFirst[r]) {
		return 0, false
	}
	return g.rowFirst[r] + uint8(n-1), true
}

// start returns seat's start space in a game of seats players.
func (g *geometry) start(seats, seat int) uint8 { return g.starts[seats-2][seat-1] }

// dir returns the direction from a to b and whether b is a neighbour (1)
// or a hop away along a line (2); 0 when neither.
func (g *geometry) dir(a, b uint8) (d, dist int) {
	r := g.rel[a][b]
	return int(r & 7), int(r >> 3)
}
