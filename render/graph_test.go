package render_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"icepost/render"
)

// sampleGraph is a game of 40 moves: seat 1 drifts ahead, the move at
// ply 22 (seat 2's with two seats) is a blunder that hands seat 1 the
// lead, seat 1's move at 31 a mistake and its move at 35 an inaccuracy.
func sampleGraph(seats int) render.EvalGraph {
	g := render.EvalGraph{Seats: seats, Names: []string{"Alice", "Bob", "Carol", "Dave"}[:seats]}
	for ply := 1; ply <= 40; ply++ {
		seat := (ply-1)%seats + 1
		v1 := 0.5 + 0.005*float64(ply) // seat 1's estimate
		switch {
		case ply >= 35:
			v1 = 0.55
		case ply >= 31:
			v1 = 0.6
		case ply >= 22:
			v1 = 0.85
		}
		v := v1
		if seat != 1 {
			v = (1 - v1) / float64(seats-1)
		}
		mark := map[int]int{22: 3, 31: 2, 35: 1}[ply]
		g.Points = append(g.Points, render.EvalPoint{Ply: ply, Seat: seat, Value: v, Mark: mark})
	}
	return g
}

// TestWriteGraphSamples writes the sample graphs into ICEPOST_PICTURES.
func TestWriteGraphSamples(t *testing.T) {
	dir := os.Getenv("ICEPOST_PICTURES")
	if dir == "" {
		t.Skip("set ICEPOST_PICTURES to a folder to write the sample graphs there")
	}
	for _, seats := range []int{2, 3, 4} {
		g := sampleGraph(seats)
		g.Current = 22
		g.Title = "Computer analysis, level 3"
		g.Link = func(ply int) string { return "?ply=" + strconv.Itoa(ply) }
		var p, v bytes.Buffer
		if err := g.PNG(&p); err != nil {
			t.Fatal(err)
		}
		if err := g.SVG(&v); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("graph-%d.png", seats)), p.Bytes(), 0o644)
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("graph-%d.svg", seats)), v.Bytes(), 0o644)
		t.Logf("%d seats: png %d bytes, svg %d bytes", seats, p.Len(), v.Len())
	}
}

// svgNode is an element of the graph's SVG, for the structural tests.
type svgNode struct {
	XMLName xml.Name
	Attrs   []xml.Attr `xml:",any,attr"`
	Nodes   []svgNode  `xml:",any"`
	Text    string     `xml:",chardata"`
}

func (n *svgNode) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// all returns the elements named name under n, in document order.
func (n *svgNode) all(name string) []*svgNode {
	var out []*svgNode
	for i := range n.Nodes {
		c := &n.Nodes[i]
		if c.XMLName.Local == name {
			out = append(out, c)
		}
		out = append(out, c.all(name)...)
	}
	return out
}

func graphSVG(t *testing.T, g render.EvalGraph) *svgNode {
	t.Helper()
	var b bytes.Buffer
	if err := g.SVG(&b); err != nil {
		t.Fatal(err)
	}
	var root svgNode
	if err := xml.Unmarshal(b.Bytes(), &root); err != nil {
		t.Fatalf("the graph is not well-formed XML: %v\n%s", err, b.String())
	}
	return &root
}

// pathPoints reads the points of an SVG path written by the graph (M x y
// x y ... [Z]).
func pathPoints(t *testing.T, d string) [][2]float64 {
	t.Helper()
	f := strings.Fields(strings.NewReplacer("M", "", "Z", "").Replace(d))
	if len(f)%2 != 0 {
		t.Fatalf("path %q has an odd number of coordinates", d)
	}
	var out [][2]float64
	for i := 0; i < len(f); i += 2 {
		x, err1 := strconv.ParseFloat(f[i], 64)
		y, err2 := strconv.ParseFloat(f[i+1], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("path %q: %v %v", d, err1, err2)
		}
		out = append(out, [2]float64{x, y})
	}
	return out
}

