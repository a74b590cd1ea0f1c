package render

import (
	"image"
	"image/color"
	"image/png"
	"io"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// writePNG rasterizes the scene, anti-aliased, and writes it as a PNG.
func writePNG(w io.Writer, sc *scene, scale float64) error {
	img := rasterize(sc, scale)
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	return enc.Encode(w, img)
}

// rasterize draws the scene scale times as large as its own size.
func rasterize(sc *scene, scale float64) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, int(math.Ceil(sc.W*scale)), int(math.Ceil(sc.H*scale))))
	r := &raster{img: img, faces: faces{}}
	for i := range sc.shapes {
		s := &sc.shapes[i]
		if scale != 1 {
			s = scaled(s, scale)
		}
		switch s.kind {
		case kindPoly:
			if s.fill.A != 0 {
				r.fill(s.fill, s.polys...)
			}
			if s.stroke.A != 0 {
				var rings [][]pt
				for _, p := range s.polys {
					rings = append(rings, outline(p, s.width)...)
				}
				r.fill(s.stroke, rings...)
			}
		case kindCircle:
			n := max(12, int(s.r*1.5))
			if s.fill.A != 0 {
				r.fill(s.fill, disc(s.c, s.r, n))
			}
			if s.stroke.A != 0 {
				outer := disc(s.c, s.r+s.width/2, n)
				inner := wind(disc(s.c, s.r-s.width/2, n))
				reverse(inner)
				r.fill(s.stroke, outer, inner)
			}
		case kindText:
			r.text(s)
		}
	}
	return img
}

type raster struct {
	img   *image.RGBA
	z     vector.Rasterizer
	faces faces
}

// fill fills the polygons together (non-zero winding) in colour c.
func (r *raster) fill(c color.NRGBA, polys ...[]pt) {
	x0, y0 := math.Inf(1), math.Inf(1)
	x1, y1 := math.Inf(-1), math.Inf(-1)
	for _, p := range polys {
		for _, q := range p {
			x0, y0 = min(x0, q.X), min(y0, q.Y)
			x1, y1 = max(x1, q.X), max(y1, q.Y)
		}
	}
	box := image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1)), int(math.Ceil(y1))).Intersect(r.img.Bounds())
	if box.Empty() {
		return
	}
	ox, oy := float32(box.Min.X), float32(box.Min.Y)
	r.z.Reset(box.Dx(), box.Dy())
	for _, p := range polys {
		if len(p) < 3 {
			continue
		}
		r.z.MoveTo(float32(p[0].X)-ox, float32(p[0].Y)-oy)
		for _, q := range p[1:] {
			r.z.LineTo(float32(q.X)-ox, float32(q.Y)-oy)
		}
		r.z.ClosePath()
	}
	r.z.Draw(r.img, box, image.NewUniform(c), image.Point{})
}

func (r *raster) text(s *shape) {
	d := font.Drawer{Dst: r.img, Src: image.NewUniform(s.fill), Face: r.faces.get(s.size, s.bold)}
	x := s.c.X
	switch s.anchor {
	case anchorMiddle:
		x -= float64(d.MeasureString(s.text)) / 64 / 2
	case anchorEnd:
		x -= float64(d.MeasureString(s.text)) / 64
	}
	d.Dot = fixed.Point26_6{X: fixed.Int26_6(math.Round(x * 64)), Y: fixed.Int26_6(math.Round(s.c.Y * 64))}
	d.DrawString(s.text)
}

func reverse(p []pt) {
	for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
		p[i], p[j] = p[j], p[i]
	}
}

// outline returns the stroke of width w along a closed polygon (wound as
// wind leaves it) as polygons to fill: a ring, outer edge wound like the
// polygon and inner edge against it, with mitred corners; a polygon of
// two points is a line.
func outline(poly []pt, w float64) [][]pt {
	if len(poly) == 2 {
		return [][]pt{segment(poly[0], poly[1], w)}
	}
	n := len(poly)
	outer := make([]pt, n)
	inner := make([]pt, n)
	for i := range poly {
		prev, p, next := poly[(i+n-1)%n], poly[i], poly[(i+1)%n]
		n1 := p.sub(prev).unit().perp().mul(-1) // outward, for clockwise
		n2 := next.sub(p).unit().perp().mul(-1)
		m := n1.add(n2)
		k := w / 2
		if l := m.len(); l > 1e-9 {
			m = m.mul(1 / l)
			cos := m.X*n1.X + m.Y*n1.Y
			k = min(w/2/max(cos, 1e-3), 2*w)
		} else {
			m = n1
		}
		outer[i] = p.add(m.mul(k))
		inner[i] = p.sub(m.mul(k))
	}
	reverse(inner)
	return [][]pt{outer, inner}
}

// scaled returns a copy of s scale times as large.
func scaled(s *shape, k float64) *shape {
	c := *s
	c.polys = make([][]pt, len(s.polys))
	for i, p := range s.polys {
		c.polys[i] = make([]pt, len(p))
		for j, q := range p {
			c.polys[i][j] = q.mul(k)
		}
	}
	c.c = s.c.mul(k)
	c.r *= k
	c.width *= k
	c.size *= k
	return &c
}
