package outmail

import (
	"math/rand/v2"
	"strings"
	"testing"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// The rules of a mail's text (mailbody.go), one case each: what the text
// part and the HTML part make of a text.
func TestMailBody(t *testing.T) {
	board := "  a b\n1 . L 1\n"
	for _, c := range []struct {
		name, subject, text string
		pic                 *Picture
		wantText            string   // the text part, when not ""
		wantHTML, notHTML   []string // in the HTML part, and not in it
	}{{
		name:     "a long first line is cut after its first sentence",
		text:     "Daily digests are on: each day at 07:00 UTC, when games wait for your move, one mail lists them.\n",
		wantText: "Daily digests are on:\neach day at 07:00 UTC, when games wait for your move, one mail lists them.\n",
		wantHTML: []string{"<b>Daily digests are on:</b><br>\neach day"},
	}, {
		name:     "a headline cut from a line wrapped by hand goes on with the next line",
		text:     "icepost plays Icehouse games by mail. Write commands at the top of your mail,\none a line.\n",
		wantText: "icepost plays Icehouse games by mail.\nWrite commands at the top of your mail, one a line.\n",
	}, {
		name:     "a first line with no short sentence gets the subject",
		subject:  "icepost: no more answers",
		text:     strings.Repeat("word ", 20) + "\n",
		wantText: "No more answers.\n\n" + strings.Repeat("word ", 14) + "word\n" + strings.TrimSpace(strings.Repeat("word ", 5)) + "\n",
		wantHTML: []string{"<b>No more answers.</b>"},
	}, {
		name:     "a first line wrapped by hand is no headline",
		subject:  "icepost: your mail could not be handled",
		text:     "Something went wrong on our side while your mail was being handled, and\nit was not carried out.\n",
		wantText: "Your mail could not be handled.\n\nSomething went wrong on our side while your mail was being handled, and\nit was not carried out.\n",
		wantHTML: []string{"<b>Your mail could not be handled.</b></div>", ">Something went wrong on our side while your mail was being handled, and\nit was"},
	}, {
		name:     "prose wrapped at 76, lines wrapped by hand joined in the HTML",
		text:     "Title\n\n" + strings.Repeat("abcdefghi ", 7) + "\nmore.\nShort line.\nNext line.\n",
		wantText: "Title\n\n" + strings.Repeat("abcdefghi ", 6) + "abcdefghi\nmore.\nShort line.\nNext line.\n",
		wantHTML: []string{"abcdefghi\nmore.<br>\nShort line.<br>\nNext line."},
	}, {
		name:     "an item with a term: wrapped under its text, the term in bold",
		text:     "Moves:\n  c3:  " + strings.Repeat("c3-d4 ", 16) + "\n",
		wantText: "Moves:\n  c3:  " + strings.TrimSpace(strings.Repeat("c3-d4 ", 11)) + "\n       " + strings.TrimSpace(strings.Repeat("c3-d4 ", 5)) + "\n",
		wantHTML: []string{"<b>c3:</b>&ensp;c3-d4 c3-d4"},
	}, {
		name:     "an item wrapped by hand, its term alone on the first line",
		text:     "Help:\n  challenge GAME ADDRESS\n                 start a game\n                 with them\n  help           this text\n",
		wantHTML: []string{"<b>challenge GAME ADDRESS</b>&ensp;start a game with them</div>", "<b>help</b>&ensp;this text</div>"},
	}, {
		name:     "code: kept, in a block, its indent taken off",
		text:     "Reply with:\n\n    challenge icesickle bob@club.test\n",
		wantText: "Reply with:\n\n    challenge icesickle bob@club.test\n",
		wantHTML: []string{">challenge icesickle bob@club.test</pre>"},
	}, {
		name:     "capitals open a bold line",
		text:     "Title\n\nYOUR MOVE, ada. Reply.\nA comment follows.\n",
		wantHTML: []string{"<b>YOUR MOVE, ada. Reply.</b><br>"},
	}, {
		name:     "the picture in place of the text board",
		text:     "Title\n\n" + board + "\nPosition: x\n",
		pic:      &Picture{Board: board, Alt: "a large on b1", Image: InlineImage{ContentID: "b@x", Data: []byte("png")}},
		wantText: "Title\n\n" + board + "\nPosition: x\n",
		wantHTML: []string{`<img src="cid:b@x" alt="a large on b1"`},
		notHTML:  []string{"1 . L 1", "<pre"},
	}, {
		name:     "a text board with no picture stays, in a block of its own that scrolls",
		text:     "Title\n\n" + board + "\nPosition: x\n",
		pic:      &Picture{Board: board},
		wantHTML: []string{"overflow-x: auto\">  a b\n1 . L 1</pre>"},
	}} {
		t.Run(c.name, func(t *testing.T) {
			b := ""
			if c.pic != nil {
				b = c.pic.Board
			}
			lines := readBody(headline(c.text, c.subject), b)
			text, htm := textPart(lines), bodyHTML(lines, c.pic)
			if c.wantText != "" && text != c.wantText {
				t.Errorf("text part:\n got %q\nwant %q", text, c.wantText)
			}
			for _, l := range strings.Split(text, "\n") {
				if len(l) > 78 {
					t.Errorf("a line of %d characters: %q", len(l), l)
				}
			}
			if !strings.Contains(htm, `<meta name="viewport"`) {
				t.Errorf("no viewport")
			}
			for _, want := range c.wantHTML {
				if !strings.Contains(htm, want) {
					t.Errorf("the HTML lacks %q:\n%s", want, htm)
				}
			}
			for _, not := range c.notHTML {
				if strings.Contains(htm, not) {
					t.Errorf("the HTML has %q:\n%s", not, htm)
				}
			}
		})
	}
}

// A record in a mail is code: indented, every line at most 78
// characters, and read back (its indent taken off) it is the same game.
func TestRecordBlock(t *testing.T) {
	for _, name := range []string{"Pikemen", "IceLady", "IceFrogs"} {
		t.Run(name, func(t *testing.T) {
			g, _ := games.Lookup(name)
			start, err := g.Start(rules.Options{})
			if err != nil {
				t.Fatal(err)
			}
			rec, err := notation.FromMoves([]notation.Tag{{Name: "Player1", Value: "ada"}, {Name: "Player2", Value: "bob"}}, start,
				notation.RandomGame(start, rand.New(rand.NewPCG(7, 7)), 120))
			if err != nil {
				t.Fatal(err)
			}
			text := rec.String()
			block := RecordBlock(text)
			var back []string
			for _, l := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
				if len(l) > 78 || l != "" && !strings.HasPrefix(l, "    ") {
					t.Errorf("a line of the block: %q", l)
				}
				back = append(back, strings.TrimPrefix(l, "    "))
			}
			gs, errs := notation.Check("mail", []byte(strings.Join(back, "\n")+"\n"))
			if len(errs) > 0 || len(gs) != 1 || gs[0].Record.String() != text {
				t.Errorf("the block does not read back as the record: %v\n%s", errs.Err(), block)
			}
		})
	}
}

// TestTextHTMLLinks: an address in a mail's text is a link in its HTML
// part, without the full stop after it, and the text around it escaped.
func TestTextHTMLLinks(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Or play in your browser: https://club.test/play/w1-1-abc", `Or play in your browser: <a href="https://club.test/play/w1-1-abc">https://club.test/play/w1-1-abc</a>`},
		{"See http://x.test/a?b=1&c=2.", `See <a href="http://x.test/a?b=1&amp;c=2">http://x.test/a?b=1&amp;c=2</a>.`},
		{"<b> no link", "&lt;b&gt; no link"},
		{`(https://a.test/"onmouseover=x)`, `(<a href="https://a.test/&#34;onmouseover=x">https://a.test/&#34;onmouseover=x</a>)`},
	} {
		if got := textHTML(c.in); got != c.want {
			t.Errorf("textHTML(%q) =\n%s\nwant\n%s", c.in, got, c.want)
		}
	}
}