func centre(ps [][2]float64) (x, y float64) {
	for _, p := range ps {
		x += p[0]
		y += p[1]
	}
	return x / float64(len(ps)), y / float64(len(ps))
}

// The SVG: a title and a description, one link per move to Link(ply)
// named in words, the current move marked for screen readers, the marks
// in their columns at their values, each mark with its own shape.
func TestEvalGraphSVG(t *testing.T) {
	g := sampleGraph(2)
	g.Current = 22
	g.Link = func(ply int) string { return "/game/7?ply=" + strconv.Itoa(ply) + "&side=2" }
	root := graphSVG(t, g)
	if root.XMLName.Local != "svg" || root.attr("viewBox") != "0 0 480 164" {
		t.Fatalf("root %v viewBox %q", root.XMLName, root.attr("viewBox"))
	}
	if ts := root.all("title"); len(ts) != 1 || ts[0].Text != "Evaluation" {
		t.Errorf("title %+v", ts)
	}
	desc := root.all("desc")
	if len(desc) != 1 || !strings.Contains(desc[0].Text, "Alice's estimated result") ||
		!strings.Contains(desc[0].Text, "1 blunder, 1 mistake, 1 inaccuracy") || !strings.Contains(desc[0].Text, "40 moves") {
		t.Errorf("desc %+v", desc)
	}
	links := root.all("a")
	if len(links) != 40 {
		t.Fatalf("%d links, want one per move (40)", len(links))
	}
	// The plot: x 20 to 472, y 9 to 137.
	colW := 452.0 / 40
	for i, a := range links {
		ply := i + 1
		if h, want := a.attr("href"), "/game/7?ply="+strconv.Itoa(ply)+"&side=2"; h != want {
			t.Errorf("link %d goes to %q, want %q", ply, h, want)
		}
		cur := a.attr("aria-current")
		if (ply == 22) != (cur == "step") {
			t.Errorf("link %d: aria-current %q", ply, cur)
		}
		r := a.all("rect")
		if len(r) != 1 {
			t.Fatalf("link %d has %d rects", ply, len(r))
		}
		x, _ := strconv.ParseFloat(r[0].attr("x"), 64)
		w, _ := strconv.ParseFloat(r[0].attr("width"), 64)
		if math.Abs(x-(20+float64(i)*colW)) > 0.01 || math.Abs(w-colW) > 0.01 {
			t.Errorf("link %d's column at %g, %g wide; want %g, %g", ply, x, w, 20+float64(i)*colW, colW)
		}
	}
	for ply, want := range map[int]string{
		22: "move 11, Bob, blunder, 0.15",
		31: "move 16, Alice, mistake, 0.60",
		35: "move 18, Alice, inaccuracy, 0.55",
		2:  "move 1, Bob, 0.49",
	} {
		if got := links[ply-1].attr("aria-label"); got != want {
			t.Errorf("link %d named %q, want %q", ply, got, want)
		}
	}
	// Marks: each in its move's column, at seat 1's estimate (y = 9 +
	// (1 - v) * 128), with a shape of its own.
	shapes := map[string]string{}
	for _, p := range root.all("path") {
		cls := p.attr("class")
		if !strings.HasPrefix(cls, "eval-mark ") {
			continue
		}
		name := strings.TrimPrefix(cls, "eval-mark eval-")
		ply := map[string]int{"blunder": 22, "mistake": 31, "inaccuracy": 35}[name]
		if ply == 0 {
			t.Errorf("mark of class %q", cls)
			continue
		}
		v1 := g.Points[ply-1].Value
		if g.Points[ply-1].Seat == 2 {
			v1 = 1 - v1
		}
		pts := pathPoints(t, p.attr("d"))
		x, y := centre(pts)
		if wx, wy := 20+(float64(ply)-0.5)*colW, 9+(1-v1)*128; math.Abs(x-wx) > 0.05 || math.Abs(y-wy) > 0.05 {
			t.Errorf("%s at (%g, %g), want (%g, %g)", name, x, y, wx, wy)
		}
		// A shape is its number of corners and whether its first is
		// straight above the centre (a diamond's, not a square's).
		shapes[name] = fmt.Sprintf("%d corners, first above: %v", len(pts), math.Abs(pts[0][0]-x) < 0.01)
	}
	if len(shapes) != 3 || shapes["inaccuracy"] == shapes["mistake"] || shapes["mistake"] == shapes["blunder"] || shapes["inaccuracy"] == shapes["blunder"] {
		t.Errorf("the marks' shapes (points by mark) %v: want three marks of three shapes", shapes)
	}
	if c := root.all("circle"); len(c) != 1 || c[0].attr("class") != "eval-current" {
		t.Errorf("the current move's ring: %+v", c)
	}
}

