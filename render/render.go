// Package render draws a position of any game as a picture: SVG for the
// web and for files, PNG for mail. It reads only a rules.Diagram, the data
// each game gives of a position, and a few options (the players' names, a
// title), so one renderer draws every game and no game holds drawing code.
//
// The picture shows the board from the viewer's side (Diagram.Turned),
// coordinates on its edges, every pyramid seen from above, a legend of
// the seats with their colours, names, scores and supplies, whose turn it
// is, and the last move.
//
// How pieces look:
//   - An upright pyramid is a square with its four faces meeting at the
//     apex, lit from the top left, with its pips (1 small, 2 medium,
//     3 large) on the face toward the bottom of the picture. A stack
//     standing nested (Ice Lady's king trees) shows each piece inside the
//     one beneath it.
//   - A lying pyramid (Pikemen) is a triangle pointing where it points,
//     its pips along its base.
//   - Sizes differ by size (a large fills most of its cell) and by pips.
//   - Seat colours are the Okabe-Ito palette, told apart with any colour
//     vision: seat 1 blue, seat 2 vermillion, seat 3 bluish green, seat 4
//     reddish purple; neutral pieces (IceSickle) grey.
//   - A stack whose lower pieces are hidden under a piece as large or
//     larger (IceFrogs) shows them as a column of small squares at the
//     cell's right edge, bottom piece lowest.
//
// The last move: the cells it started from and ended on are tinted, an
// arrow runs through every landing cell (a jump, a chain of hops or
// captures) and stops short of the piece it ends at, a placement or a
// piece turned where it stands gets a ring. What a capture took
// (rules.LastMove.Taken) is drawn crossed out: on a cell it left empty,
// the piece itself, faded, under a cross; on a cell where a piece stands
// now (the capturer, or a stack that lost its top), a small crossed-out
// badge of the piece taken in the cell's clearest corner, so that the
// capturer stays whole. The line under the legend says it in words:
// "took Bob's medium on c1".
//
// The words off the board (title, legend, notes) are sized to the
// picture's width, so that they stay at least 14 CSS pixels high on a
// phone, where a board mail's picture scales to the screen.
//
// SVG and PNG are drawn from one layout (layout.go), so they show the
// same picture; the PNG is rasterized with golang.org/x/image/vector and
// its text set in the Go fonts, which the layout measures. An SVG's text
// is set in the reader's fonts, so its layout leaves its words room for
// a wider one (fonts.go), and may wrap a line that the PNG does not.
//
// A game that ended off the board (a resignation, a draw agreed) has a
// position with a player to move; Ended tells the picture how it ended.
//
// For a game's computer analysis, render also draws the graph of the
// engine's estimates from plain points (EvalGraph, graph.go), and
// BetterMove adds the engine's better move to a board as a green arrow.
package render

import (
	"fmt"
	"image/color"
	"io"

	"icepost/rules"
)

// Option changes what a picture shows.
type Option func(*options)

type options struct {
	names  []string
	title  string
	scale  float64
	cells  bool
	better *rules.LastMove // BetterMove's, drawn over the board
	ended  *ending         // Ended's
	// svg is set for an SVG, whose words the reader's font sets: the
	// layout leaves them room (fonts.go).
	svg bool
}

// ending is how a game ended off the board (Ended).
type ending struct {
	winner int
	how    string
}

// Names gives the players' names, seat 1 first; the legend shows them
// beside the seats.
func Names(names ...string) Option {
	return func(o *options) { o.names = names }
}

// Title sets the picture's first line (default: the game's name).
func Title(t string) Option {
	return func(o *options) { o.title = t }
}

// Cells puts on an SVG, over the picture, a handle on each cell of the
// board: a transparent shape the cell's size with data-cell="NAME", for a
// page's script to find a cell by its name, listen on it and mark it
// (class names, roles and labels are the page's). The picture itself is
// then hidden from screen readers, which read its title as the board's
// name (the SVG is role "group" then, not "img", since the handles may
// become buttons). A PNG has no handles.
func Cells() Option {
	return func(o *options) { o.cells = true }
}

