package render

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"
)

// EvalGraph is the graph of a game's analysis: the engine's estimate
// after each move, from 0 to 1, its marked moves and the move shown. It
// is plain data (render knows nothing of the analysis): the caller fills
// it from analysis.Report.
//
// With two seats it is one line, seat 1's estimate (1 − the value at
// seat 2's moves), filled toward the middle line in the colour of the seat
// ahead, as chess players know it from Lichess: above the middle, seat 1
// leads. With three or four seats it is one line per seat through its
// own moves, in its colour, over the line of an even share (1/seats):
// the SVG lets a page show one seat's line at a time, the PNG draws one
// plot a seat. Both write 1, ½ and 0 up the side and the move numbers
// along the bottom as a record numbers its moves (one number a turn of
// every seat: in a game of two, ply 37 is move 19).
type EvalGraph struct {
	Seats  int         // 2 to 4
	Names  []string    // the players, seat 1 first; "Seat 2" where missing
	Points []EvalPoint // one a move, in the order played
	// Current is the ply shown (a vertical line and a ring), 0 for none.
	Current int
	// Link gives the address of the page at a ply; with it, each move of
	// the SVG is a link (its column of the graph), named in words for
	// screen readers ("move 12, Alice, mistake, 0.41"). Nil: no links.
	Link func(ply int) string
	// Title heads the PNG ("Computer analysis, level 3"); the SVG, which
	// stands in a page that says it, uses it as its title. Default
	// "Evaluation".
	Title string
}

// EvalPoint is one move of the graph.
type EvalPoint struct {
	Ply  int // 1 for the first move
	Seat int // who played it, from 1
	// Value is the mover's estimate after the move, 0 to 1 (values
	// outside are drawn at the edge).
	Value float64
	// Mark is what the analysis said of the move: 0 none, 1 inaccuracy,
	// 2 mistake, 3 blunder.
	Mark int
}

// The marks' names and symbols, by EvalPoint.Mark.
var (
	markNames   = [4]string{"", "inaccuracy", "mistake", "blunder"}
	markSymbols = [4]string{"", "?!", "?", "??"}
)

// Colours of the marks (yellow, orange, red, as Lichess's); each mark
// also has its own shape and size (inaccuracy a small circle, mistake a
// diamond, blunder a larger square), so that they are told apart without
// colour.
var (
	markFill = [4]color.NRGBA{
		{},
		rgb(0xf0, 0xe4, 0x42), // yellow
		rgb(0xe6, 0x9f, 0x00), // orange
		rgb(0xb8, 0x1d, 0x13), // red
	}
	graphBack  = rgb(0xfa, 0xf6, 0xee)
	graphRule  = rgb(0xb9, 0xad, 0x98)
	graphGrid  = rgb(0xe4, 0xdc, 0xcd) // the lines at 0, ½ and 1
	graphLine  = rgb(0x33, 0x33, 0x33)
	currentInk = rgb(0x1c, 0x1c, 0x1c)
)

// check says what is wrong with g, or nil.
func (g *EvalGraph) check() error {
	if g.Seats < 2 || g.Seats > 4 {
		return fmt.Errorf("render: an evaluation graph of %d seats: give Seats, 2 to 4", g.Seats)
	}
	for i, p := range g.Points {
		if p.Seat < 1 || p.Seat > g.Seats {
			return fmt.Errorf("render: the graph's move %d (ply %d) is by seat %d: give each point a seat from 1 to %d", i+1, p.Ply, p.Seat, g.Seats)
		}
		if p.Mark < 0 || p.Mark > 3 {
			return fmt.Errorf("render: the graph's move %d (ply %d) has mark %d: marks are 0 to 3", i+1, p.Ply, p.Mark)
		}
		if math.IsNaN(p.Value) {
			return fmt.Errorf("render: the graph's move %d (ply %d) has no value (NaN)", i+1, p.Ply)
		}
	}
	return nil
}

func (g *EvalGraph) name(seat int) string {
	if seat >= 1 && seat <= len(g.Names) && g.Names[seat-1] != "" {
		return g.Names[seat-1]
	}
	return "Seat " + strconv.Itoa(seat)
}

func (g *EvalGraph) title() string {
	if g.Title != "" {
		return g.Title
	}
	return "Evaluation"
}

// number is the move's number as a record writes it (docs/notation.md,
// "Movetext"): one number for a turn of every seat, so that in a game of
// two ply 37 is move 19, as the move list shows it ("19. f2:U").
func (g *EvalGraph) number(ply int) int { return (max(ply, 1)-1)/g.Seats + 1 }

// Label names a move of the graph in words, as its link's accessible
// name: "move 12, Alice, mistake, 0.41" (the move's number as the record
// writes it, and the mover's estimate after it).
func (g EvalGraph) Label(p EvalPoint) string {
	s := "move " + strconv.Itoa(g.number(p.Ply)) + ", " + g.name(p.Seat)
	if p.Mark > 0 && p.Mark < len(markNames) {
		s += ", " + markNames[p.Mark]
	}
	return s + ", " + strconv.FormatFloat(clamp01(p.Value), 'f', 2, 64)
}

