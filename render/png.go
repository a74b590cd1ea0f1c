package render

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"math"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// writePNG rasterizes the scene, anti-aliased, and writes it as a PNG.
func writePNG(w io.Writer, sc *scene, scale float64) error {
	img := rasterize(sc, scale)
	q := quantize(img)
	pixels.Put(&img.Pix)
	// The default compression, not the fastest: the legend's words, large
	// enough to read on a phone, made the fastest's pictures 30 to 34 KB;
	// the default keeps them under 30 for 3 ms more a picture.
	enc := png.Encoder{CompressionLevel: png.DefaultCompression, BufferPool: encoderBuffers}
	return enc.Encode(w, q)
}

// Pictures are drawn often (a board mail for every seat of every move):
// the pixels and the encoder's buffers are used again rather than
// collected.
var (
	pixels         sync.Pool // *[]uint8
	encoderBuffers = &bufferPool{}
)

type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() *png.EncoderBuffer {
	if e, ok := b.p.Get().(*png.EncoderBuffer); ok {
		return e
	}
	return nil
}

func (b *bufferPool) Put(e *png.EncoderBuffer) { b.p.Put(e) }

// newRGBA returns an image of the size wanted, its pixels from the pool
// when there are enough (their contents are overwritten).
func newRGBA(w, h int) *image.RGBA {
	n := 4 * w * h
	if p, ok := pixels.Get().(*[]uint8); ok && cap(*p) >= n {
		return &image.RGBA{Pix: (*p)[:n], Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	}
	return image.NewRGBA(image.Rect(0, 0, w, h))
}

// rasterize draws the scene scale times as large as its own size.
func rasterize(sc *scene, scale float64) *image.RGBA {
	img := newRGBA(int(math.Ceil(sc.W*scale)), int(math.Ceil(sc.H*scale)))
	// The picture is opaque: white, then everything over it.
	if len(img.Pix) > 0 {
		img.Pix[0] = 0xff
		for n := 1; n < len(img.Pix); n *= 2 {
			copy(img.Pix[n:], img.Pix[:n])
		}
	}
	r := &raster{img: img, faces: faces{}}
	for i := range sc.shapes {
		s := &sc.shapes[i]
		if scale != 1 {
			s = scaled(s, scale)
		}
		switch s.kind {
		case kindPoly:
			if s.fill.A == 0xff && len(s.polys) == 1 && r.rect(s.fill, s.polys[0]) {
				// done: a rectangle on whole pixels
			} else if s.fill.A != 0 {
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
	mask  image.Alpha
	faces faces
}

// rect fills poly in the opaque colour c and returns true when poly is
// a rectangle with its corners on whole pixels (a square board's cells),
// which needs no anti-aliasing.
func (r *raster) rect(c color.NRGBA, poly []pt) bool {
	if len(poly) != 4 {
		return false
	}
	whole := func(v float64) bool { return v == math.Trunc(v) }
	a, b, cc, d := poly[0], poly[1], poly[2], poly[3]
	if !(a.Y == b.Y && b.X == cc.X && cc.Y == d.Y && d.X == a.X) || !whole(a.X) || !whole(a.Y) || !whole(cc.X) || !whole(cc.Y) {
		return false
	}
	box := image.Rect(int(min(a.X, cc.X)), int(min(a.Y, cc.Y)), int(max(a.X, cc.X)), int(max(a.Y, cc.Y))).Intersect(r.img.Bounds())
	if box.Empty() {
		return true
	}
	row := r.img.Pix[r.img.PixOffset(box.Min.X, box.Min.Y):]
	for x := range box.Dx() {
		copy(row[4*x:], []uint8{c.R, c.G, c.B, 0xff})
	}
	for y := 1; y < box.Dy(); y++ {
		copy(r.img.Pix[r.img.PixOffset(box.Min.X, box.Min.Y+y):], row[:4*box.Dx()])
	}
	return true
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
	// The rasterizer writes the coverage into a mask, its fast path; the
	// mask is then blended here, skipping what it does not cover. The
	// picture is opaque, so blending is plain mixing.
	n := box.Dx() * box.Dy()
	if cap(r.mask.Pix) < n {
		r.mask.Pix = make([]uint8, n)
	}
	r.mask.Pix, r.mask.Stride, r.mask.Rect = r.mask.Pix[:n], box.Dx(), image.Rect(0, 0, box.Dx(), box.Dy())
	r.z.DrawOp = draw.Src
	r.z.Draw(&r.mask, r.mask.Rect, image.Opaque, image.Point{})
	ca := uint32(c.A)
	cr, cg, cb := uint32(c.R), uint32(c.G), uint32(c.B)
	for y := range box.Dy() {
		row := r.img.Pix[r.img.PixOffset(box.Min.X, box.Min.Y+y):]
		for x, m := range r.mask.Pix[y*box.Dx() : (y+1)*box.Dx()] {
			if m == 0 {
				continue
			}
			a := uint32(m) * ca / 255
			px := row[4*x : 4*x+3 : 4*x+3]
			if a == 255 {
				px[0], px[1], px[2] = uint8(cr), uint8(cg), uint8(cb)
				continue
			}
			px[0] = uint8((uint32(px[0])*(255-a) + cr*a + 127) / 255)
			px[1] = uint8((uint32(px[1])*(255-a) + cg*a + 127) / 255)
			px[2] = uint8((uint32(px[2])*(255-a) + cb*a + 127) / 255)
		}
	}
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
