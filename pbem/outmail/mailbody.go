package outmail

import (
	"fmt"
	"html"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A mail's body. Every mail the server sends is written once, as one
// text (Mail.Text) and, when it shows a position, the picture of it
// (Mail.Picture); both of its parts come from them, read one way
// (readBody): the text part is the text wrapped at 76 columns
// (textPart), the HTML part the same text as HTML, with the picture
// where the text has the text board (bodyHTML). So every kind of mail,
// a board or an answer to help, has the same layout: a viewport, lines
// that flow on a phone, the picture wherever a position is shown.
//
// The text follows a few rules of plain-text mail:
//
//   - Paragraphs are separated by blank lines. A line is a line: the text
//     part wraps one longer than 78 characters at 76, and the HTML lets it
//     flow. A line of 60 to 78 characters followed by more prose reads as
//     one wrapped by hand (the help, the games' summaries): the HTML joins
//     the two.
//   - The first line is the mail's headline. One longer than 72
//     characters is cut after its first sentence or clause (". ", ": ",
//     "? ", "! ") when that ends within them; the HTML shows a short first
//     line in bold.
//   - A line that opens with a word in capitals (YOUR MOVE, PREVIEW, LAST
//     WARNING) is bold in the HTML.
//   - An indented line is an item (a seat, a conditional move, a game).
//     With a gap of two spaces or more it is a term and its text (the
//     help's commands, the moves from one cell): the text part wraps it
//     under its text, the HTML shows the term in bold. A line indented
//     deeper than the item before continues it.
//   - Lines indented by four spaces or more that do not continue an item
//     are code (a position code, a record, a line to send back): kept as
//     they are, at most 78 characters, in a block of fixed-width type in
//     the HTML.
//   - The text board that the picture stands for is kept as it is in the
//     text part; the HTML shows the picture instead, or the text board in
//     a block that scrolls when there is no picture.

// Picture is what a mail shows of a position in its HTML part.
type Picture struct {
	// Board is the text board in the mail's Text that the picture stands
	// for.
	Board string
	Alt   string // the position in words
	// Image is the picture, an inline PNG; Data nil when the game draws
	// none (the HTML keeps the text board).
	Image InlineImage
}

const (
	TextWidth    = 76 // the text part's lines are wrapped at this width
	TextMax      = 78 // and no longer than this
	headlineMax  = 72 // a first line longer than this is cut after its first sentence
	handWrapped  = 60 // a line from here to textMax, followed by prose, was wrapped by hand
	CodeIndent   = 4
	maxTermWidth = 40 // an item's text starts at most here, when wrapped
)

type lineKind int

const (
	blankLine lineKind = iota
	proseLine
	itemLine // an indented line: an item of a list
	moreLine // a line that continues the item before
	codeLine
	boardLine // the text board (all of it, one entry)
)

// bodyLine is a line of a mail's text, as readBody reads it.
type bodyLine struct {
	kind   lineKind
	text   string // the line as written (a boardLine: the whole board)
	indent int
	// term and rest are an item with a gap of two spaces or more in it;
	// restCol is the column its rest starts at.
	term, rest string
	restCol    int
}

// headline cuts a long first line after its first sentence. A first
// line of 60 characters or more followed by prose was wrapped by hand
// (the apology): it is long too. A mail about no game whose first line
// has no sentence short enough gets its subject as its headline ("No more
// answers to mistakes this hour.").
func headline(text, subject string) string {
	first, rest, more := strings.Cut(text, "\n")
	next, after, _ := strings.Cut(rest, "\n")
	n := utf8.RuneCountInString(first)
	wrapped := n >= handWrapped && n <= TextMax && next != "" && next[0] != ' '
	if n <= headlineMax && !wrapped {
		return text
	}
	for i := 8; i+1 < len(first) && i < headlineMax; i++ {
		if strings.IndexByte(".:?!", first[i]) >= 0 && first[i+1] == ' ' {
			out := first[:i+1] + "\n" + strings.TrimLeft(first[i+1:], " ")
			if wrapped {
				// Its second sentence goes on with the next line.
				out += " " + next
				rest = after
			}
			if more {
				out += "\n" + rest
			}
			return out
		}
	}
	if s, ok := strings.CutPrefix(subject, "icepost: "); ok && s != "" {
		return Capitalized(s) + ".\n\n" + text
	}
	return text
}

// readBody reads a mail's text by the rules above; board is the text
// board the mail's picture stands for ("" for none).
func readBody(text, board string) []bodyLine {
	text = strings.TrimSuffix(text, "\n")
	var lines []bodyLine
	before, after, found := text, "", false
	if b := strings.TrimSuffix(board, "\n"); b != "" {
		if i := strings.Index(text, b); i >= 0 {
			before, after, found = text[:i], text[i+len(b):], true
			before = strings.TrimSuffix(before, "\n")
			after = strings.TrimPrefix(after, "\n")
			board = b
		}
	}
	lines = appendLines(lines, before)
	if found {
		lines = append(lines, bodyLine{kind: boardLine, text: board})
		lines = appendLines(lines, after)
	}
	return lines
}

// appendLines reads the lines of text (no text board in it) onto lines.
func appendLines(lines []bodyLine, text string) []bodyLine {
	if text == "" {
		return lines
	}
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimRight(l, " \t\r")
		n := len(l) - len(strings.TrimLeft(l, " "))
		prev := bodyLine{kind: blankLine}
		if len(lines) > 0 {
			prev = lines[len(lines)-1]
		}
		bl := bodyLine{text: l, indent: n}
		switch {
		case l == "":
			bl.kind = blankLine
		case (prev.kind == itemLine || prev.kind == moreLine) && n > itemIndent(lines):
			bl.kind = moreLine
		case n >= CodeIndent && prev.kind != itemLine && prev.kind != moreLine:
			bl.kind = codeLine
		case n > 0:
			bl.kind = itemLine
			body := l[n:]
			if i := strings.Index(body, "  "); i > 0 {
				bl.term = body[:i]
				bl.rest = strings.TrimLeft(body[i:], " ")
				bl.restCol = utf8.RuneCountInString(l) - utf8.RuneCountInString(bl.rest)
			}
		default:
			bl.kind = proseLine
		}
		lines = append(lines, bl)
	}
	return lines
}

