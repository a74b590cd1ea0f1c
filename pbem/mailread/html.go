package mailread

import (
	"strings"

	"golang.org/x/net/html"
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
// The markup is read by golang.org/x/net/html's tokenizer (HTML5
// tokenization, no tree building: elements are not closed or reopened
// the way a browser's parser would), so it is linear in the input and
// never fails.
func htmlText(s string) string {
	z := html.NewTokenizer(strings.NewReader(s))
	var out strings.Builder
	var text strings.Builder // pending character data, entities decoded
	pre := 0
	skipName, skipDepth := "", 0 // inside an element being dropped
	rawName := ""                // inside a raw-text element: up to its end tag

	flushText := func() {
		if text.Len() == 0 {
			return
		}
		t := text.String()
		text.Reset()
		if skipDepth > 0 || rawName != "" {
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

	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken: // the end, or a tag cut short by it
			flushText()
			return finishHTML(out.String())
		case html.TextToken:
			if rawName == "" {
				text.Write(z.Text())
			}
			continue
		case html.CommentToken, html.DoctypeToken:
			// Text on both sides of a comment is one run, as for a reader.
			continue
		}
		t := readTag(z, tt)
		if !t.end && (notRaw[t.name] || t.selfClose || rawName != "") {
			// What follows is markup, as it was before the tokenizer,
			// which would take it as raw text: after <iframe>, <xmp> and
			// the like, after a self-closed <script/> or <style/>, and
			// inside <template> and <xml> (their first end tag ends them).
			z.NextIsNotRawText()
		}
		flushText()

		if rawName != "" {
			if t.end && t.name == rawName {
				rawName = ""
			}
			continue
		}
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
			// Raw text, or content nobody reads: drop it up to the end tag.
			if !t.selfClose {
				rawName = t.name
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
	switch strings.ToLower(t.id) {
	case "divrplyfwdmsg", "olk_src_body_section", "appendonsend", "zwchr", "stopspelling":
		return htmlCut
	}
	for _, c := range strings.Fields(strings.ToLower(t.class)) {
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
		style := strings.ToLower(t.style)
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

// notRaw are the elements whose content the HTML5 tokenizer reads as raw
// text but htmlText reads as markup, as it always has.
var notRaw = map[string]bool{"iframe": true, "noembed": true, "noframes": true, "plaintext": true, "xmp": true}

// tag is a start or end tag with the attributes classify looks at.
type tag struct {
	name             string
	end, selfClose   bool
	id, class, style string
}

// readTag reads the current tag token of z.
func readTag(z *html.Tokenizer, tt html.TokenType) tag {
	name, more := z.TagName()
	t := tag{name: string(name), end: tt == html.EndTagToken, selfClose: tt == html.SelfClosingTagToken}
	for more {
		var k, v []byte
		k, v, more = z.TagAttr()
		// The tokenizer keeps the first of repeated attributes.
		switch string(k) {
		case "id":
			t.id = string(v)
		case "class":
			t.class = string(v)
		case "style":
			t.style = string(v)
		}
	}
	return t
}

// ASCII character classes, for the command and signature matchers.
func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool { return isAlpha(c) || isDigit(c) }
