package mailread

import (
	"html"
	"strings"
)

// htmlText makes plain text from an HTML body, the way a reader sees it:
// tags removed, entities decoded, block elements and <br> as line breaks.
// Quoted parts are dropped: <blockquote> and the quote blocks of common
// clients become a single ">" line (so that an attribution line just above
// them is recognised as one), and the markers where Outlook, Hotmail and
// others start the quoted original (a <hr>, a border-top header block,
// divRplyFwdMsg, OLK_SRC_BODY_SECTION) end the text. <style>, <script>,
// <head> and the like are dropped.
//
// It is a small hand-written scanner, not a full HTML parser: it is linear
// in the input and never fails.
func htmlText(s string) string {
	var out strings.Builder
	var text strings.Builder // pending character data, not yet decoded
	pre := 0
	skipName, skipDepth := "", 0 // inside an element being dropped

	flushText := func() {
		if text.Len() == 0 {
			return
		}
		t := html.UnescapeString(text.String())
		text.Reset()
		if skipDepth > 0 {
			return
		}
		if pre > 0 {
			out.WriteString(t)
			return
		}
		// Collapse white space as a browser does.
		space := false
		for _, r := range t {
			if r == ' ' || r == '\n' || r == '\t' || r == '\r' || r == '\f' {
				space = true
				continue
			}
			if space {
				out.WriteByte(' ')
				space = false
			}
			out.WriteRune(r)
		}
		if space {
			out.WriteByte(' ')
		}
	}

	for i := 0; i < len(s); {
		if s[i] != '<' {
			j := strings.IndexByte(s[i:], '<')
			if j < 0 {
				j = len(s) - i
			}
			text.WriteString(s[i : i+j])
			i += j
			continue
		}
		// Comments, doctype, processing instructions, CDATA.
		if strings.HasPrefix(s[i:], "<!--") {
			j := strings.Index(s[i+4:], "-->")
			if j < 0 {
				break
			}
			i += 4 + j + 3
			continue
		}
		if i+1 < len(s) && (s[i+1] == '!' || s[i+1] == '?') {
			j := strings.IndexByte(s[i:], '>')
			if j < 0 {
				break
			}
			i += j + 1
			continue
		}
		t, n := scanTag(s[i:])
		if n == 0 { // not a tag: a literal '<'
			text.WriteByte('<')
			i++
			continue
		}
		i += n
		flushText()

		if skipDepth > 0 {
			if t.name == skipName && !t.selfClose {
				if t.end {
					skipDepth--
				} else {
					skipDepth++
				}
			}
			continue
		}
		if t.end {
			switch {
			case t.name == "pre":
				if pre > 0 {
					pre--
				}
				out.WriteByte('\n')
			case blockTag[t.name]:
				out.WriteByte('\n')
			case t.name == "td" || t.name == "th":
				out.WriteByte(' ')
			}
			continue
		}
		switch t.name {
		case "script", "style", "title", "textarea", "template", "noscript", "xml":
			// Raw text: jump to the end tag.
			if !t.selfClose {
				j := indexFold(s[i:], "</"+t.name)
				if j < 0 {
					i = len(s)
				} else {
					i += j
					if k := strings.IndexByte(s[i:], '>'); k >= 0 {
						i += k + 1
					} else {
						i = len(s)
					}
				}
			}
			continue
		case "head":
			skipName, skipDepth = "head", 1
			continue
		case "hr":
			return finishHTML(out.String())
		case "br":
			out.WriteByte('\n')
			continue
		case "pre":
			pre++
		}
		switch classify(t) {
		case htmlCut:
			return finishHTML(out.String())
		case htmlQuote:
			out.WriteString("\n>\n")
			fallthrough
		case htmlDrop:
			if !t.selfClose && !voidTag[t.name] {
				skipName, skipDepth = t.name, 1
			}
			continue
		}
		if blockTag[t.name] {
			out.WriteByte('\n')
		} else if t.name == "td" || t.name == "th" {
			out.WriteByte(' ')
		}
	}
	flushText()
	return finishHTML(out.String())
}

func finishHTML(s string) string {
	return strings.TrimSpace(s)
}

type htmlClass int

const (
	htmlKeep  htmlClass = iota
	htmlDrop            // drop the element and its content
	htmlQuote           // drop it, leaving a quote marker
	htmlCut             // the quoted original starts here: drop the rest
)

