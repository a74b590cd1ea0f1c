package pbem_test

import (
	"bytes"
	"image/png"
	"io"
	"strings"
	"testing"

	"icepost/pbem"

	gomail "github.com/emersion/go-message/mail"
)

// parts are the parts of a board mail that its picture needs.
type parts struct {
	html    string
	images  map[string][]byte // by Content-ID, without brackets
	related bool              // the HTML is in a multipart/related
	text    string
}

func mailParts(t *testing.T, raw []byte) parts {
	t.Helper()
	mr, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	p := parts{images: map[string][]byte{}, related: bytes.Contains(raw, []byte("Content-Type: multipart/related; type=\"text/html\""))}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		h, ok := part.Header.(*gomail.InlineHeader)
		if !ok {
			continue
		}
		b, _ := io.ReadAll(part.Body)
		switch ct, _, _ := h.ContentType(); ct {
		case "text/html":
			p.html = string(b)
		case "text/plain":
			p.text = string(b)
		case "image/png":
			p.images[strings.Trim(h.Get("Content-ID"), "<>")] = b
		}
	}
	return p
}

// A board mail's HTML shows the board as an inline PNG that the mail
// carries, with alt text and the position code; its text part
// keeps the text board, every line under 78 characters.
func TestBoardMailPicture(t *testing.T) {
	w := newWorld(t)
	startGame(t, w)
	w.deliver(w.reply("ada", w.last("ada"), "L@c3"))
	w.step()
	// ada, who moved, gets a short confirmation (TestMailsPerTurn); her
	// next board shows the picture as bob's does.
	boards := map[string]got{"bob": w.last("bob")}
	w.deliver(w.reply("bob", w.last("bob"), "M@d4"))
	w.step()
	boards["ada"] = w.last("ada")
	for _, who := range []string{"bob", "ada"} {
		m := boards[who]
		p := mailParts(t, m.raw)
		if !p.related || len(p.images) != 1 {
			t.Fatalf("%s: related %v, %d images:\n%s", who, p.related, len(p.images), m.raw[:min(len(m.raw), 3000)])
		}
		for cid, img := range p.images {
			if !strings.Contains(p.html, `src="cid:`+cid+`"`) {
				t.Errorf("%s: the HTML does not show the image %s:\n%s", who, cid, p.html)
			}
			cfg, err := png.DecodeConfig(bytes.NewReader(img))
			if err != nil || cfg.Width < 300 {
				t.Errorf("%s: the image: %v, %+v", who, err, cfg)
			}
			if len(img) > 60<<10 {
				t.Errorf("%s: the picture takes %d bytes", who, len(img))
			}
		}
		for _, want := range []string{`name="viewport"`, `alt="IceSickle`, "Position: IceSickle "} {
			if !strings.Contains(p.html, want) {
				t.Errorf("%s: the HTML lacks %q:\n%s", who, want, p.html)
			}
		}
		if strings.Contains(p.html, "+---+") || strings.Contains(p.html, "<svg") {
			t.Errorf("%s: the HTML has the text board or an SVG", who)
		}
		if !strings.Contains(p.text, "+---+") {
			t.Errorf("%s: the text part has no text board:\n%s", who, p.text)
		}
		for _, line := range strings.Split(strings.ReplaceAll(p.text, "\r", ""), "\n") {
			if len(line) >= 78 {
				t.Errorf("%s: a line of %d characters: %q", who, len(line), line)
			}
		}
	}
}

// A game ended by resignation says so, and no longer who is to move.
func TestBoardMailAfterResignation(t *testing.T) {
	w := newWorld(t)
	startGame(t, w)
	w.deliver(w.reply("bob", w.last("bob"), "resign"))
	w.step()
	got := w.last("ada").text
	if !strings.Contains(got, "Game over: ada wins by resignation") || strings.Contains(got, "Seat 1 to move") {
		t.Errorf("the last board:\n%s", got)
	}
	p := mailParts(t, w.last("ada").raw)
	if strings.Contains(p.html, "to move") || !strings.Contains(p.html, "Game over: ada wins.") {
		t.Errorf("the HTML still names someone to move, or not the winner:\n%s", p.html)
	}
}

func TestWrapCode(t *testing.T) {
	code := "Pikemen 2 12 L2UL2UL2UM2US2U3/L2UM2UM2US2U4/L2UM2US2U5/M2US2U5S1U/S2U5S1UM1U/5S1UM1UL1U/4S1UM1UM1UL1U/3S1UM1UL1UL1UL1U 0:0 1"
	lines := pbem.WrapCode(code, 40)
	if len(lines) < 2 {
		t.Fatalf("wrapCode did not break %q", code)
	}
	for _, l := range lines {
		if len(l) > 40 {
			t.Errorf("line %q is too long", l)
		}
	}
	if got := strings.Join(lines, " "); strings.ReplaceAll(strings.ReplaceAll(got, "/ ", "/"), "  ", " ") != code {
		t.Errorf("wrapCode(%q) = %q: joined it is %q", code, lines, got)
	}
	if got := pbem.WrapCode("IceLady 8/8 4 4 1", 76); len(got) != 1 {
		t.Errorf("a short code was broken: %q", got)
	}
}