// With three or four seats each seat has its own line, through its own
// moves, in its colour; with two, one line of seat 1's estimate.
func TestEvalGraphLines(t *testing.T) {
	for _, seats := range []int{2, 3, 4} {
		t.Run(strconv.Itoa(seats), func(t *testing.T) {
			g := sampleGraph(seats)
			root := graphSVG(t, g)
			var lines []*svgNode
			for _, p := range root.all("path") {
				if p.attr("fill") == "none" && p.attr("stroke-dasharray") == "" && len(pathPoints(t, p.attr("d"))) > 2 {
					lines = append(lines, p)
				}
			}
			want := seats
			if seats == 2 {
				want = 1
			}
			if len(lines) != want {
				t.Fatalf("%d lines, want %d", len(lines), want)
			}
			if seats == 2 {
				if n := len(pathPoints(t, lines[0].attr("d"))); n != 40 {
					t.Errorf("the line has %d points, want 40", n)
				}
				return
			}
			// Each seat's line, its area and its marks are a group of
			// its own, for a page to show one seat's; the areas are
			// hidden unless a page shows them.
			var groups []*svgNode
			for _, e := range root.all("g") {
				if strings.HasPrefix(e.attr("class"), "eval-seat ") {
					groups = append(groups, e)
				}
			}
			if len(groups) != seats {
				t.Fatalf("%d groups of a seat, want %d", len(groups), seats)
			}
			markPly := map[string]int{"eval-mark eval-blunder": 22, "eval-mark eval-mistake": 31, "eval-mark eval-inaccuracy": 35}
			for s, e := range groups {
				if want := fmt.Sprintf("eval-seat eval-seat-%d", s+1); e.attr("class") != want {
					t.Errorf("group %d of class %q, want %q", s+1, e.attr("class"), want)
				}
				areas, inGroup := 0, 0
				for _, p := range e.all("path") {
					switch cls := p.attr("class"); {
					case cls == "eval-area":
						areas++
						if p.attr("display") != "none" {
							t.Errorf("seat %d's area is shown without a style sheet", s+1)
						}
					case markPly[cls] > 0:
						if seat := (markPly[cls]-1)%seats + 1; seat != s+1 {
							t.Errorf("the mark at ply %d (seat %d's) is in seat %d's group", markPly[cls], seat, s+1)
						}
					case p == lines[s] || p.attr("d") == lines[s].attr("d"):
						inGroup++
					}
				}
				if areas == 0 || inGroup != 1 {
					t.Errorf("seat %d's group has %d areas and %d of its line", s+1, areas, inGroup)
				}
			}
			for s, l := range lines {
				c := render.SeatColour(s + 1)
				if got, want := l.attr("stroke"), fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B); got != want {
					t.Errorf("line %d is %s, want seat %d's %s", s+1, got, s+1, want)
				}
				if n, want := len(pathPoints(t, l.attr("d"))), (40-s+seats-1)/seats; n != want {
					t.Errorf("seat %d's line has %d points, want %d", s+1, n, want)
				}
			}
		})
	}
}

