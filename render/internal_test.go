package render

import (
	"bytes"
	"image/png"
	"testing"

	"icepost/rules"
	"icepost/rules/pikemen"
)

func BenchmarkPhases(b *testing.B) {
	s, _ := pikemen.StartPosition(rulesOptions())
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
	pimg := quantize(img)
	b.Run("quantize", func(b *testing.B) {
		for b.Loop() {
			quantize(img)
		}
	})
	for _, lvl := range []png.CompressionLevel{png.DefaultCompression, png.BestSpeed, png.BestCompression} {
		b.Run("encode", func(b *testing.B) {
			var buf bytes.Buffer
			for b.Loop() {
				buf.Reset()
				(&png.Encoder{CompressionLevel: lvl}).Encode(&buf, pimg)
			}
			b.ReportMetric(float64(buf.Len()), "bytes")
		})
	}
}

func rulesOptions() rules.Options { return rules.Options{} }
