package render

import (
	"cmp"
	"encoding/binary"
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

// tablesPool holds tables whose count and sum are all zero (quantize
// clears the bins it used before it gives them back).
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
	count, sum, lut := &t.count, &t.sum, &t.lut
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	// A pixel is read as one word; rgb masks off its alpha (every pixel
	// is opaque) and key makes its bin.
	const rgb = 0x00ffffff
	key := func(px uint32) int { return int(px>>3&0x1f)<<10 | int(px>>11&0x1f)<<5 | int(px>>19&0x1f) }
	var used []int
	// Flat areas make long runs of one colour: count a run at once.
	add := func(px uint32, n uint32) {
		k := key(px)
		if count[k] == 0 {
			used = append(used, k)
		}
		count[k] += n
		s := &sum[k]
		s[0] += (px & 0xff) * n
		s[1] += (px >> 8 & 0xff) * n
		s[2] += (px >> 16 & 0xff) * n
	}
	for y := range h {
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		run, start := binary.LittleEndian.Uint32(row)&rgb, 0
		for x := 1; x < w; x++ {
			if px := binary.LittleEndian.Uint32(row[4*x:]) & rgb; px != run {
				add(run, uint32(x-start))
				run, start = px, x
			}
		}
		add(run, uint32(w-start))
	}
	// By bin, then most frequent first (the order decides the palette's
	// order, and so the bytes of the picture).
	slices.Sort(used)
	slices.SortFunc(used, func(a, b int) int { return cmp.Compare(count[b], count[a]) })
	n := min(len(used), 256)
	pal := make(color.Palette, n)
	rgbs := make([][3]int32, n)
	for i, k := range used[:n] {
		c := count[k]
		rgbs[i] = [3]int32{int32(sum[k][0] / c), int32(sum[k][1] / c), int32(sum[k][2] / c)}
		pal[i] = color.RGBA{uint8(rgbs[i][0]), uint8(rgbs[i][1]), uint8(rgbs[i][2]), 0xff}
		lut[k] = uint8(i)
	}
	for _, k := range used[n:] {
		c := count[k]
		r, g, bl := int32(sum[k][0]/c), int32(sum[k][1]/c), int32(sum[k][2]/c)
		best, bestD := 0, int32(1<<30)
		for i, p := range rgbs {
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
		prev, idx := uint32(1<<31), uint8(0) // no pixel is 1<<31 once masked
		for x := range dst {
			if px := binary.LittleEndian.Uint32(row[4*x:]) & rgb; px != prev {
				prev, idx = px, lut[key(px)]
			}
			dst[x] = idx
		}
	}
	// Leave the tables clear for the next picture: only the bins used.
	for _, k := range used {
		count[k], sum[k] = 0, [3]uint32{}
	}
	return out
}