// itemIndent is the indent of the item the last lines continue.
func itemIndent(lines []bodyLine) int {
	for i := len(lines) - 1; i >= 0; i-- {
		if lines[i].kind == itemLine {
			return lines[i].indent
		}
	}
	return 0
}

// textPart is the text part of a mail: its text with every line of prose
// or an item longer than textMax wrapped at textWidth; code and the text
// board as they are.
func textPart(lines []bodyLine) string {
	var b strings.Builder
	for _, l := range lines {
		switch {
		case l.kind == boardLine || l.kind == codeLine || utf8.RuneCountInString(l.text) <= TextMax:
			b.WriteString(l.text)
		default:
			hang := 0
			switch {
			case l.kind == itemLine && l.term != "" && l.restCol <= maxTermWidth:
				hang = l.restCol
			case l.kind == itemLine:
				hang = l.indent + 2
			case l.kind == moreLine:
				hang = l.indent
			}
			b.WriteString(wrapHanging(l.text, TextWidth, hang))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// wrapHanging wraps a line at spaces so that each piece is at most width
// characters, the pieces after the first indented by hang. A word longer
// than the width stays whole.
func wrapHanging(line string, width, hang int) string {
	var b strings.Builder
	pad := strings.Repeat(" ", hang)
	for utf8.RuneCountInString(line) > width {
		cut := -1
		n := 0
		for i, r := range line {
			if n > width {
				break
			}
			if r == ' ' && n > hang && strings.TrimSpace(line[:i]) != "" {
				cut = i
			}
			n++
		}
		if cut <= 0 {
			break
		}
		b.WriteString(strings.TrimRight(line[:cut], " ") + "\n")
		line = pad + strings.TrimLeft(line[cut:], " ")
	}
	b.WriteString(line)
	return b.String()
}

// The HTML part's styles: the board mails' since the first pictures.
const (
	bodyStyle = "margin: 0; padding: 8px; font-family: -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif; font-size: 15px; line-height: 1.45; color: #222"
	paraStyle = "margin: 0 0 10px"
	itemStyle = "padding-left: 2em; text-indent: -1em"
	codeStyle = "margin: 0 0 10px; font-family: Menlo, Consolas, 'DejaVu Sans Mono', monospace; font-size: 13px; line-height: 1.35; white-space: pre-wrap; overflow-wrap: anywhere; background: #f4efe6; padding: 6px 8px"
	// A text board without a picture keeps its columns and scrolls on
	// its own when the screen is narrower.
	boardStyle = "margin: 0 0 10px; font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 13px; line-height: 1.2; white-space: pre; overflow-x: auto"
)

// bodyHTML is the HTML part of a mail: its text read by readBody, as HTML
// that reads on a phone as on a desktop, with the picture (pic, when it
// has an image) in place of the text board.
func bodyHTML(lines []bodyLine, pic *Picture) string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="` + bodyStyle + `">
<div style="max-width: 42em">
`)
	first := true
	for i := 0; i < len(lines); {
		l := lines[i]
		switch l.kind {
		case blankLine:
			i++
			continue
		case boardLine:
			b.WriteString(pictureHTML(pic, l.text))
			i++
		case codeLine:
			j := i
			var code []bodyLine
			for j < len(lines) && (lines[j].kind == codeLine || lines[j].kind == blankLine && nextKind(lines, j) == codeLine) {
				code = append(code, lines[j])
				j++
			}
			b.WriteString(codeHTML(code))
			i = j
		default:
			j := i
			for j < len(lines) && (lines[j].kind == proseLine || lines[j].kind == itemLine || lines[j].kind == moreLine) {
				j++
			}
			b.WriteString(paragraphHTML(lines[i:j], first))
			i = j
		}
		if first && pic != nil && !slices.ContainsFunc(lines, func(l bodyLine) bool { return l.kind == boardLine }) {
			// A picture whose text board the text does not have: after
			// the first paragraph.
			b.WriteString(pictureHTML(pic, ""))
		}
		first = false
	}
	b.WriteString("</div>\n</body></html>\n")
	return b.String()
}

// pictureHTML is the picture of a position, or the text board when it
// has none.
func pictureHTML(pic *Picture, board string) string {
	if pic == nil || pic.Image.Data == nil {
		if board == "" {
			return ""
		}
		return fmt.Sprintf("<pre style=\"%s\">%s</pre>\n", boardStyle, html.EscapeString(board))
	}
	w := pngWidth(pic.Image.Data)
	return fmt.Sprintf("<img src=\"cid:%s\" alt=\"%s\" width=\"%d\" style=\"display: block; width: 100%%; max-width: %dpx; height: auto; border: 0; margin: 0 0 10px\">\n",
		pic.Image.ContentID, html.EscapeString(pic.Alt), w, w)
}

// nextKind is the kind of the first line after i that is not blank.
func nextKind(lines []bodyLine, i int) lineKind {
	for i++; i < len(lines); i++ {
		if lines[i].kind != blankLine {
			return lines[i].kind
		}
	}
	return blankLine
}

// codeHTML is a block of code, its common indent taken off.
func codeHTML(code []bodyLine) string {
	cut := -1
	for _, l := range code {
		if l.kind == codeLine && (cut < 0 || l.indent < cut) {
			cut = l.indent
		}
	}
	var text []string
	for _, l := range code {
		if l.kind == codeLine {
			text = append(text, html.EscapeString(l.text[cut:]))
		} else {
			text = append(text, "")
		}
	}
	return fmt.Sprintf("<pre style=\"%s\">%s</pre>\n", codeStyle, strings.Join(text, "\n"))
}

// paragraphHTML is a paragraph of prose and items; first says it is the
// mail's first, whose first line is the headline.
func paragraphHTML(lines []bodyLine, first bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<div style=\"%s\">", paraStyle)
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if l.kind == proseLine {
			t := textHTML(l.text)
			if (first && i == 0 && utf8.RuneCountInString(l.text) <= headlineMax) || capitalLead(l.text) {
				t = "<b>" + t + "</b>"
			}
			b.WriteString(t)
			if i+1 < len(lines) && lines[i+1].kind == proseLine {
				if n := utf8.RuneCountInString(l.text); n >= handWrapped && n <= TextMax && !strings.HasPrefix(t, "<b>") {
					b.WriteString("\n")
				} else {
					b.WriteString("<br>\n")
				}
			}
			continue
		}
		// An item (a line that continues none: moreLine only follows an
		// item), with the lines that continue it.
		term, text := l.term, l.rest
		if term == "" {
			text = strings.TrimSpace(l.text)
		}
		for i+1 < len(lines) && lines[i+1].kind == moreLine {
			i++
			more := strings.TrimSpace(lines[i].text)
			switch {
			case term == "" && l.term == "" && text == strings.TrimSpace(l.text) && lines[i].indent > l.indent+2:
				// A term alone on its line, its text below (the help).
				term, text = text, more
			case text == "":
				text = more
			default:
				text += " " + more
			}
		}
		fmt.Fprintf(&b, "\n<div style=\"%s\">", itemStyle)
		if term != "" {
			fmt.Fprintf(&b, "<b>%s</b>&ensp;", html.EscapeString(term))
		}
		b.WriteString(textHTML(text) + "</div>\n")
	}
	b.WriteString("</div>\n")
	return b.String()
}

// capitalLead says whether a line opens with a word of four or more
// capitals (YOUR MOVE, PREVIEW, LAST WARNING): the text part's emphasis.
func capitalLead(s string) bool {
	n := 0
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			break
		}
		n++
	}
	return n >= 4 && (n == len(s) || strings.IndexByte(" ,:.!", s[n]) >= 0)
}

// textHTML is a line of text as HTML: escaped, with each http:// or
// https:// address made a link (the play link above all), so that a
// mail client shows it as one. An address ends at white space, and a
// full stop, comma, colon, semicolon, closing bracket or mark after it
// is left out of it, as a reader would.
func textHTML(s string) string {
	var b strings.Builder
	for s != "" {
		i := strings.Index(s, "http://")
		if j := strings.Index(s, "https://"); j >= 0 && (i < 0 || j < i) {
			i = j
		}
		if i < 0 {
			b.WriteString(html.EscapeString(s))
			break
		}
		end := i + strings.IndexFunc(s[i:]+" ", unicode.IsSpace)
		for end > i && strings.ContainsRune(".,:;!?)]'\"", rune(s[end-1])) {
			end--
		}
		b.WriteString(html.EscapeString(s[:i]))
		u := html.EscapeString(s[i:end])
		fmt.Fprintf(&b, `<a href="%s">%s</a>`, u, u)
		s = s[end:]
	}
	return b.String()
}

// pngWidth reads a PNG's width from its header.
func pngWidth(b []byte) int {
	if len(b) < 24 {
		return 0
	}
	return int(b[16])<<24 | int(b[17])<<16 | int(b[18])<<8 | int(b[19])
}

// Capitalized is s with its first letter in upper case.
func Capitalized(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// RecordBlock is a game's record as code in a mail (see above):
// indented, its movetext refilled so that no line passes the text part's
// width (the record's own lines may be one longer). A move number stays
// with its move; a line with a ";" comment, which runs to the line's end,
// and a tag stay as they are.
func RecordBlock(rec string) string {
	const width = TextMax - CodeIndent
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(rec, "\n"), "\n") {
		if len(line) > width && !strings.HasPrefix(line, "[") && !strings.Contains(line, ";") {
			var words []string
			for _, w := range strings.Fields(line) {
				if n := len(words); n > 0 && strings.HasSuffix(words[n-1], ".") && strings.Trim(words[n-1], "0123456789.") == "" {
					words[n-1] += " " + w
					continue
				}
				words = append(words, w)
			}
			line = ""
			for _, w := range words {
				switch {
				case line == "":
					line = w
				case len(line)+1+len(w) > width:
					b.WriteString("    " + line + "\n")
					line = w
				default:
					line += " " + w
				}
			}
		}
		if line == "" {
			b.WriteString("\n")
			continue
		}
		b.WriteString("    " + line + "\n")
	}
	return b.String()
}