// describe is the graph in words, the SVG's desc and the PNG's
// fallback: whose estimate, how many moves, how many of each mark.
func (g *EvalGraph) describe() string {
	var b strings.Builder
	if g.Seats == 2 {
		fmt.Fprintf(&b, "%s's estimated result (0 to 1; above the middle line %s leads, below %s) after each of %d moves",
			g.name(1), g.name(1), g.name(2), len(g.Points))
	} else {
		fmt.Fprintf(&b, "Each player's estimated share of the result (0 to 1; the dashed line is an even share) after each of %d moves:", len(g.Points))
		for s := 1; s <= g.Seats; s++ {
			if s > 1 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, " %s %s", g.name(s), ColourName(s))
		}
	}
	var n [4]int
	for _, p := range g.Points {
		if p.Mark > 0 && p.Mark < 4 {
			n[p.Mark]++
		}
	}
	plurals := [4]string{"", "inaccuracies", "mistakes", "blunders"}
	var marks []string
	for m := 3; m >= 1; m-- {
		if n[m] > 0 {
			w := markNames[m]
			if n[m] > 1 {
				w = plurals[m]
			}
			marks = append(marks, fmt.Sprintf("%d %s", n[m], w))
		}
	}
	if len(marks) > 0 {
		b.WriteString("; marked: " + strings.Join(marks, ", "))
	}
	b.WriteByte('.')
	return b.String()
}

func clamp01(v float64) float64 { return min(max(v, 0), 1) }

// plot is where the graph is drawn: its box and the size of its marks.
type plot struct {
	x, y, w, h float64
	k          float64 // marks and lines are k times their SVG size
	under      float64 // from the plot's bottom to the move numbers' middle
}

// col is the width of one move's column.
func (p plot) col(n int) float64 { return p.w / float64(max(n, 1)) }

// at is the point of move i (of n) at value v (seat 1's, or the mover's).
func (p plot) at(i, n int, v float64) pt {
	return pt{p.x + (float64(i)+0.5)*p.col(n), p.y + (1-clamp01(v))*p.h}
}

// graphShapes is what the graph draws, for both formats.
type graphShapes struct {
	p       plot
	grid    []graphPath // the lines at 0, ½ and 1 and the ticks, faint
	rules   []graphPath // the middle line (or even share), under the lines
	seats   []seatShapes
	current *graphPath // the vertical line at the current ply
	ring    *pt        // the current move's point
	cols    []graphCol
	labels  []axisLabel // 1, ½, 0 up the side; move numbers along the bottom
}

// seatShapes is one line of the graph with its area and its marks: with
// two seats the one line (seat 0), with more each seat's.
type seatShapes struct {
	seat  int
	areas []graphArea
	line  *graphPath
	marks []graphMark
}

// axisLabel is a word of an axis: its point (the middle of its line of
// text, at its anchor) and how it is anchored.
type axisLabel struct {
	at     pt
	text   string
	anchor uint8
}

type graphArea struct {
	poly []pt
	fill color.NRGBA
}

type graphPath struct {
	pts    []pt
	ink    color.NRGBA
	width  float64
	dashed bool
}

type graphMark struct {
	c    pt
	mark int
}

// graphCol is one move's column: the link's target area.
type graphCol struct {
	x0, x1 float64
	point  EvalPoint
}

// value is the graph's value at a point: seat 1's with two seats, the
// mover's with more.
func (g *EvalGraph) value(p EvalPoint) float64 {
	v := clamp01(p.Value)
	if g.Seats == 2 && p.Seat == 2 {
		return 1 - v
	}
	return v
}

// tickStep is the gap between the numbered moves along the bottom: the
// smallest of 1, 2, 5, 10, 20, 25, 50, 100, ... that numbers at most
// most moves of n.
func tickStep(n, most int) int {
	most = max(most, 1)
	for k := 1; ; k *= 10 {
		steps := []int{k, 2 * k, 5 * k}
		if k >= 10 {
			steps = []int{k, 2 * k, 25 * k / 10, 5 * k}
		}
		for _, s := range steps {
			if n/s <= most {
				return s
			}
		}
	}
}

