package render_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"icepost/render"
)

// No words of a picture run over others or off its edges: the legend's
// names wrap rather than reach the scores or the supplies, the status and
// the last move wrap, for every sample, with short names and with long
// ones (a bot's name, a name too long for a line), whoever is to move. An
// SVG is checked with its words as wide as the layout leaves room for (a
// reader's font up to DejaVu Sans's width; the browser test measures
// real fonts), a PNG as the Go fonts set them.
func TestWordsDoNotOverlap(t *testing.T) {
	nameSets := [][]string{
		{"Alice", "Bob", "Carol", "Dave"},
		{"ada", "icepost bot level 2", "icepost bot level 5", "Dee Dee"},
		{"Ada Lovelace, Countess of Lovelace", "Bartholomew Barker-Bartholdy", "Carolina Maria de Jesus", "icepost bot level 3"},
		{"   ", "Bob", "\t", "Dave"}, // names of nothing but spaces
	}
	for _, s := range samples {
		d0 := s.diagram(t)
		for ni, names := range nameSets {
			for mover := 0; mover <= len(d0.Seats); mover++ {
				for _, svg := range []bool{true, false} {
					d := d0
					opts := []render.Option{render.Names(names...)}
					if mover == 0 {
						opts = append(opts, render.Ended(len(d.Seats), "resignation"))
					} else {
						d.ToMove = mover
					}
					t.Run(fmt.Sprintf("%s/names%d/mover%d/svg=%v", s.name, ni, mover, svg), func(t *testing.T) {
						w, h, boxes := render.TextBoxes(d, svg, opts...)
						for i, a := range boxes {
							if a.X0 < 0 || a.X1 > w || a.Y0 < 0 || a.Y1 > h {
								t.Errorf("%q at %.0f–%.0f, %.0f–%.0f is off the picture (%g × %g)", a.Text, a.X0, a.X1, a.Y0, a.Y1, w, h)
							}
							for _, b := range boxes[i+1:] {
								if a.X0 < b.X1-0.5 && b.X0 < a.X1-0.5 && a.Y0 < b.Y1-0.5 && b.Y0 < a.Y1-0.5 {
									t.Errorf("%q (%.0f–%.0f, %.0f–%.0f) overlaps %q (%.0f–%.0f, %.0f–%.0f)",
										a.Text, a.X0, a.X1, a.Y0, a.Y1, b.Text, b.X0, b.X1, b.Y0, b.Y1)
								}
							}
						}
					})
				}
			}
		}
	}
}

// A game that ended off the board (a resignation, a draw agreed) says
// so on its picture and in its words, not whose move it would be; a
// game the rules ended keeps its own ending.
func TestEnded(t *testing.T) {
	d := sampleNamed(t, "pikemen").diagram(t)
	if d.Over {
		t.Fatal("the sample is over")
	}
	names := render.Names("Alice", "Bob")
	for _, tc := range []struct {
		winner int
		how    string
		want   string
	}{
		{2, "resignation", "Game over: Bob wins (resignation)"},
		{0, "agreement", "Game over: a draw (agreement)"},
		{1, "", "Game over: Alice wins"},
		{9, "abandoned", "Game over: a draw (abandoned)"}, // no such seat: no winner
	} {
		t.Run(tc.want, func(t *testing.T) {
			opt := render.Ended(tc.winner, tc.how)
			var svg bytes.Buffer
			if err := render.SVG(&svg, d, names, opt); err != nil {
				t.Fatal(err)
			}
			desc := render.Describe(d, names, opt)
			_, words := render.WordsOffBoard(d, names, opt)
			var png []string
			for _, w := range words {
				png = append(png, w.Text)
			}
			for what, text := range map[string]string{"the SVG": svg.String(), "the words": desc, "the PNG's words": strings.Join(png, "\n")} {
				if !strings.Contains(text, tc.want) || strings.Contains(text, "to move") {
					t.Errorf("%s: no %q, or a player to move:\n%s", what, tc.want, text)
				}
			}
			if tc.winner >= 1 && tc.winner <= 2 && !strings.Contains(svg.String(), ": wins") {
				t.Error("the legend does not mark the winner")
			}
		})
	}
	// Over by the rules: the diagram's own ending stands.
	over := d
	over.Over, over.Winner, over.ToMove = true, 1, 0
	if got := render.Describe(over, names, render.Ended(2, "resignation")); !strings.Contains(got, "Game over: Alice wins.") {
		t.Errorf("a game over by the rules: %q", got)
	}
}
