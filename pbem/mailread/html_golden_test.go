package mailread

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/emersion/go-message/textproto"
)

// htmlGoldenCases are small inputs for htmlText: TestHTMLText's, and
// markup the real fixtures do not have (malformed, unusual entities,
// Outlook's conditional comments and XML islands, raw-text elements).
var htmlGoldenCases = []struct{ name, in string }{
	// TestHTMLText's cases.
	{"entities and br", "<p>a &amp; b<br>c&nbsp;d &#x41;</p>"},
	{"script and style", "<style>p{}</style><script>x<y</script>ok"},
	{"comment", "a<!-- <b>hidden</b> -->b"},
	{"blockquote", "mine<blockquote>theirs<blockquote>deeper</blockquote>still</blockquote>after"},
	{"literal lt", "a < b"},
	{"unclosed tag", "ok<div class=\"x"},
	{"pre", "<pre>a  b\n c</pre>"},
	{"hr cuts", "mine<hr>From: x"},
	{"border-top cuts", "mine<div style='border:none;border-top:solid #E1E1E1 1.0pt'>From: x</div>"},

	// Text and entities.
	{"empty", ""},
	{"plain text", "  c3xe5 \n\n  well   played  "},
	{"named entities", "&lt;b&gt; &quot;q&quot; &apos;a&apos; &eacute;&Eacute; &hellip; &mdash; &euro; &copy;"},
	{"entities without semicolon", "&amp &lt3 &copy2024 &eacutex &notin; &notit; AT&T"},
	{"unknown entities", "&bogus; &; & ; &#; &#x; &#xZZ;"},
	{"numeric entities", "&#65;&#x42;&#X43; &#128; &#150; &#0; &#xD800; &#x110000; &#99999999999;"},
	{"nbsp and zero width", "a&nbsp;&nbsp;b&#8203;c&zwnj;d&shy;e"},
	{"entity split by tag", "&am<b></b>p; &#6<i></i>5;"},
	{"invalid utf-8", "a\xffb<p>\xc3</p>"},
	{"nul byte", "a\x00b<p\x00>c</p>"},
	{"carriage returns", "a\r\nb\rc<br>\r\nd"},

	// Tags.
	{"upper case tags", "<P>one</P><DIV>two</DIV><BR>three<HR>cut"},
	{"self-closing", "a<br/>b<br />c<div/>d<p/>e"},
	{"end br", "a</br>b</p>c"},
	{"attributes", `<p class=a id='b' data-x="c>d" title=e>text</p>`},
	{"attribute entities", `<div class="gmail&#95;quote">theirs</div>mine`},
	{"attribute without value", `<div hidden class="gmail_quote">theirs</div>mine`},
	{"duplicate attributes", `<div class="x" class="gmail_quote">theirs</div>mine`},
	{"attribute case", `<DIV CLASS="Gmail_Quote">theirs</DIV>mine`},
	{"unquoted attribute slash", `<div class=gmail_quote/>theirs</div>mine`},
	{"unclosed quote in attribute", `mine<p class="x>text</p>more`},
	{"tag with newline", "a<div\nclass=\"q\"\n>b</div>"},
	{"lt digit", "1<2 and 3 < 4 and x<y"},
	{"lt slash", "a</ b>c</>d</3>e"},
	{"lt bang", "a<!b>c<!>d"},
	{"lt question", "a<?php echo 1 ?>b<?xml version=\"1.0\"?>c"},
	{"doctype", "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0\"><p>text</p>"},
	{"cdata", "a<![CDATA[x<y]]>b"},
	{"unterminated comment", "a<!-- never closed <p>b</p>"},
	{"odd comments", "a<!---->b<!--->c<!-- - -- -->d<!-- x --!>e"},
	{"conditional comments", "<!--[if mso]><p>mso</p><![endif]--><p>all</p><!--[if !mso]><!--><p>not mso</p><!--<![endif]-->"},
	{"namespaced tags", "<p>a<o:p></o:p></p><p><o:p>&nbsp;</o:p></p><st1:place>b</st1:place>"},
	{"xml island", "<xml><o:OfficeDocumentSettings>x</o:OfficeDocumentSettings></xml>text"},
	{"unknown tags", "<foo>a</foo><custom-el>b</custom-el>"},
	{"inline tags", "a<b>b</b><i>c</i> <span>d</span><a href=x>e</a>"},
	{"td and th", "<table><tr><th>h1</th><th>h2</th></tr><tr><td>a</td><td>b</td></tr></table>"},
	{"lists", "<ul><li>one<li>two</ul><ol><li>three</li></ol>"},
	{"headings", "<h1>Title</h1>text<h6>small</h6>"},

	// Raw text and dropped elements.
	{"script with lt", "<script>if (a < b && c > d) { x = '</p>' }</script>after"},
	{"script end in string", "<script>var s = '</scr' + 'ipt>';</script>after"},
	{"script upper end", "<SCRIPT>x</SCRIPT >after"},
	{"script unclosed", "before<script>never closed"},
	{"script self-closed", "a<script src=x />b</script>c"},
	{"style with comment", "<style><!-- p{} --></style>text"},
	{"title", "<title>The title</title>body"},
	{"textarea", "<textarea><b>not a tag</b></textarea>after"},
	{"noscript", "<noscript><p>js off</p></noscript>after"},
	{"template", "<template><p>t</p></template>after"},
	{"head", "<html><head><meta charset=utf-8><title>t</title><link rel=x></head><body>body</body></html>"},
	{"head unclosed", "<head><title>t</title><body>body"},
	{"nested head", "<head><head></head>still head</head>after"},
	{"plaintext", "a<plaintext><b>b</b>"},
	{"iframe", "a<iframe>b</iframe>c"},

	// Quotes and cuts.
	{"nested same-name drop", "mine<div class=gmail_quote><div>x</div><div>y</div></div>after"},
	{"quote then text", "<div>c3xe5</div><blockquote type=cite>theirs</blockquote><div>mine</div>"},
	{"unclosed blockquote", "mine<blockquote>theirs"},
	{"stray end blockquote", "a</blockquote>b"},
	{"signature", "mine<div class=\"moz-signature\">-- <br>Sig</div>after"},
	{"void quote class", "mine<img class=gmail_quote>after"},
	{"self-closed quote", "mine<div class=gmail_quote/>after"},
	{"outlook ids", "mine<div id=divRplyFwdMsg>From: x</div>"},
	{"appendonsend", "mine<div id=\"appendonsend\"></div><hr>x"},
	{"border-top none", "mine<div style=\"border:none;border-top:none\">kept</div>"},
	{"border-top span", "mine<span style=\"border-top:solid 1px\">kept</span>"},
	{"pre nested", "<pre>a<pre>  b  </pre>  c  </pre>  d  "},
	{"pre unclosed", "<pre>  a\n  b"},
	{"pre in drop", "<div class=gmail_quote><pre>x</pre></div><pre> y </pre>"},
	{"end tag attributes", "<p>a</p class=x>b"},
	{"many attributes", "<div " + strings.Repeat("a=b ", 70) + "class=gmail_quote>theirs</div>mine"},
	{"deep nesting", strings.Repeat("<div>", 300) + "deep" + strings.Repeat("</div>", 300)},

	// Where an HTML5 tokenizer reads differently from a simple scanner.
	{"self-closed script", "a<script src=x/>&amp;<p>b</p></script>c"},
	{"self-closed style", "a<style/>b</style>c"},
	{"script double escape", "<script><!--<script>x</script>y</script>-->z</script>after"},
	{"raw end tag prefix", "<script>x</scriptx>y</script>z"},
	{"style in quote", "mine<blockquote><style>p{}</style>theirs</blockquote>after"},
	{"unclosed title in quote", "mine<blockquote><title>t</blockquote>after"},
	{"lt in script in head", "<head><script>for(i=0;i<head.length;i++){}</script></head>body"},
	{"entity across comment", "&#x41<!-- -->a &am<!-- -->p; &#x41<?x>a"},
	{"end tag then lt", "a</<hr>b"},
	{"end tag at the end", "a</"},
	{"equals before attribute", "a<p ='x>'>b</p>c"},
	{"xml with comment", "<xml><!-- </xml> --></xml>after"},
	{"iframe content", "a<iframe><p>b</p></iframe>c"},
	{"xmp content", "<xmp><b>x</b></xmp>"},
	{"one-digit references", "a&#9 b&#9;c&#6"},
	{"unclosed quote block at the end", "mine<blockquote"},
}

