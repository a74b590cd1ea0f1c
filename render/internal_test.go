package render

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"icepost/rules"
	"icepost/rules/icefrogs"
	"icepost/rules/pikemen"
)

// near reports whether two colours differ by at most tol in each channel.
func near(a color.Color, b color.NRGBA, tol int) bool {
	r, g, bl, _ := a.RGBA()
	d := func(x uint32, y uint8) bool { v := int(x>>8) - int(y); return v >= -tol && v <= tol }
	return d(r, b.R) && d(g, b.G) && d(bl, b.B)
}

// drawPNG draws d as a PNG, decodes it, and returns it with the scene.
func drawPNG(t *testing.T, d rules.Diagram) (image.Image, *scene) {
	t.Helper()
	var b bytes.Buffer
	if err := PNG(&b, d); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	return img, layout(&d, options{scale: 1})
}

// The PNG has the scene's size, and at known cells the colours of what
// stands there: a seat's piece, an empty square, from either side.
func TestPNGColoursAtCells(t *testing.T) {
	start, err := pikemen.StartPosition(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, viewer := range []int{1, 2} {
		d := start.Diagram(viewer)
		img, sc := drawPNG(t, d)
		if got := img.Bounds().Size(); got != (image.Point{int(sc.W), int(sc.H)}) || got.X < 440 || got.X > 600 {
			t.Fatalf("viewer %d: size %v, the scene %vx%v", viewer, got, sc.W, sc.H)
		}
		cell := func(name string) image.Point {
			for i, c := range d.Cells {
				if c.Name == name {
					p := sc.board.centre(i)
					return image.Point{int(p.X), int(p.Y)}
				}
			}
			t.Fatalf("no cell %s", name)
			return image.Point{}
		}
		// The top face of seat 1's large on h1, of seat 2's on a8: the
		// seat colour lit (mixed with white).
		h := sc.board.half(rules.Large)
		for _, c := range []struct {
			cell string
			seat int
		}{{"h1", 1}, {"a8", 2}, {"c8", 2}, {"f1", 1}} {
			p := cell(c.cell).Add(image.Point{0, -int(h * 0.6)})
			if want := mix(SeatColour(c.seat), white, 0.38); !near(img.At(p.X, p.Y), want, 6) {
				t.Errorf("viewer %d: %s at %v is %v, want seat %d's %v", viewer, c.cell, p, img.At(p.X, p.Y), c.seat, want)
			}
		}
		// Empty squares: light and dark.
		for _, c := range []struct {
			cell string
			want color.NRGBA
		}{{"d4", darkCell}, {"e4", lightCell}, {"a1", darkCell}} {
			p := cell(c.cell)
			if !near(img.At(p.X, p.Y), c.want, 4) {
				t.Errorf("viewer %d: empty %s at %v is %v, want %v", viewer, c.cell, p, img.At(p.X, p.Y), c.want)
			}
		}
		// Turned for seat 2: h1 is at the top left.
		if h1 := cell("h1"); (viewer == 2) != (h1.X < int(sc.W)/2 && h1.Y < int(sc.H)/2) {
			t.Errorf("viewer %d: h1 at %v", viewer, h1)
		}
	}
}

// IceFrogs' start spaces show their seat's colour; a hexagon's centre is
// where the diagram says.
func TestPNGHexStarts(t *testing.T) {
	p, err := icefrogs.Start(rules.Options{Seats: 3})
	if err != nil {
		t.Fatal(err)
	}
	d := p.Diagram(0)
	img, sc := drawPNG(t, d)
	for i, c := range d.Cells {
		if c.Start == 0 {
			continue
		}
		at := sc.board.centre(i)
		// Off the centre, where the cell's name is not written.
		x, y := int(at.X)-18, int(at.Y)-6
		if want := mix(SeatColour(c.Start), white, 0.72); !near(img.At(x, y), want, 6) {
			t.Errorf("start %s of seat %d at (%d, %d) is %v, want %v", c.Name, c.Start, x, y, img.At(x, y), want)
		}
	}
}

func TestScaleIsChecked(t *testing.T) {
	d := pikemen.Position{}.Diagram(0)
	var b bytes.Buffer
	if err := PNG(&b, d, Scale(0)); err == nil {
		t.Error("a scale of 0 drew a picture")
	}
	if err := PNG(&b, d, Scale(2)); err != nil {
		t.Error(err)
	}
}

func BenchmarkPhases(b *testing.B) {
	s, _ := pikemen.StartPosition(rules.Options{})
	d := s.Diagram(0)
	sc := layout(&d, options{scale: 1})
	b.Run("layout", func(b *testing.B) {
		for b.Loop() {
			layout(&d, options{scale: 1})
		}
	})
	b.Run("rasterize", func(b *testing.B) {
		for b.Loop() {
			rasterize(sc, 1)
		}
	})
	img := rasterize(sc, 1)
	b.Run("quantize", func(b *testing.B) {
		for b.Loop() {
			quantize(img)
		}
	})
	pimg := quantize(img)
	b.Run("encode", func(b *testing.B) {
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			(&png.Encoder{CompressionLevel: png.DefaultCompression}).Encode(&buf, pimg)
		}
		b.ReportMetric(float64(buf.Len()), "bytes")
	})
}

// A capture that ends on the captured square keeps the capturer whole:
// its faces show its colour where a cross once lay, and the piece it
// took is in a badge beside it, in its owner's colour.
func TestCaptureKeepsCapturer(t *testing.T) {
	prev, err := pikemen.Game.ParsePosition("Pikemen 2 12 7S2U/8/8/8/8/2M2U5/8/2L1N5 0:0 1")
	if err != nil {
		t.Fatal(err)
	}
	next, m, err := rules.Play(prev, "c1xc3:U")
	if err != nil {
		t.Fatal(err)
	}
	d, _ := rules.DiagramOf(next, 0, prev, m)
	if l := d.Last; len(l.Taken) != 1 || l.Taken[0] != (rules.Piece{Owner: 2, Size: rules.Medium, Points: rules.Upright}) {
		t.Fatalf("the capture took %+v", l.Taken)
	}
	img, sc := drawPNG(t, d)
	c3 := sc.board.centre(2*8 + 2)
	h := sc.board.half(rules.Large)
	blue := SeatColour(1)
	for _, f := range []struct {
		at   pt
		want color.NRGBA
	}{
		{pt{-0.2 * h, -0.6 * h}, mix(blue, white, 0.38)}, // top face
		{pt{-0.6 * h, 0.2 * h}, mix(blue, white, 0.16)},  // left face, on the old cross
		{pt{0.6 * h, 0.3 * h}, mix(blue, black, 0.12)},   // right face
	} {
		p := c3.add(f.at)
		if got := img.At(int(p.X), int(p.Y)); !near(got, f.want, 6) {
			t.Errorf("the capturer's face at %v is %v, want %v", p, got, f.want)
		}
	}
	// The badge: somewhere in the cell, seat 2's medium (its lit face).
	found := false
	u := sc.board.unit
	for y := int(c3.Y - u/2); y < int(c3.Y+u/2) && !found; y++ {
		for x := int(c3.X - u/2); x < int(c3.X+u/2); x++ {
			if near(img.At(x, y), mix(SeatColour(2), white, 0.38), 6) {
				found = true
				break
			}
		}
	}
	if !found {
		t.Error("no sign of the piece taken on c3")
	}
}
