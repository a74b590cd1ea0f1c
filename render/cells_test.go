package render_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"

	"icepost/render"
	"icepost/rules"
)

// svgHandles reads an SVG: its root's role, the handles (data-cell) with
// the centres of their shapes, and the picture's size.
func svgHandles(t *testing.T, svg []byte) (role string, names []string, centres [][2]float64, w, h float64) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(svg))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("the SVG is not well formed: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		attr := map[string]string{}
		for _, a := range se.Attr {
			attr[a.Name.Local] = a.Value
		}
		switch {
		case se.Name.Local == "svg":
			role = attr["role"]
			w, _ = strconv.ParseFloat(attr["width"], 64)
			h, _ = strconv.ParseFloat(attr["height"], 64)
		case attr["data-cell"] != "":
			names = append(names, attr["data-cell"])
			var sx, sy float64
			var n int
			for _, p := range strings.Split(strings.Trim(attr["d"], "MZ"), " M") {
				f := strings.Fields(p)
				for i := 0; i+1 < len(f); i += 2 {
					x, _ := strconv.ParseFloat(f[i], 64)
					y, _ := strconv.ParseFloat(f[i+1], 64)
					sx, sy, n = sx+x, sy+y, n+1
				}
			}
			if n != 4 && n != 6 {
				t.Fatalf("the handle of %s has %d corners: %q", attr["data-cell"], n, attr["d"])
			}
			centres = append(centres, [2]float64{sx / float64(n), sy / float64(n)})
		}
	}
}

// With Cells, an SVG has one handle on each cell of the board, named as
// the cell, where the cell is drawn (a1 at the bottom left, or at the
// top right when the board is seen from the far side); without it, none,
// and the picture is an image.
func TestCellHandles(t *testing.T) {
	for _, name := range []string{"icesickle", "pikemen", "pikemen-seat2", "icelady", "icelady-seat2", "icefrogs", "icefrogs-hex", "icefrogs-hex-seat2"} {
		t.Run(name, func(t *testing.T) {
			d := sampleNamed(t, name).diagram(t)
			var plain, with bytes.Buffer
			if err := render.SVG(&plain, d); err != nil {
				t.Fatal(err)
			}
			if err := render.SVG(&with, d, render.Cells()); err != nil {
				t.Fatal(err)
			}
			if role, names, _, _, _ := svgHandles(t, plain.Bytes()); role != "img" || len(names) > 0 {
				t.Errorf("without Cells: role %q, %d handles", role, len(names))
			}
			role, names, centres, w, h := svgHandles(t, with.Bytes())
			if role != "group" || len(names) != len(d.Cells) {
				t.Fatalf("with Cells: role %q, %d handles for %d cells", role, len(names), len(d.Cells))
			}
			seen := map[[2]float64]string{}
			var first, last [2]float64
			for i, c := range d.Cells {
				if names[i] != c.Name {
					t.Fatalf("handle %d is %q, cell %d is %q", i, names[i], i, c.Name)
				}
				p := centres[i]
				if p[0] <= 0 || p[0] >= w || p[1] <= 0 || p[1] >= h {
					t.Errorf("%s's handle is off the picture at %v", c.Name, p)
				}
				if other, ok := seen[p]; ok {
					t.Errorf("%s's handle lies on %s's", c.Name, other)
				}
				seen[p] = c.Name
				switch i {
				case corner(d, 1):
					first = p
				case corner(d, -1):
					last = p
				}
			}
			// The cell lowest and leftmost lies below and left of the
			// one highest and rightmost (or level with it, on a star), and
			// above and right of it seen from the far side.
			below, right := first[1] > last[1], first[0] > last[0]
			if below == d.Turned || right != d.Turned && first[0] != last[0] {
				t.Errorf("the lowest cell's handle is at %v, the highest's at %v (turned: %v)", first, last, d.Turned)
			}
		})
	}
}

// corner is the index of the cell in the lowest row, leftmost in it
// (sign 1), or in the highest row, rightmost in it (sign -1).
func corner(d rules.Diagram, sign int) int {
	k := 0
	for i, c := range d.Cells {
		if b := d.Cells[k]; sign*c.Y < sign*b.Y || c.Y == b.Y && sign*c.X < sign*b.X {
			k = i
		}
	}
	return k
}

// DescribeCell says what stands on one cell, top first.
func TestDescribeCell(t *testing.T) {
	names := render.Names("Alice", "Bob")
	for _, tc := range []struct{ sample, cell, want string }{
		{"icefrogs", "c5", "c5, Bob's medium on Alice's large"},
		{"icelady-toptaken", "d4", "d4, Bob's large"},
		{"pikemen-upright", "c3", "c3, Alice's large upright"},
		{"icelady", "zz", ""},
	} {
		d := sampleNamed(t, tc.sample).diagram(t)
		if got := render.DescribeCell(d, tc.cell, names); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.sample, tc.cell, got, tc.want)
		}
	}
}