// Ended says that the game is over though its position does not say so:
// a player resigned, a draw was agreed, a player lost on time. winner is
// the seat that won, 0 for none (a draw); how says how in a word or two,
// shown after the result ("resignation": "Game over: Bob wins
// (resignation)"), "" for nothing. The picture and its words then say
// how the game ended instead of whose move it would be, and the legend
// marks the winner. The caller knows this (the record's result), not the
// position; a diagram that is over by the rules (rules.Diagram.Over)
// keeps its own ending, and how is not shown.
func Ended(winner int, how string) Option {
	return func(o *options) { o.ended = &ending{winner, how} }
}

// Scale draws a PNG k times its usual size (2 for screens that have two
// pixels to a point); SVG scales by itself.
func Scale(k float64) Option {
	return func(o *options) { o.scale = k }
}

func collect(opts []Option) options {
	o := options{scale: 1}
	for _, f := range opts {
		f(&o)
	}
	return o
}

// SVG writes the picture of d as an SVG document.
func SVG(w io.Writer, d rules.Diagram, opts ...Option) error {
	o := collect(opts)
	o.svg = true
	return writeSVG(w, layout(&d, o), Describe(d, opts...))
}

// PNG writes the picture of d as a PNG image.
func PNG(w io.Writer, d rules.Diagram, opts ...Option) error {
	o := collect(opts)
	if o.scale <= 0 || o.scale > 8 {
		return fmt.Errorf("render: scale %g: it must be above 0 and at most 8", o.scale)
	}
	return writePNG(w, layout(&d, o), o.scale)
}

// Seat colours: the Okabe-Ito palette, safe for colour-blind viewers.
var seatColours = [5]color.NRGBA{
	{0x8f, 0x8f, 0x8f, 0xff}, // neutral
	{0x00, 0x72, 0xb2, 0xff}, // blue
	{0xd5, 0x5e, 0x00, 0xff}, // vermillion
	{0x00, 0x9e, 0x73, 0xff}, // bluish green
	{0xcc, 0x79, 0xa7, 0xff}, // reddish purple
}

// colourNames name the seat colours in words, for the alt text.
var colourNames = [5]string{"grey", "blue", "orange", "green", "pink"}

// SeatColour returns the colour of seat (1..4) in pictures, or the
// neutral grey for 0; ColourName names it in a word.
func SeatColour(seat int) color.NRGBA {
	if seat < 0 || seat >= len(seatColours) {
		return seatColours[0]
	}
	return seatColours[seat]
}

// ColourName names seat's colour in a word ("blue").
func ColourName(seat int) string {
	if seat < 0 || seat >= len(colourNames) {
		return colourNames[0]
	}
	return colourNames[seat]
}

// settle applies Ended to d, a copy of the caller's diagram, and returns
// the options to draw it with.
func (o options) settle(d *rules.Diagram) options {
	if o.ended == nil {
		return o
	}
	if d.Over {
		o.ended = nil
		return o
	}
	w := o.ended.winner
	if w < 0 || w > len(d.Seats) {
		w = 0
	}
	d.Over, d.Winner, d.ToMove = true, w, 0
	return o
}

// how is Ended's words in brackets, after a result; "" without them.
func (o options) how() string {
	if o.ended == nil || o.ended.how == "" {
		return ""
	}
	return " (" + o.ended.how + ")"
}

// seatName is the legend's name for a seat: the player's name if given.
func (o options) seatName(seat int) string {
	if seat >= 1 && seat <= len(o.names) && o.names[seat-1] != "" {
		return o.names[seat-1]
	}
	return fmt.Sprintf("Seat %d", seat)
}

// possessive is whose a piece is, in a sentence: "Bob's", or "seat 2's"
// when the players' names are not known.
func (o options) possessive(seat int) string {
	if seat >= 1 && seat <= len(o.names) && o.names[seat-1] != "" {
		return o.names[seat-1] + "'s"
	}
	return fmt.Sprintf("seat %d's", seat)
}
