package web

import (
	"bytes"
	"html/template"

	"icepost/render"
	"icepost/rules"
)

// boardHTML draws the position s, reached from prev by the move last
// (prev nil at the start), for a page: the board picture of package
// render as inline SVG (its <title> says the position in words for
// screen readers), with the players' names in its legend. A game that
// does not describe its positions gets its text board in a <pre>. opts
// are more of render's options (render.Cells on the play page, the
// analysis's better move on an analysed game's page).
func boardHTML(s rules.State, prev rules.State, last rules.Move, names []string, opts ...render.Option) template.HTML {
	d, ok := rules.DiagramOf(s, 0, prev, last)
	if ok {
		var b bytes.Buffer
		b.WriteString(`<div class="board">`)
		if len(names) > 0 {
			// A copy: the caller's slice is not written.
			opts = append(opts[:len(opts):len(opts)], render.Names(names...))
		}
		if err := render.SVG(&b, d, opts...); err == nil {
			b.WriteString(`</div>`)
			return template.HTML(b.String())
		}
	}
	return template.HTML(`<pre class="board textboard">` + template.HTMLEscapeString(s.Board(0)) + `</pre>`)
}