// htmlPart is one text/html body found in a fixture, already made UTF-8.
type htmlPart struct{ name, html string }

// fixtureHTMLParts returns every text/html part of the mails and every
// .html file among the package's testdata and the real-world fixtures.
func fixtureHTMLParts(t *testing.T) []htmlPart {
	t.Helper()
	fixture(t, "talon/OLK_SRC_BODY_SECTION.html") // skips without the fixtures
	var files []string
	for _, dir := range []string{"testdata", realDir} {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(p, ".eml") || strings.HasSuffix(p, ".html")) {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(files)
	var parts []htmlPart
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(strings.TrimPrefix(p, realDir+"/"), "testdata/")
		if strings.HasSuffix(p, ".html") {
			parts = append(parts, htmlPart{name, string(b)})
			continue
		}
		br := bufio.NewReader(bytes.NewReader(b))
		h, err := textproto.ReadHeader(br)
		if err != nil && h.Len() == 0 {
			continue
		}
		for i, s := range htmlBodies(h, br, 0) {
			parts = append(parts, htmlPart{fmt.Sprintf("%s part %d", name, i+1), s})
		}
	}
	return parts
}

// htmlBodies returns the decoded text/html bodies of a MIME entity.
func htmlBodies(h textproto.Header, body io.Reader, depth int) []string {
	mediaType, params := contentType(h)
	if strings.HasPrefix(mediaType, "multipart/") && depth < maxDepth {
		var out []string
		mr := textproto.NewMultipartReader(body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				return out
			}
			out = append(out, htmlBodies(p.Header, p, depth+1)...)
		}
	}
	if mediaType != "text/html" {
		return nil
	}
	raw, _ := io.ReadAll(body)
	s, _ := decodeCharset(params["charset"], decodeTransfer(h.Get("Content-Transfer-Encoding"), raw))
	return []string{s}
}