// classify tells what the element's tag name, class, id and style say about
// it: quote blocks and quote headers of the common mail clients.
func classify(t tag) htmlClass {
	if t.name == "blockquote" {
		return htmlQuote
	}
	switch strings.ToLower(t.attr("id")) {
	case "divrplyfwdmsg", "olk_src_body_section", "appendonsend", "zwchr", "stopspelling":
		return htmlCut
	}
	for _, c := range strings.Fields(strings.ToLower(t.attr("class"))) {
		switch c {
		case "gmail_quote", "gmail_quote_container", "yahoo_quoted", "protonmail_quote",
			"zmail_extra", "x_gmail_quote", "ecxgmail_quote", "quote", "mailru-quote", "yandex_quote":
			return htmlQuote
		case "moz-cite-prefix", "gmail_attr", "gmail_signature", "moz-signature",
			"x_gmail_signature", "protonmail_signature_block", "signature":
			return htmlDrop
		case "outlookmessageheader", "x_outlookmessageheader":
			return htmlCut
		}
	}
	if t.name == "div" || t.name == "p" {
		style := strings.ToLower(t.attr("style"))
		if strings.Contains(style, "border-top") && strings.Contains(style, "solid") &&
			!strings.Contains(style, "border-top:none") {
			return htmlCut
		}
	}
	return htmlKeep
}

var blockTag = map[string]bool{
	"p": true, "div": true, "tr": true, "li": true, "ul": true, "ol": true, "dl": true,
	"dt": true, "dd": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true,
	"h6": true, "table": true, "section": true, "article": true, "header": true,
	"footer": true, "address": true, "center": true, "body": true, "html": true,
	"form": true, "fieldset": true, "nav": true, "aside": true, "main": true, "caption": true,
	"tbody": true, "thead": true, "tfoot": true,
}

var voidTag = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "source": true,
	"track": true, "wbr": true,
}

type tag struct {
	name      string
	end       bool
	selfClose bool
	attrs     []string // name, value, name, value ...
}

func (t tag) attr(name string) string {
	for i := 0; i+1 < len(t.attrs); i += 2 {
		if t.attrs[i] == name {
			return t.attrs[i+1]
		}
	}
	return ""
}

// scanTag reads one tag at the start of s (which begins with '<'). It
// returns n == 0 when s does not start a tag (e.g. "a < b").
func scanTag(s string) (t tag, n int) {
	i := 1
	if i < len(s) && s[i] == '/' {
		t.end = true
		i++
	}
	start := i
	for i < len(s) && (isAlnum(s[i]) || s[i] == ':' || s[i] == '-' || s[i] == '_') {
		i++
	}
	if i == start || !isAlpha(s[start]) {
		return tag{}, 0
	}
	t.name = strings.ToLower(s[start:i])
	// Attributes, up to the closing '>' outside quotes.
	for i < len(s) {
		c := s[i]
		switch {
		case c == '>':
			return t, i + 1
		case c == '/':
			t.selfClose = true
			i++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		default:
			t.selfClose = false
			ns := i
			for i < len(s) && s[i] != '=' && s[i] != '>' && s[i] != '/' && !isSpace(s[i]) {
				i++
			}
			name := strings.ToLower(s[ns:i])
			for i < len(s) && isSpace(s[i]) {
				i++
			}
			val := ""
			if i < len(s) && s[i] == '=' {
				i++
				for i < len(s) && isSpace(s[i]) {
					i++
				}
				if i < len(s) && (s[i] == '"' || s[i] == '\'') {
					q := s[i]
					j := strings.IndexByte(s[i+1:], q)
					if j < 0 {
						return t, len(s)
					}
					val = s[i+1 : i+1+j]
					i += j + 2
				} else {
					vs := i
					for i < len(s) && !isSpace(s[i]) && s[i] != '>' {
						i++
					}
					val = s[vs:i]
				}
			}
			if len(t.attrs) < 64 {
				t.attrs = append(t.attrs, name, html.UnescapeString(val))
			}
		}
	}
	return t, len(s)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }
func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool { return isAlpha(c) || isDigit(c) }

// indexFold is strings.Index for an ASCII needle, ignoring case.
func indexFold(s, needle string) int {
	n := len(needle)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], needle) {
			return i
		}
	}
	return -1
}
