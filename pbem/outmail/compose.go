// Package outmail writes the mails icepost sends: headers, a text part
// and an HTML part both read from one text by one set of rules, the
// picture of a position inline, and attachments. It knows nothing of
// games or players, so that every kind of mail the game service writes
// has the same layout and the same checks on its headers.
package outmail

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"mime"
	"net/mail"
	"strings"
	"time"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/textproto"

	"icepost/pbem/mailread"
)

// Mail is one mail to send: its text, the picture of a position
// when it shows one, and attachments. Its text part and its HTML part
// both come from Text and Picture, read one way (mailbody.go), so that
// every kind of mail has the layout of a board mail.
type Mail struct {
	From       string // the server's address
	FromName   string
	To         string
	ReplyTo    string
	Subject    string
	MessageID  string // without angle brackets
	InReplyTo  string
	References []string
	// Text is what the mail says, by the rules of mailbody.go: lines of
	// prose may be long (the text part wraps them), the first line is a
	// short sentence or a title.
	Text string
	// Picture, when set, is the board the HTML part shows in place of
	// the text board in Text.
	Picture     *Picture
	Attachments []Attachment
	Date        time.Time
	// Reply is set for replies to a player's mail (RFC 3834
	// auto-replied); other mails are auto-generated.
	Reply bool
}

type Attachment struct {
	Name, Type string
	Data       []byte
}

// InlineImage is an image an HTML part shows by its Content-ID.
type InlineImage struct {
	ContentID string // without angle brackets
	Name      string // a file name for clients that save it
	Type      string // "image/png"
	Data      []byte
}

func RandomID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

const (
	textType = "text/plain; charset=utf-8"
	htmlType = "text/html; charset=utf-8"
	qp       = "quoted-printable"
)

// Bytes renders the mail as RFC 5322 text with CRLF line ends, with
// go-message's writer:
//
//	multipart/mixed                  only with attachments
//	  multipart/alternative
//	    text/plain                   the text, wrapped (textPart)
//	    text/html                    the text as HTML (bodyHTML), or
//	    multipart/related            with the picture:
//	      text/html
//	      image/png                  inline, by Content-ID
//	  text/plain ...                 attachments, by file name
//
// Text goes quoted-printable (lines of at most 76 characters, whatever
// the text's own), images base64 in lines of 76. An error is a mail that
// cannot be written (a header go-message refuses): a bug, not something
// that passes.
func (m *Mail) Bytes() ([]byte, error) {
	var b bytes.Buffer
	ct := multipartType("multipart/alternative")
	if len(m.Attachments) > 0 {
		ct = multipartType("multipart/mixed")
	}
	h, err := m.header(ct)
	if err != nil {
		return nil, fmt.Errorf("pbem: composing a mail: %w", err)
	}
	w, err := message.CreateWriter(&b, h)
	if err != nil {
		return nil, fmt.Errorf("pbem: composing a mail: %w", err)
	}
	if len(m.Attachments) == 0 {
		err = m.writeAlternative(w)
	} else {
		err = m.writeMixed(w)
	}
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		return nil, fmt.Errorf("pbem: composing a mail: %w", err)
	}
	return b.Bytes(), nil
}

// header is the mail's header, contentType its Content-Type.
func (m *Mail) header(contentType string) (message.Header, error) {
	from := m.From
	if m.FromName != "" {
		from = (&mail.Address{Name: oneLine(m.FromName), Address: m.From}).String()
	}
	f := []string{
		"From", from,
		"To", m.To,
	}
	if m.ReplyTo != "" {
		f = append(f, "Reply-To", m.ReplyTo)
	}
	f = append(f,
		"Subject", mime.QEncoding.Encode("utf-8", oneLine(m.Subject)),
		"Date", m.Date.Format(time.RFC1123Z),
		"Message-ID", "<"+m.MessageID+">")
	if m.InReplyTo != "" {
		f = append(f, "In-Reply-To", "<"+m.InReplyTo+">")
	}
	if len(m.References) > 0 {
		f = append(f, "References", "<"+strings.Join(m.References, "> <")+">")
	}
	auto := "auto-generated"
	if m.Reply {
		auto = "auto-replied"
	}
	f = append(f,
		"Auto-Submitted", auto,
		mailread.SelfHeader, "1",
		"MIME-Version", "1.0",
		"Content-Type", contentType)
	return newHeader(f...)
}

