package render

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"icepost/rules"
	"icepost/rules/pikemen"
)

// BetterMove draws its move in green over the board, from either side:
// an arrow along its path, a ring round a one-cell move; without it the
// same cells are plain, and cells off the board are ignored.
func TestBetterMoveArrow(t *testing.T) {
	start, err := pikemen.StartPosition(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, viewer := range []int{1, 2} {
		d := start.Diagram(viewer)
		idx := func(name string) int {
			for i, c := range d.Cells {
				if c.Name == name {
					return i
				}
			}
			t.Fatalf("no cell %s", name)
			return -1
		}
		sc := layout(&d, options{scale: 1})
		at := func(name string, dx float64) image.Point {
			p := sc.board.centre(idx(name))
			return image.Point{int(p.X + dx), int(p.Y)}
		}
		draw := func(opts ...Option) image.Image {
			var b bytes.Buffer
			if err := PNG(&b, d, opts...); err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(&b)
			if err != nil {
				t.Fatal(err)
			}
			return img
		}
		plain := draw()
		arrow := draw(BetterMove(rules.LastMove{Path: []int{idx("d3"), idx("d5"), -4, 999}}))
		ring := draw(BetterMove(rules.LastMove{Path: []int{idx("e4")}}))
		u := sc.board.unit
		for _, c := range []struct {
			what string
			img  image.Image
			cell string
			at   image.Point
			want bool // green
		}{
			{"the arrow's shaft on d4", arrow, "d4", at("d4", 0), true},
			{"d4 without the arrow", plain, "d4", at("d4", 0), false},
			{"beside the shaft on d4", arrow, "d4", at("d4", 0.3*u), false},
			{"the ring round e4", ring, "e4", at("e4", 0.40*u), true},
			{"the middle of the ring on e4", ring, "e4", at("e4", 0), false},
			{"e4 without the ring", plain, "e4", at("e4", 0.40*u), false},
		} {
			got := c.img.At(c.at.X, c.at.Y)
			cell := d.Cells[idx(c.cell)]
			bg := lightCell
			if (cell.X+cell.Y)%2 == 0 {
				bg = darkCell
			}
			green := mix(bg, betterColour, float64(betterColour.A)/255)
			if near(got, green, 6) != c.want {
				t.Errorf("viewer %d: %s at %v is %v; green %v: want %v", viewer, c.what, c.at, got, green, c.want)
			}
		}
	}
}
