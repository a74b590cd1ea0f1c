package web

import (
	"html/template"

	"icepost/rules"
)

// boardHTML draws the position s, reached from prev by the move last
// (prev nil at the start), for a page.
//
// For now this is the game's text board in a <pre>: the renderer of
// board pictures (package render) is not on this branch yet, and this
// is the one place that changes when it is.
func boardHTML(s rules.State, prev rules.State, last rules.Move, names []string) template.HTML {
	_ = prev
	_ = last
	_ = names
	return template.HTML(`<pre class="board" aria-label="the board">` + template.HTMLEscapeString(s.Board(0)) + `</pre>`)
}
