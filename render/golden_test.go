package render_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"icepost/render"
)

var update = flag.Bool("update", false, "rewrite the golden SVG files in testdata")

// Every sample draws as its golden SVG (go test -update rewrites them;
// look at them before committing).
func TestGoldenSVG(t *testing.T) {
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := render.SVG(&b, s.diagram(t), render.Names("Alice", "Bob", "Carol", "Dave")); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join("testdata", s.name+".svg")
			if *update {
				if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run go test -update to write it)", err)
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Errorf("%s differs from what is drawn now; if the change is meant, run go test ./render -update and look at the files", file)
			}
		})
	}
}