// htmlTextGolden describes what htmlText makes of one input, and what Read
// finds in an HTML-only mail with that body, as it is and with a move
// written on top: the commands and the comment.
func htmlTextGolden(b *strings.Builder, name, in string) {
	fmt.Fprintf(b, "=== %s\n", name)
	for _, l := range strings.Split(htmlText(in), "\n") {
		fmt.Fprintf(b, "%q\n", l)
	}
	for _, body := range []string{in, "<div>c3xe5</div>" + in} {
		m, err := Read(strings.NewReader("From: a@b.example\nContent-Type: text/html; charset=utf-8\n\n"+body), grammar)
		if err != nil {
			fmt.Fprintf(b, "--- Read: %v\n", err)
			continue
		}
		fmt.Fprintf(b, "--- commands %q comment %q\n", m.Commands, m.Comment)
	}
}

// TestHTMLTextGolden pins htmlText's output on every HTML part of every
// fixture and on the cases above to testdata/htmltext.golden, which was
// written by the hand-written scanner that came before x/net/html's
// tokenizer (go test -update rewrites it; review its diff).
func TestHTMLTextGolden(t *testing.T) {
	var b strings.Builder
	for _, c := range htmlGoldenCases {
		htmlTextGolden(&b, "case "+c.name, c.in)
	}
	for _, p := range fixtureHTMLParts(t) {
		htmlTextGolden(&b, p.name, p.html)
	}
	checkGolden(t, "testdata/htmltext.golden", b.String())
}