// shapes lays the graph out in the box p: with two seats its one line,
// with more every seat's (only 0) or one seat's (only s, a panel of the
// PNG). fs is the size of the axes' words, 0 for none.
func (g *EvalGraph) shapes(p plot, only int, fs float64) *graphShapes {
	gs := &graphShapes{p: p}
	n := len(g.Points)
	even := 1 / float64(g.Seats)
	ey := p.y + (1-even)*p.h
	yOf := func(v float64) float64 { return p.y + (1-v)*p.h }
	for _, v := range []float64{0, 0.5, 1} {
		if v == 0.5 && g.Seats == 2 {
			continue // the middle line is the rule
		}
		gs.grid = append(gs.grid, graphPath{pts: []pt{{p.x, yOf(v)}, {p.x + p.w, yOf(v)}}, ink: graphGrid, width: p.k})
	}
	gs.rules = append(gs.rules, graphPath{pts: []pt{{p.x, ey}, {p.x + p.w, ey}}, ink: graphRule, width: p.k, dashed: g.Seats > 2})
	if fs > 0 {
		for _, l := range []struct {
			v float64
			s string
		}{{1, "1"}, {0.5, "½"}, {0, "0"}} {
			gs.labels = append(gs.labels, axisLabel{pt{p.x - 0.35*fs, yOf(l.v)}, l.s, anchorEnd})
		}
		// Move numbers as the record writes them (a number a turn of every
		// seat), at the first move of each: as many as fit with room for
		// "100" between them.
		last := 0
		if n > 0 {
			last = g.number(g.Points[n-1].Ply)
		}
		step := tickStep(last, int(p.w/(3.2*fs)))
		for i, q := range g.Points {
			k := g.number(q.Ply)
			if (q.Ply-1)%g.Seats != 0 || k%step != 0 {
				continue
			}
			x := p.at(i, n, 0).X
			gs.grid = append(gs.grid, graphPath{pts: []pt{{x, p.y + p.h}, {x, p.y + p.h + 0.3*fs}}, ink: graphRule, width: p.k})
			s := strconv.Itoa(k)
			hw := room(s, fs, false) / 2
			gs.labels = append(gs.labels, axisLabel{pt{min(max(x, p.x+hw-0.6*fs), p.x+p.w+0.6*fs-hw), p.y + p.h + p.under}, s, anchorMiddle})
		}
	}
	if n > 0 {
		for s := 1; s <= g.Seats; s++ {
			if g.Seats == 2 && s > 1 || only > 0 && g.Seats > 2 && s != only {
				continue
			}
			ss := seatShapes{}
			if g.Seats > 2 {
				ss.seat = s
			}
			var line []pt
			for i, q := range g.Points {
				if g.Seats > 2 && q.Seat != s {
					continue
				}
				c := p.at(i, n, g.value(q))
				line = append(line, c)
				if q.Mark > 0 {
					ss.marks = append(ss.marks, graphMark{c, q.Mark})
				}
			}
			if len(line) == 0 {
				continue
			}
			if g.Seats == 2 {
				ss.areas = halves(line, ey, SeatColour(1), SeatColour(2))
				ss.line = &graphPath{pts: line, ink: graphLine, width: 1.5 * p.k}
			} else {
				ss.areas = halves(line, ey, SeatColour(s), SeatColour(s))
				ss.line = &graphPath{pts: line, ink: SeatColour(s), width: 2 * p.k}
			}
			gs.seats = append(gs.seats, ss)
		}
	}
	cw := p.col(n)
	for i, q := range g.Points {
		c := p.at(i, n, g.value(q))
		if q.Ply == g.Current && g.Current > 0 {
			gs.current = &graphPath{pts: []pt{{c.X, p.y}, {c.X, p.y + p.h}}, ink: currentInk, width: 1.5 * p.k}
			if g.Seats == 2 || only == 0 || q.Seat == only {
				gs.ring = &c
			}
		}
		gs.cols = append(gs.cols, graphCol{p.x + float64(i)*cw, p.x + float64(i+1)*cw, q})
	}
	return gs
}

// halves returns the area between the line and the middle at y = mid:
// above it in colour a, below in b, split where the line crosses.
func halves(line []pt, mid float64, a, b color.NRGBA) []graphArea {
	// The line with its crossings of the middle added.
	var full []pt
	for i, q := range line {
		if i > 0 {
			o := line[i-1]
			if (o.Y-mid)*(q.Y-mid) < 0 {
				t := (mid - o.Y) / (q.Y - o.Y)
				full = append(full, pt{o.X + t*(q.X-o.X), mid})
			}
		}
		full = append(full, q)
	}
	side := func(above bool) []pt {
		poly := []pt{{full[0].X, mid}}
		for _, q := range full {
			y := q.Y
			if above {
				y = min(y, mid)
			} else {
				y = max(y, mid)
			}
			poly = append(poly, pt{q.X, y})
		}
		return append(poly, pt{full[len(full)-1].X, mid})
	}
	return []graphArea{
		{side(true), alpha(a, 0x59)},
		{side(false), alpha(b, 0x59)},
	}
}

// markShape is a mark's outline: inaccuracy a small circle, mistake a
// diamond, blunder a large square, k times their SVG size.
func markShape(c pt, mark int, k float64) []pt {
	switch mark {
	case 1:
		return disc(c, 3.5*k, 16)
	case 2:
		r := 5.5 * k
		return []pt{{c.X, c.Y - r}, {c.X + r, c.Y}, {c.X, c.Y + r}, {c.X - r, c.Y}}
	default:
		return square(c, 5*k)
	}
}
