package pbem_test

import (
	"bytes"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"icepost/render"
	"icepost/rules"
)

// mailKind is one kind of mail the server sends, as a player received it.
type mailKind struct {
	name string
	m    got
}

// everyKindOfMail plays a game by mail and makes every kind of mail the
// server sends: boards, the answers to each command, refusals with and
// without a board, the answer to a mail without a command, the "please
// confirm" mail, the limit's notice, vacations, digests and an apology.
func everyKindOfMail(t *testing.T) []mailKind {
	t.Helper()
	w := newWorld(t)
	w.srv.Deadlines.DaysPerMove = 3
	w.srv.Deadlines.DigestHour = 7
	var out []mailKind
	keep := func(name, user string) got {
		t.Helper()
		m := w.last(user)
		out = append(out, mailKind{name, m})
		return m
	}
	// The "please confirm" mail comes before the challenge is sent.
	w.deliver(w.write("ada", w.srv.Address, "command", "", "challenge icesickle "+w.sys.Address("bob")))
	w.step()
	confirm := keep("please-confirm", "ada")
	w.deliver(w.reply("ada", confirm, "challenge icesickle "+w.sys.Address("bob")))
	w.step()
	keep("challenge-sent", "ada")
	inv := keep("invitation", "bob")
	w.deliver(w.reply("bob", inv, "accept"))
	w.step()
	keep("first-board", "ada")

	w.deliver(w.reply("ada", w.last("ada"), "L@c3\nA line of comment."))
	w.step()
	board := keep("board", "bob")
	s := replay(t, w, 1).Final()
	legal := s.Moves(nil)
	w.deliver(w.reply("bob", board, "preview "+s.FormatMove(legal[len(legal)-1])))
	w.step()
	keep("preview", "bob")
	w.deliver(w.reply("bob", board, "moves"))
	w.step()
	keep("moves", "bob")
	w.deliver(w.reply("bob", board, "a1xd4"))
	w.step()
	keep("refusal-board", "bob")
	w.deliver(w.reply("bob", board, "history"))
	w.step()
	keep("history", "bob")
	w.deliver(w.write("ada", w.srv.Address, "help", "", "help"))
	w.step()
	keep("help", "ada")
	w.deliver(w.write("ada", w.srv.Address, "my games", "", "games"))
	w.step()
	keep("games", "ada")

	w.deliver(w.write("cy", w.srv.Address, "board", "", "board"))
	w.step()
	keep("refusal", "cy")
	w.deliver(w.write("cy", w.srv.Address, "hello", "", "Hello, how do I play here? I saw your address on the club's page."))
	w.step()
	keep("no-command", "cy")
	w.srv.ErrorLimit = 2
	w.deliver(w.write("cy", w.srv.Address, "hello again", "", "Hello again."))
	w.step()
	keep("limit-notice", "cy")
	w.srv.ErrorLimit = 100

	w.send("bob", "vacation 5")
	keep("vacation", "bob")
	keep("vacation-notice", "ada")
	w.clock.Advance(5*24*time.Hour + time.Hour)
	w.tick()
	keep("vacation-over", "bob")
	w.send("bob", "digest on")
	keep("digest-on", "bob")
	w.clock.Advance(24 * time.Hour)
	w.tick()
	w.tick()
	for _, m := range w.inbox("bob") {
		if strings.Contains(m.header.Get("Subject"), "games waiting") {
			out = append(out, mailKind{"digest", m})
			break
		}
	}

	// A game whose position code takes more than a line, and the moves
	// of one piece.
	w.send("cy", "challenge pikemen "+w.sys.Address("dee")+" "+w.sys.Address("eve"))
	w.deliver(w.reply("dee", w.last("dee"), "accept"))
	w.step()
	w.deliver(w.reply("eve", w.last("eve"), "accept"))
	w.step()
	keep("board-pikemen", "cy")
	w.deliver(w.reply("cy", w.last("cy"), "moves"))
	w.step()
	m := keep("moves-pikemen", "cy")
	cell := ""
	for _, l := range strings.Split(m.text, "\n") {
		if k, _, ok := strings.Cut(strings.TrimSpace(l), ":  "); ok && len(k) <= 3 {
			cell = k
			break
		}
	}
	w.deliver(w.reply("cy", w.last("cy"), "moves "+cell))
	w.step()
	keep("moves-cell", "cy")

	// The analysis of a finished game: its graph in place of the text
	// chart; of two and of three seats (the Pikemen game, played on a
	// few moves and resigned).
	quickAnalyses(w)
	fw := &forgeryWorld{world: w}
	three := []string{"cy", "dee", "eve"}
	for k := range 12 {
		seat := replay(t, w, 2).Final().ToMove()
		fw.reply(three[seat-1], 2, seat, moveFor(t, w, 2, k))
	}
	fw.reply("cy", 2, 1, "resign")
	fw.reply("dee", 2, 2, "analyze")
	w.runAnalyses()
	if a := keep("analysis-3-seats", "dee"); !strings.Contains(a.text, "Computer analysis of Pikemen #2") {
		t.Fatalf("dee's answer to analyze:\n%s", a.text)
	}
	fw.reply("bob", 1, 2, "resign")
	fw.reply("bob", 1, 2, "analyze")
	w.runAnalyses()
	if a := keep("analysis", "bob"); !strings.Contains(a.text, "Computer analysis of IceSickle #1") {
		t.Fatalf("bob's answer to analyze:\n%s", a.text)
	}

	if _, err := w.srv.DB.Exec(`UPDATE pbem_games SET record = 'garbage' WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	w.deliver(w.reply("bob", w.last("bob"), "board"))
	w.step()
	keep("apology", "bob")
	return out
}

// flat is text with its line breaks and runs of spaces made single
// spaces: what a mail says, however its lines are wrapped.
func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// writeMailFiles writes a mail's parts into dir, to look at in a
// browser: NAME.html (its pictures' cid: links made file names),
// NAME-N.png and NAME.txt.
func writeMailFiles(t *testing.T, dir, name string, raw []byte) string {
	t.Helper()
	p := mailParts(t, raw)
	html := p.html
	n := 0
	for cid, img := range p.images {
		n++
		file := fmt.Sprintf("%s-%d.png", name, n)
		if err := os.WriteFile(filepath.Join(dir, file), img, 0o644); err != nil {
			t.Fatal(err)
		}
		html = strings.ReplaceAll(html, "cid:"+cid, file)
	}
	path := filepath.Join(dir, name+".html")
	if err := os.WriteFile(path, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".txt"), []byte(strings.ReplaceAll(p.text, "\r\n", "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Every kind of mail has the board mails' layout: an HTML part with a
// viewport, no block of fixed-width text wider than the text part's 78
// columns and no text board beside a picture; a text part whose lines
// are at most 78 characters, its first a short sentence or title; and
// the picture of the position wherever one is shown. ICEPOST_MAIL_DIR=DIR
// writes every mail's parts there, to look at.
func TestEveryMailIsLikeABoardMail(t *testing.T) {
	t.Parallel() // a long test: it runs beside the other long ones
	kinds := everyKindOfMail(t)
	dir := os.Getenv("ICEPOST_MAIL_DIR")
	seen := map[string]bool{}
	for _, k := range kinds {
		seen[k.name] = true
		t.Run(k.name, func(t *testing.T) {
			p := mailParts(t, k.m.raw)
			if dir != "" {
				writeMailFiles(t, dir, k.name, k.m.raw)
			}
			if !strings.Contains(p.html, `<meta name="viewport" content="width=device-width, initial-scale=1">`) {
				t.Errorf("the HTML has no viewport:\n%s", p.html)
			}
			for _, pre := range preBlocks(p.html) {
				for _, line := range strings.Split(pre, "\n") {
					if n := utf8.RuneCountInString(line); n > 78 {
						t.Errorf("a <pre> line of %d characters: %q", n, line)
					}
				}
			}
			text := strings.ReplaceAll(p.text, "\r\n", "\n")
			for _, line := range strings.Split(text, "\n") {
				if n := utf8.RuneCountInString(line); n > 78 {
					t.Errorf("a text line of %d characters: %q", n, line)
				}
			}
			if first, _, _ := strings.Cut(text, "\n"); utf8.RuneCountInString(first) > 72 || !strings.Contains(p.html, "<b>"+html.EscapeString(first)+"</b>") {
				t.Errorf("the first line is not a headline: %q", first)
			}
			boardText := strings.Contains(text, "+--")
			if boardText != (len(p.images) == 1) || len(p.images) > 1 {
				t.Errorf("a text board: %v; %d pictures", boardText, len(p.images))
			}
			if strings.Contains(p.html, "+--") {
				t.Errorf("the HTML shows the text board")
			}
			for cid := range p.images {
				if !p.related || !strings.Contains(p.html, `src="cid:`+cid+`"`) {
					t.Errorf("the HTML does not show its picture %s", cid)
				}
			}
		})
	}
	for _, name := range []string{"board", "preview", "moves", "refusal-board", "history", "help", "games", "refusal", "no-command", "please-confirm", "limit-notice", "vacation", "digest-on", "digest", "apology", "invitation", "analysis", "analysis-3-seats"} {
		if !seen[name] {
			t.Errorf("no mail of the kind %q was made", name)
		}
	}
}

// preBlocks are the texts of the HTML's <pre> elements, unescaped.
func preBlocks(h string) []string {
	var out []string
	for {
		i := strings.Index(h, "<pre")
		if i < 0 {
			return out
		}
		h = h[i:]
		j, k := strings.Index(h, ">"), strings.Index(h, "</pre>")
		if j < 0 || k < j {
			return out
		}
		out = append(out, html.UnescapeString(h[j+1:k]))
		h = h[k:]
	}
}

// A preview shows the position after the moves previewed, drawn as a
// board is (with "preview" in its title), while the game stays where it
// was.
func TestPreviewShowsThePreviewedPosition(t *testing.T) {
	w := newWorld(t)
	startGame(t, w)
	w.deliver(w.reply("ada", w.last("ada"), "L@c3"))
	w.step()
	s := replay(t, w, 1).Final()
	w.deliver(w.reply("bob", w.last("bob"), "preview S@a1 M@e5"))
	w.step()
	p := mailParts(t, w.last("bob").raw)
	next, _, err := rules.Play(s, "S@a1")
	if err != nil {
		t.Fatal(err)
	}
	after, m2, err := rules.Play(next, "M@e5")
	if err != nil {
		t.Fatal(err)
	}
	d, _ := rules.DiagramOf(after, 2, next, m2)
	var want bytes.Buffer
	if err := render.PNG(&want, d, render.Names("ada", "bob"), render.Title("IceSickle #1, preview")); err != nil {
		t.Fatal(err)
	}
	if len(p.images) != 1 {
		t.Fatalf("the preview has %d pictures", len(p.images))
	}
	for _, img := range p.images {
		if !bytes.Equal(img, want.Bytes()) {
			t.Errorf("the preview's picture is not that of the position after S@a1 M@e5")
		}
	}
	if !strings.Contains(p.html, "Last move: ada M@e5") || !strings.Contains(p.html, "Pieces: a1 small, c3 large, e5 medium.") {
		t.Errorf("the picture's words:\n%s", p.html)
	}
	if ply, _ := gameRow(t, w, 1); ply != 1 {
		t.Errorf("the preview played something: ply %d", ply)
	}
}