// A graph without links has none; one without moves is an empty plot.
func TestEvalGraphPlain(t *testing.T) {
	g := sampleGraph(2)
	if a := graphSVG(t, g).all("a"); len(a) != 0 {
		t.Errorf("%d links without Link", len(a))
	}
	g.Points = nil
	g.Link = func(int) string { return "x" }
	root := graphSVG(t, g)
	if a := root.all("a"); len(a) != 0 {
		t.Errorf("%d links without moves", len(a))
	}
	var p bytes.Buffer
	if err := g.PNG(&p); err != nil {
		t.Errorf("PNG of an empty graph: %v", err)
	}
}

// Bad data is refused with what to change, and nothing is written.
func TestEvalGraphRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		g    render.EvalGraph
		want string
	}{
		"one seat":   {render.EvalGraph{Seats: 1}, "give Seats, 2 to 4"},
		"five seats": {render.EvalGraph{Seats: 5}, "give Seats, 2 to 4"},
		"seat 0":     {render.EvalGraph{Seats: 2, Points: []render.EvalPoint{{Ply: 1, Seat: 0}}}, "seat from 1 to 2"},
		"seat 3":     {render.EvalGraph{Seats: 2, Points: []render.EvalPoint{{Ply: 1, Seat: 3}}}, "seat from 1 to 2"},
		"mark 4":     {render.EvalGraph{Seats: 2, Points: []render.EvalPoint{{Ply: 1, Seat: 1, Mark: 4}}}, "marks are 0 to 3"},
		"mark -1":    {render.EvalGraph{Seats: 2, Points: []render.EvalPoint{{Ply: 1, Seat: 1, Mark: -1}}}, "marks are 0 to 3"},
		"NaN":        {render.EvalGraph{Seats: 2, Points: []render.EvalPoint{{Ply: 1, Seat: 1, Value: math.NaN()}}}, "no value"},
	} {
		t.Run(name, func(t *testing.T) {
			for format, write := range map[string]func(io.Writer) error{"SVG": c.g.SVG, "PNG": c.g.PNG} {
				var b bytes.Buffer
				err := write(&b)
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%s: %v, want an error saying %q", format, err, c.want)
				}
				if b.Len() != 0 {
					t.Errorf("%s wrote %d bytes", format, b.Len())
				}
			}
		})
	}
	// Values out of range are drawn at the edge, not refused.
	g := render.EvalGraph{Seats: 2, Points: []render.EvalPoint{{Ply: 1, Seat: 1, Value: 1.5}, {Ply: 2, Seat: 2, Value: -3}}}
	if err := g.SVG(io.Discard); err != nil {
		t.Error(err)
	}
}

// The PNG decodes, is as wide as a board picture and shows the areas,
// the marks and the current move where the data puts them: with three
// and four seats, each mark in its seat's plot.
func TestEvalGraphPNG(t *testing.T) {
	for _, c := range []struct{ seats, minH, maxH, probes int }{{2, 300, 420, 20}, {3, 450, 650, 6}, {4, 600, 800, 7}} {
		t.Run(strconv.Itoa(c.seats), func(t *testing.T) {
			g := sampleGraph(c.seats)
			g.Current = 22
			var b bytes.Buffer
			if err := g.PNG(&b); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(&b)
			if err != nil {
				t.Fatal(err)
			}
			if w := img.Bounds().Dx(); w != 560 {
				t.Errorf("width %d, want 560", w)
			}
			if h := img.Bounds().Dy(); h < c.minH || h > c.maxH {
				t.Errorf("height %d, want %d to %d", h, c.minH, c.maxH)
			}
			probes := render.GraphProbes(g)
			if len(probes) < c.probes {
				t.Fatalf("%d probes", len(probes))
			}
			for _, c := range probes {
				got := color.NRGBAModel.Convert(img.At(int(c.X), int(c.Y))).(color.NRGBA)
				if dist(got, c.Want) > 40 {
					t.Errorf("%s at (%d, %d) is %v, want about %v", c.What, int(c.X), int(c.Y), got, c.Want)
				}
			}
		})
	}
}

