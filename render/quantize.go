package render

import (
	"cmp"
	"image"
	"image/color"
	"slices"
	"sync"
)

const bins = 1 << 15

// tables are quantize's counts by colour bin, used again from a pool.
type tables struct {
	count [bins]uint32
	sum   [bins][3]uint32
	lut   [bins]uint8
}

var tablesPool = sync.Pool{New: func() any { return new(tables) }}

// quantize turns an opaque picture into one of at most 256 colours, which
// PNG stores in a byte a pixel: a third of the bytes to compress, so a
// mail's picture is smaller and made faster. The pictures are flat
// colours and their anti-aliased edges, so the most frequent colours
// (counted in bins of 5 bits a channel) make the palette, and every
// other colour takes the nearest.
func quantize(img *image.RGBA) *image.Paletted {
	t := tablesPool.Get().(*tables)
	defer tablesPool.Put(t)
	*t = tables{}
	count, sum, lut := &t.count, &t.sum, &t.lut
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	key := func(px []uint8) int { return int(px[0]>>3)<<10 | int(px[1]>>3)<<5 | int(px[2]>>3) }
	// Flat areas make long runs of one colour: count a run at once.
	add := func(px []uint8, n uint32) {
		k := key(px)
		count[k] += n
		s := &sum[k]
		s[0] += uint32(px[0]) * n
		s[1] += uint32(px[1]) * n
		s[2] += uint32(px[2]) * n
	}
	for y := range h {
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		start := 0
		for x := 4; x < len(row); x += 4 {
			if row[x] != row[start] || row[x+1] != row[start+1] || row[x+2] != row[start+2] {
				add(row[start:], uint32(x-start)/4)
				start = x
			}
		}
		add(row[start:], uint32(len(row)-start)/4)
	}
	var used []int
	for k, n := range count {
		if n > 0 {
			used = append(used, k)
		}
	}
	slices.SortFunc(used, func(a, b int) int { return cmp.Compare(count[b], count[a]) })
	n := min(len(used), 256)
	pal := make(color.Palette, n)
	rgb := make([][3]int32, n)
	for i, k := range used[:n] {
		c := count[k]
		rgb[i] = [3]int32{int32(sum[k][0] / c), int32(sum[k][1] / c), int32(sum[k][2] / c)}
		pal[i] = color.RGBA{uint8(rgb[i][0]), uint8(rgb[i][1]), uint8(rgb[i][2]), 0xff}
		lut[k] = uint8(i)
	}
	for _, k := range used[n:] {
		c := count[k]
		r, g, bl := int32(sum[k][0]/c), int32(sum[k][1]/c), int32(sum[k][2]/c)
		best, bestD := 0, int32(1<<30)
		for i, p := range rgb {
			dr, dg, db := r-p[0], g-p[1], bl-p[2]
			if d := 2*dr*dr + 4*dg*dg + 3*db*db; d < bestD {
				best, bestD = i, d
			}
		}
		lut[k] = uint8(best)
	}
	out := image.NewPaletted(image.Rect(0, 0, w, h), pal)
	for y := range h {
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		dst := out.Pix[y*out.Stride : y*out.Stride+w]
		prev, idx := -1, uint8(0)
		for x := range dst {
			px := row[4*x : 4*x+3 : 4*x+3]
			if k := key(px); k != prev {
				prev, idx = k, lut[k]
			}
			dst[x] = idx
		}
	}
	return out
}
