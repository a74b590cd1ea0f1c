package render_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// The words for a picture name the view, the pieces by seat, the stacks,
// the supplies, the last move with what it took, and whose turn it is.
func TestDescribe(t *testing.T) {
	for name, want := range map[string][]string{
		"pikemen-seat2":    {"Pikemen, the board turned round", "Alice (blue, 0 points): ", "f1 large upright, g1 large pointing E", "Bob (orange, 3 points)", "Last move: Bob h8xh5:N, took Alice's small on h5", "Alice to move."},
		"icesickle":        {"Pieces: ", "Shared to place: 0 small", "Last move: Alice a1xe5, took a large on b2 and a medium on d4", "Bob to move."},
		"icefrogs":         {"Stacks, top first: c5 Bob's medium on Alice's large", "Alice's supply: 4 small, 3 medium, 4 large"},
		"icelady-tree":     {"Last move: Alice c3xe5xg7, took Bob's small on d4 and Bob's small on f6. "},
		"pikemen-upright":  {"Last move: Alice c1xc3:U, took Bob's medium on c3. "},
		"icelady-toptaken": {"Bob (orange, North): d4 large", "took Bob's medium on d4. "},
		"icelady":          {"Alice (blue, South)", "Bob's kings in reserve: 0 small, 0 medium, 4 large"},
		"counting":         {"Counting. Alice (blue). Bob (orange). Carol (green). Total 5 of 10. Last move: Alice +1. Bob to move."},
	} {
		d := sampleNamed(t, name).diagram(t)
		got := render.Describe(d, render.Names("Alice", "Bob", "Carol", "Dave"))
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", name, got, w)
			}
		}
	}
}

// Pictures drawn at once on several goroutines (as board mails for
// several seats may be) come out the same as one drawn alone.
func TestConcurrentPNG(t *testing.T) {
	d := sampleNamed(t, "icefrogs").diagram(t)
	var want bytes.Buffer
	if err := render.PNG(&want, d); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			for range 3 {
				var b bytes.Buffer
				if err := render.PNG(&b, d); err != nil || !bytes.Equal(b.Bytes(), want.Bytes()) {
					errs <- fmt.Errorf("a picture drawn concurrently differs (%v)", err)
					return
				}
			}
			errs <- nil
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// A board mail's picture scales to the width of a phone's screen: 390
// CSS pixels, less the mail's margins. Every word off the board (title,
// legend, last move, notes) is still 14 CSS pixels high there.
func TestWordsReadableOnPhones(t *testing.T) {
	const phone = 390 - 2*8
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			w, words := render.WordsOffBoard(s.diagram(t), render.Names("Alice", "Bob", "Carol", "Dave"))
			if len(words) < 3 {
				t.Fatalf("only %d lines of words off the board", len(words))
			}
			for _, x := range words {
				if css := x.Size * phone / w; css < 14 {
					t.Errorf("%q is %.1f CSS px on a phone (%g px on a picture %g wide)", x.Text, css, x.Size, w)
				}
			}
		})
	}
}