// The axes: 1, ½ and 0 up the side and the move numbers along the
// bottom as the record numbers the moves (40 plies are 20 moves of two
// seats, 14 of three, 10 of four), in the SVG and in the PNG (each plot
// its 1, ½ and 0, the numbers under the last), as many as fit.
func TestEvalGraphAxes(t *testing.T) {
	side := []string{"1", "½", "0"}
	for seats, five := range map[int][]string{
		2: {"5", "10", "15", "20"},
		3: {"2", "4", "6", "8", "10", "12", "14"},
		4: {"2", "4", "6", "8", "10"},
	} {
		t.Run(strconv.Itoa(seats), func(t *testing.T) {
			svg, png := render.GraphLabels(sampleGraph(seats))
			if want := append(side[:3:3], five...); !slices.Equal(svg, want) {
				t.Errorf("the SVG's axes say %q, want %q", svg, want)
			}
			var want []string
			for range seats - 1 {
				want = append(want, side...)
			}
			if seats == 2 {
				want = nil
			}
			want = append(append(want, side...), five...)
			if !slices.Equal(png, want) {
				t.Errorf("the PNG's axes say %q, want %q", png, want)
			}
			// The SVG's words are hidden from screen readers, which read
			// the title, the description and each move's link.
			root := graphSVG(t, sampleGraph(seats))
			var texts int
			for _, g := range root.all("g") {
				if g.attr("class") == "eval-axes" {
					texts += len(g.all("text"))
					if g.attr("aria-hidden") != "true" {
						t.Error("the axes are not hidden from screen readers")
					}
				}
			}
			// Move 10 is numbered at its first ply's column.
			ply := 9*seats + 1
			for _, e := range root.all("text") {
				if e.Text != "10" {
					continue
				}
				x, _ := strconv.ParseFloat(e.attr("x"), 64)
				if want := 20 + (float64(ply)-0.5)*452/40; math.Abs(x-want) > 0.01 {
					t.Errorf("move 10 numbered at x %g, want %g (ply %d)", x, want, ply)
				}
			}
			if texts != len(svg) || len(root.all("text")) != texts {
				t.Errorf("%d words in the axes' group, %d in all, want %d", texts, len(root.all("text")), len(svg))
			}
		})
	}
	for _, c := range []struct{ n, most, want int }{
		{0, 9, 1}, {7, 9, 1}, {12, 9, 2}, {40, 9, 5}, {60, 9, 10}, {100, 9, 20}, {100, 4, 25}, {250, 9, 50}, {1000, 5, 200}, {30, 0, 20},
	} {
		if got := render.TickStep(c.n, c.most); got != c.want {
			t.Errorf("tickStep(%d, %d) = %d, want %d", c.n, c.most, got, c.want)
		}
	}
}

func dist(a, b color.NRGBA) int {
	d := func(x, y uint8) int {
		if x > y {
			return int(x - y)
		}
		return int(y - x)
	}
	return d(a.R, b.R) + d(a.G, b.G) + d(a.B, b.B)
}

// BenchmarkEvalGraph draws the graph of a 100-ply game with links, as
// the game page does, and as the PNG a mail carries. Report the figures
// (docs/pictures.md); nothing asserts a time.
func BenchmarkEvalGraph(b *testing.B) {
	g := render.EvalGraph{Seats: 2, Names: []string{"Alice", "Bob"}, Current: 50,
		Link: func(ply int) string { return "/game/1?ply=" + strconv.Itoa(ply) }}
	for ply := 1; ply <= 100; ply++ {
		v := 0.5 + 0.4*math.Sin(float64(ply)/9)
		g.Points = append(g.Points, render.EvalPoint{Ply: ply, Seat: 2 - ply%2, Value: v, Mark: ply % 13 % 4})
	}
	b.Run("svg", func(b *testing.B) {
		for b.Loop() {
			if err := g.SVG(io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("png", func(b *testing.B) {
		for b.Loop() {
			if err := g.PNG(io.Discard); err != nil {
				b.Fatal(err)
			}
		}
	})
}
