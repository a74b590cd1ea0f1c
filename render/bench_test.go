package render_test

import (
	"io"
	"testing"

	"icepost/render"
)

// The midgame boards of each game, drawn as SVG and as PNG. Report the
// figures (docs/bench.md); nothing asserts a time.
var benchSamples = []string{"icesickle", "pikemen", "icelady", "icefrogs"}

func BenchmarkSVG(b *testing.B) {
	for _, name := range benchSamples {
		d := sampleNamed(b, name).diagram(b)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := render.SVG(io.Discard, d, render.Names("Alice", "Bob")); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkPNG(b *testing.B) {
	for _, name := range benchSamples {
		d := sampleNamed(b, name).diagram(b)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if err := render.PNG(io.Discard, d, render.Names("Alice", "Bob")); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func sampleNamed(tb testing.TB, name string) sample {
	for _, s := range samples {
		if s.name == name {
			return s
		}
	}
	tb.Fatalf("no sample %s", name)
	return sample{}
}