// writeMixed writes the text and HTML as the first part of w, a
// multipart/mixed, and the attachments after them.
func (m *Mail) writeMixed(w *message.Writer) error {
	h, err := newHeader("Content-Type", multipartType("multipart/alternative"))
	if err != nil {
		return err
	}
	alt, err := w.CreatePart(h)
	if err != nil {
		return err
	}
	if err := m.writeAlternative(alt); err != nil {
		return err
	}
	if err := alt.Close(); err != nil {
		return err
	}
	for _, a := range m.Attachments {
		if err := writePart(w, a.Data,
			"Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": a.Name}),
			"Content-Transfer-Encoding", qp,
			"Content-Type", a.Type+"; charset=utf-8"); err != nil {
			return err
		}
	}
	return nil
}

// writeAlternative writes the text and the HTML as parts of w, a
// multipart/alternative: both from the mail's text, read once; the HTML
// with its picture in a multipart/related (writeRelated).
func (m *Mail) writeAlternative(w *message.Writer) error {
	board := ""
	if m.Picture != nil {
		board = m.Picture.Board
	}
	lines := readBody(headline(m.Text, m.Subject), board)
	if err := writePart(w, []byte(textPart(lines)), "Content-Transfer-Encoding", qp, "Content-Type", textType); err != nil {
		return err
	}
	body := bodyHTML(lines, m.Picture)
	if m.Picture != nil && m.Picture.Image.Data != nil {
		return writeRelated(w, body, m.Picture.Image)
	}
	return writePart(w, []byte(body), "Content-Transfer-Encoding", qp, "Content-Type", htmlType)
}

// writeRelated writes the HTML part and the image it shows as one
// multipart/related part of w (RFC 2387), the HTML first.
func writeRelated(w *message.Writer, body string, img InlineImage) error {
	// The type parameter first, as RFC 2387 writes it (go-message would
	// sort it after the boundary).
	h, err := newHeader("Content-Type", `multipart/related; type="text/html"; boundary="`+newBoundary()+`"`)
	if err != nil {
		return err
	}
	rel, err := w.CreatePart(h)
	if err != nil {
		return err
	}
	if err := writePart(rel, []byte(body), "Content-Transfer-Encoding", qp, "Content-Type", htmlType); err != nil {
		return err
	}
	if err := writePart(rel, img.Data,
		"Content-Disposition", mime.FormatMediaType("inline", map[string]string{"filename": img.Name}),
		"Content-ID", "<"+img.ContentID+">",
		"Content-Transfer-Encoding", "base64",
		"Content-Type", mime.FormatMediaType(img.Type, map[string]string{"name": img.Name})); err != nil {
		return err
	}
	return rel.Close()
}

// writePart writes a leaf part of w: the header fields given (name,
// value, ...) and data, encoded as its Content-Transfer-Encoding says.
func writePart(w *message.Writer, data []byte, fields ...string) error {
	h, err := newHeader(fields...)
	if err != nil {
		return err
	}
	p, err := w.CreatePart(h)
	if err != nil {
		return err
	}
	if _, err := p.Write(data); err != nil {
		return err
	}
	return p.Close()
}

// newHeader makes a header of the fields given (name, value, ...), each
// formatted and checked by go-message (folded at 76 characters where the
// value has a space to fold at; no line breaks in a value). It keeps
// their order and the names as given: go-message writes the field added
// last first, and would write Message-Id for Message-ID.
func newHeader(fields ...string) (message.Header, error) {
	var h message.Header
	for i := len(fields) - 2; i >= 0; i -= 2 {
		k, v := fields[i], fields[i+1]
		var one textproto.Header
		one.Add(k, v)
		raw, err := one.Raw(k)
		if err != nil {
			return message.Header{}, fmt.Errorf("header %s: %w", k, err)
		}
		h.AddRaw(append([]byte(k), raw[len(k):]...))
	}
	return h, nil
}

// multipartType is a multipart Content-Type with its boundary: given here,
// not chosen by go-message, whose writer would then set the field again
// and so write it first.
func multipartType(t string) string {
	return t + `; boundary="` + newBoundary() + `"`
}

// newBoundary is a random multipart boundary, as mime/multipart makes them.
func newBoundary() string {
	var b [30]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// oneLine puts a header text on one line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\r' || r == '\n' {
			return ' '
		}
		return r
	}, s)
}
