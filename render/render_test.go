package render_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"icepost/render"
)

// TestWriteSamples writes every sample as PNG and SVG into the folder
// named by ICEPOST_PICTURES, to look at them.
func TestWriteSamples(t *testing.T) {
	dir := os.Getenv("ICEPOST_PICTURES")
	if dir == "" {
		t.Skip("set ICEPOST_PICTURES to a folder to write the sample pictures there")
	}
	for _, s := range samples {
		d := s.diagram(t)
		var p, v bytes.Buffer
		if err := render.PNG(&p, d, render.Names("Alice", "Bob", "Carol", "Dave")); err != nil {
			t.Fatal(err)
		}
		if err := render.SVG(&v, d, render.Names("Alice", "Bob", "Carol", "Dave")); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, s.name+".png"), p.Bytes(), 0o644)
		t.Logf("%s: png %d bytes, svg %d bytes", s.name, p.Len(), v.Len())
		p.Reset()
		render.PNG(&p, d, render.Names("Alice", "Bob", "Carol", "Dave"), render.Scale(2))
		os.WriteFile(filepath.Join(dir, s.name+"@2x.png"), p.Bytes(), 0o644)
		os.WriteFile(filepath.Join(dir, s.name+".svg"), v.Bytes(), 0o644)
	}
}
