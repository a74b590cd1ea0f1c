package outmail

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message"
	gomail "github.com/emersion/go-message/mail"

	"icepost/pbem/mailread"
	"icepost/rules/games"
)

// leaf is a part of a mail that is not multipart, its body decoded.
type leaf struct {
	header message.Header
	body   []byte
}

// readMail reads raw with go-message: its header, its structure as text
// ("multipart/alternative[text/plain text/html]") and its leaf parts in
// order.
func readMail(t *testing.T, raw []byte) (message.Header, string, []leaf) {
	t.Helper()
	e, err := message.Read(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("reading the mail back: %v\n%s", err, raw)
	}
	var leaves []leaf
	var shape func(e *message.Entity) string
	shape = func(e *message.Entity) string {
		ct, _, err := e.Header.ContentType()
		if err != nil {
			t.Fatalf("Content-Type %q: %v", e.Header.Get("Content-Type"), err)
		}
		mr := e.MultipartReader()
		if mr == nil {
			b, err := io.ReadAll(e.Body)
			if err != nil {
				t.Fatalf("%s: %v", ct, err)
			}
			leaves = append(leaves, leaf{e.Header, b})
			return ct
		}
		var kids []string
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", ct, err)
			}
			kids = append(kids, shape(p))
		}
		return ct + "[" + strings.Join(kids, " ") + "]"
	}
	s := shape(e)
	return e.Header, s, leaves
}

// checkLines fails when a line of raw does not end in CRLF, is longer
// than 998 octets (RFC 5322's limit), or, in the body, longer than 76
// (quoted-printable's and base64's lines): text lines stay under 78
// whatever the text's own. It returns the names of the top header's
// fields in order, as written, and its longest line.
func checkLines(t *testing.T, raw []byte) (names []string, headerMax int) {
	t.Helper()
	if !bytes.HasSuffix(raw, []byte("\r\n")) {
		t.Errorf("the mail does not end in CRLF")
	}
	inHeader := true
	for i, l := range bytes.Split(bytes.TrimSuffix(raw, []byte("\r\n")), []byte("\r\n")) {
		if bytes.ContainsAny(l, "\r\n") {
			t.Errorf("line %d has a bare CR or LF: %q", i+1, l)
		}
		limit := 76
		switch {
		case inHeader && len(l) == 0:
			inHeader = false
		case inHeader:
			limit = 998
			headerMax = max(headerMax, len(l))
			if k, _, ok := bytes.Cut(l, []byte(":")); ok && l[0] != ' ' && l[0] != '\t' {
				names = append(names, string(k))
			}
		}
		if len(l) > limit {
			t.Errorf("line %d has %d octets, more than %d: %q", i+1, len(l), limit, l)
		}
	}
	return names, headerMax
}

// crlf is text as a text part decodes: line ends as CRLF (RFC 2045's
// canonical form; the old code wrote them so too).
func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

func testPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 40, 30))
	for x := range 40 {
		for y := range 30 {
			img.Set(x, y, color.NRGBA{uint8(x * 6), uint8(y * 8), 200, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

var composeDate = time.Date(2026, 11, 22, 12, 0, 5, 0, time.FixedZone("", 3600))

// A board mail: text and HTML as alternatives, the HTML with the board
// as an inline PNG in a multipart/related, and the game record attached;
// every header as before, the picture and the record back byte for byte;
// the text part wrapped, the text board and the code kept as they are.
func TestComposeBoardMail(t *testing.T) {
	pic := testPNG(t)
	record := "[Game \"IceSickle\"]\n[Result \"*\"]\n\n1. L@c3 S@d4 *\n"
	board := "    a   b\n  +---+---+\n2 |   | L | 2\n  +---+---+\n"
	text := "IceSickle game 7\n  seat 1: ada <ada@club.test>\n\n" +
		strings.Repeat("a long line of news, ", 6) + "\n\n" + board + "\n" +
		"Position code:\n    " + strings.Repeat("x", 74) + "\ntrailing space \nend é\n"
	wantText := "IceSickle game 7\n  seat 1: ada <ada@club.test>\n\n" +
		"a long line of news, a long line of news, a long line of news, a long line\n" +
		"of news, a long line of news, a long line of news,\n\n" + board + "\n" +
		"Position code:\n    " + strings.Repeat("x", 74) + "\ntrailing space\nend é\n"
	m := &Mail{
		From: "games@club.test", FromName: "icepost",
		To: "ada@club.test", ReplyTo: "games+m7tok@club.test",
		Subject:   "icepost: IceSickle game 7, ada to move",
		MessageID: "m7tok.00aa@club.test", InReplyTo: "icepost-game-7-1@club.test",
		References: []string{"icepost-game-7-1@club.test"},
		Text:       text,
		Picture: &Picture{Board: board, Alt: "the board <L on b2>",
			Image: InlineImage{ContentID: "board-7-3-1.0011@club.test", Name: "icepost-game-7-move-3.png", Type: "image/png", Data: pic}},
		Attachments: []Attachment{{Name: "icepost-game-7.txt", Type: "text/plain", Data: []byte(record)}},
		Date:        composeDate,
	}
	raw, err := m.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	names, headerMax := checkLines(t, raw)
	if headerMax > 77 {
		t.Errorf("a header line of %d octets", headerMax)
	}

	h, shape, leaves := readMail(t, raw)
	if want := "multipart/mixed[multipart/alternative[text/plain multipart/related[text/html image/png]] text/plain]"; shape != want {
		t.Fatalf("structure:\n got %s\nwant %s", shape, want)
	}
	for k, want := range map[string]string{
		"From":           `"icepost" <games@club.test>`,
		"To":             "ada@club.test",
		"Reply-To":       "games+m7tok@club.test",
		"Subject":        "icepost: IceSickle game 7, ada to move",
		"Date":           "Sun, 22 Nov 2026 12:00:05 +0100",
		"Message-Id":     "<m7tok.00aa@club.test>",
		"In-Reply-To":    "<icepost-game-7-1@club.test>",
		"References":     "<icepost-game-7-1@club.test>",
		"Auto-Submitted": "auto-generated",
		"X-Icepost":      "1",
		"Mime-Version":   "1.0",
	} {
		if got := h.Get(k); got != want {
			t.Errorf("%s: %q, want %q", k, got, want)
		}
	}
	// The header in the order it always had, the names as the RFCs
	// spell them.
	if got, want := strings.Join(names, " "), "From To Reply-To Subject Date Message-ID In-Reply-To References Auto-Submitted X-Icepost MIME-Version Content-Type"; got != want {
		t.Errorf("header fields:\n got %s\nwant %s", got, want)
	}
	if !bytes.Contains(raw, []byte("\r\nContent-Type: multipart/related; type=\"text/html\";")) {
		t.Errorf("the multipart/related does not say its type first")
	}

	for i, want := range []struct {
		ct, cte, disp, body string
	}{
		{"text/plain; charset=utf-8", "quoted-printable", "", crlf(wantText)},
		{"text/html; charset=utf-8", "quoted-printable", "", string(leaves[1].body)},
		{"image/png; name=icepost-game-7-move-3.png", "base64", "inline; filename=icepost-game-7-move-3.png", string(pic)},
		{"text/plain; charset=utf-8", "quoted-printable", "attachment; filename=icepost-game-7.txt", crlf(record)},
	} {
		l := leaves[i]
		if got := l.header.Get("Content-Type"); got != want.ct {
			t.Errorf("part %d: Content-Type %q, want %q", i, got, want.ct)
		}
		if got := l.header.Get("Content-Transfer-Encoding"); got != want.cte {
			t.Errorf("part %d: Content-Transfer-Encoding %q, want %q", i, got, want.cte)
		}
		if got := l.header.Get("Content-Disposition"); got != want.disp {
			t.Errorf("part %d: Content-Disposition %q, want %q", i, got, want.disp)
		}
		if string(l.body) != want.body {
			t.Errorf("part %d (%s) does not come back as written:\n got %q\nwant %q", i, want.ct, l.body, want.body)
		}
	}
	htm := string(leaves[1].body)
	for _, want := range []string{`name="viewport"`, `<img src="cid:board-7-3-1.0011@club.test" alt="the board &lt;L on b2&gt;" width="40"`,
		"<b>IceSickle game 7</b>", ">seat 1: ada &lt;ada@club.test&gt;</div>", strings.Repeat("x", 74) + "</pre>"} {
		if !strings.Contains(htm, want) {
			t.Errorf("the HTML lacks %q:\n%s", want, htm)
		}
	}
	if strings.Contains(htm, "+---+") {
		t.Errorf("the HTML shows the text board beside its picture:\n%s", htm)
	}
	if got := leaves[2].header.Get("Content-Id"); got != "<board-7-3-1.0011@club.test>" {
		t.Errorf("the picture's Content-ID: %q", got)
	}
	if _, err := png.Decode(bytes.NewReader(leaves[2].body)); err != nil {
		t.Errorf("the picture: %v", err)
	}

	// As a mail client sees it: the record an attachment with its name.
	mr, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ah, ok := p.Header.(*gomail.AttachmentHeader); ok {
			name, _ := ah.Filename()
			files = append(files, name)
		}
	}
	if fmt.Sprint(files) != "[icepost-game-7.txt]" {
		t.Errorf("attachments: %v", files)
	}

	// As icepost reads mail: its own, never to be answered, the text part
	// taken over the HTML.
	msg, err := mailread.Read(bytes.NewReader(raw), mailread.Language{Games: games.Grammar{}})
	if err != nil {
		t.Fatal(err)
	}
	if !msg.Auto || msg.From != "games@club.test" || msg.MessageID != m.MessageID ||
		msg.InReplyTo != m.InReplyTo || fmt.Sprint(msg.References) != "[icepost-game-7-1@club.test]" ||
		!strings.Contains(msg.Text, "Position code:\n    xxxx") {
		t.Errorf("mailread: auto %v (%s), from %q, id %q, in-reply-to %q, references %v, text:\n%s",
			msg.Auto, msg.AutoReason, msg.From, msg.MessageID, msg.InReplyTo, msg.References, msg.Text)
	}
}

// A plain reply: text and HTML as alternatives, both from the text, no
// attachments; auto-replied; no Reply-To, In-Reply-To or References when
// it has none.
func TestComposeReply(t *testing.T) {
	text := "Moves you can make: L@c3 <or> S@d4 & more\n" + strings.Repeat("0123456789", 12) + "\n"
	m := &Mail{
		From: "games@club.test", FromName: "icepost", To: "bob@club.test",
		Subject: "icepost: help", MessageID: "n.99@club.test",
		Text: text, Date: composeDate, Reply: true,
	}
	raw, err := m.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if _, headerMax := checkLines(t, raw); headerMax > 77 {
		t.Errorf("a header line of %d octets", headerMax)
	}
	h, shape, leaves := readMail(t, raw)
	if shape != "multipart/alternative[text/plain text/html]" {
		t.Fatalf("structure: %s", shape)
	}
	if h.Get("Auto-Submitted") != "auto-replied" {
		t.Errorf("Auto-Submitted: %q", h.Get("Auto-Submitted"))
	}
	for _, k := range []string{"Reply-To", "In-Reply-To", "References"} {
		if h.Has(k) {
			t.Errorf("%s: %q in a mail that has none", k, h.Get(k))
		}
	}
	if string(leaves[0].body) != crlf(text) {
		t.Errorf("text:\n got %q\nwant %q", leaves[0].body, crlf(text))
	}
	if html := string(leaves[1].body); !strings.Contains(html, `<meta name="viewport"`) ||
		!strings.Contains(html, "<b>Moves you can make: L@c3 &lt;or&gt; S@d4 &amp; more</b><br>\r\n"+strings.Repeat("0123456789", 12)) {
		t.Errorf("HTML:\n%s", html)
	}
	for i, l := range leaves {
		if l.header.Get("Content-Transfer-Encoding") != "quoted-printable" || l.header.Has("Content-Disposition") {
			t.Errorf("part %d: %v", i, l.header.Map())
		}
	}
	msg, err := mailread.Read(bytes.NewReader(raw), mailread.Language{Games: games.Grammar{}})
	if err != nil {
		t.Fatal(err)
	}
	if !msg.Auto || msg.Subject != "icepost: help" || msg.Text != text {
		t.Errorf("mailread: auto %v, subject %q, text %q", msg.Auto, msg.Subject, msg.Text)
	}
}

// Non-ASCII in the subject and the display name goes as encoded words and
// comes back as written; a name with commas or quotes stays one address;
// a long subject and a long References are folded, each line under 78.
func TestComposeNonASCIIHeaders(t *testing.T) {
	var refs []string
	for i := range 12 {
		refs = append(refs, fmt.Sprintf("icepost-game-%d-1@club.test", i))
	}
	for _, c := range []struct {
		name, fromName, subject string
	}{
		{"accents", "Café Glacé", "icepost: partie 3, à toi de jouer — Zoë"},
		{"specials", `Ice Club, "Berlin" (Nord)`, "icepost: game 3"},
		{"specials and accents", "Eisclub, Köln", "icepost: Spiel 3 – du bist am Zug"},
		{"long", "icepost", strings.Repeat("icepost: ein sehr langer Betreff über Pyramiden ", 4)},
		{"line break", "ice\r\npost", "icepost:\r\nBcc: eve@evil.test"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := &Mail{
				From: "games@club.test", FromName: c.fromName, To: "zoë@club.test",
				Subject: c.subject, MessageID: "n.1@club.test", References: refs,
				Text: "Grüße\n", Date: composeDate,
			}
			raw, err := m.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			checkLines(t, raw)
			h, _, leaves := readMail(t, raw)
			mh := gomail.Header{Header: h}
			oneLine := strings.NewReplacer("\r", " ", "\n", " ")
			if got, err := mh.Subject(); err != nil || got != oneLine.Replace(c.subject) {
				t.Errorf("Subject: %q, %v; want %q", got, err, c.subject)
			}
			if from, err := mh.AddressList("From"); err != nil || len(from) != 1 ||
				from[0].Name != oneLine.Replace(c.fromName) || from[0].Address != "games@club.test" {
				t.Errorf("From %q: %v, %v", h.Get("From"), from, err)
			}
			if h.Has("Bcc") {
				t.Errorf("a line break in the subject made a header field")
			}
			if got, err := mh.MsgIDList("References"); err != nil || fmt.Sprint(got) != fmt.Sprint(refs) {
				t.Errorf("References: %v, %v", got, err)
			}
			if string(leaves[0].body) != "Grüße\r\n" {
				t.Errorf("text: %q", leaves[0].body)
			}
		})
	}
}

// A header go-message will not write (a line break in an address, which
// would start a field of its own) is an error, not a mail.
func TestComposeRefusesBrokenHeader(t *testing.T) {
	m := &Mail{From: "games@club.test", To: "ada@club.test\r\nBcc: eve@evil.test", MessageID: "n.1@club.test", Text: "hi\n", Date: composeDate}
	if raw, err := m.Bytes(); err == nil {
		t.Fatalf("no error; the mail:\n%s", raw)
	}
}
