package pbem

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/textproto"
	"strings"
	"time"

	"icepost/pbem/mailread"
)

// outMail is one mail to send: plain text; an HTML part, which is the
// same text in a <pre> (so that proportional fonts keep a text board
// lined up) unless the mail brings its own HTML and inline images (a
// board mail: the board as a picture); and attachments.
type outMail struct {
	From       string // the server's address
	FromName   string
	To         string
	ReplyTo    string
	Subject    string
	MessageID  string // without angle brackets
	InReplyTo  string
	References []string
	Text       string
	// HTML, when set, is the HTML part, and Inline the images it shows
	// (src="cid:..."): they go with it in a multipart/related.
	HTML        string
	Inline      []inlineImage
	Attachments []attachment
	Date        time.Time
	// Reply is set for replies to a player's mail (RFC 3834
	// auto-replied); other mails are auto-generated.
	Reply bool
}

type attachment struct {
	Name, Type string
	Data       []byte
}

// inlineImage is an image an HTML part shows by its Content-ID.
type inlineImage struct {
	ContentID string // without angle brackets
	Name      string // a file name for clients that save it
	Type      string // "image/png"
	Data      []byte
}

func randomID() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func encodeHeader(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\r' || r == '\n' {
			return ' '
		}
		return r
	}, s)
	return mime.QEncoding.Encode("utf-8", s)
}

func writeQP(w *bytes.Buffer, text string) {
	qp := quotedprintable.NewWriter(w)
	qp.Write([]byte(strings.ReplaceAll(text, "\n", "\r\n")))
	qp.Close()
}

// bytes renders the mail as RFC 5322 text with CRLF line ends.
func (m *outMail) bytes() []byte {
	var b bytes.Buffer
	h := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	from := m.From
	if m.FromName != "" {
		from = fmt.Sprintf("%s <%s>", encodeHeader(m.FromName), m.From)
	}
	h("From", from)
	h("To", m.To)
	if m.ReplyTo != "" {
		h("Reply-To", m.ReplyTo)
	}
	h("Subject", encodeHeader(m.Subject))
	h("Date", m.Date.Format(time.RFC1123Z))
	h("Message-ID", "<"+m.MessageID+">")
	if m.InReplyTo != "" {
		h("In-Reply-To", "<"+m.InReplyTo+">")
	}
	if len(m.References) > 0 {
		refs := make([]string, len(m.References))
		for i, r := range m.References {
			refs[i] = "<" + r + ">"
		}
		h("References", strings.Join(refs, " "))
	}
	if m.Reply {
		h("Auto-Submitted", "auto-replied")
	} else {
		h("Auto-Submitted", "auto-generated")
	}
	h(mailread.SelfHeader, "1")
	h("MIME-Version", "1.0")

	alt := func(w *multipart.Writer) {
		p, _ := w.CreatePart(textproto.MIMEHeader{
			"Content-Type":              {"text/plain; charset=utf-8"},
			"Content-Transfer-Encoding": {"quoted-printable"},
		})
		var body bytes.Buffer
		writeQP(&body, m.Text)
		p.Write(body.Bytes())
		if m.HTML != "" {
			m.writeRelated(w)
			return
		}
		p, _ = w.CreatePart(textproto.MIMEHeader{
			"Content-Type":              {"text/html; charset=utf-8"},
			"Content-Transfer-Encoding": {"quoted-printable"},
		})
		body.Reset()
		writeQP(&body, "<!DOCTYPE html><html><body><pre style=\"font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 14px; line-height: 1.2\">"+
			html.EscapeString(m.Text)+"</pre></body></html>\n")
		p.Write(body.Bytes())
	}

	var body bytes.Buffer
	if len(m.Attachments) == 0 {
		w := multipart.NewWriter(&body)
		h("Content-Type", "multipart/alternative; boundary=\""+w.Boundary()+"\"")
		b.WriteString("\r\n")
		alt(w)
		w.Close()
	} else {
		mixed := multipart.NewWriter(&body)
		h("Content-Type", "multipart/mixed; boundary=\""+mixed.Boundary()+"\"")
		b.WriteString("\r\n")
		var inner bytes.Buffer
		aw := multipart.NewWriter(&inner)
		alt(aw)
		aw.Close()
		p, _ := mixed.CreatePart(textproto.MIMEHeader{"Content-Type": {"multipart/alternative; boundary=\"" + aw.Boundary() + "\""}})
		p.Write(inner.Bytes())
		for _, a := range m.Attachments {
			p, _ := mixed.CreatePart(textproto.MIMEHeader{
				"Content-Type":              {a.Type + "; charset=utf-8"},
				"Content-Disposition":       {mime.FormatMediaType("attachment", map[string]string{"filename": a.Name})},
				"Content-Transfer-Encoding": {"quoted-printable"},
			})
			var qb bytes.Buffer
			writeQP(&qb, string(a.Data))
			p.Write(qb.Bytes())
		}
		mixed.Close()
	}
	b.Write(body.Bytes())
	return b.Bytes()
}

// writeRelated writes the HTML part and its inline images as one
// multipart/related part of w (RFC 2387), the HTML first.
func (m *outMail) writeRelated(w *multipart.Writer) {
	var inner bytes.Buffer
	rw := multipart.NewWriter(&inner)
	p, _ := rw.CreatePart(textproto.MIMEHeader{
		"Content-Type":              {"text/html; charset=utf-8"},
		"Content-Transfer-Encoding": {"quoted-printable"},
	})
	var body bytes.Buffer
	writeQP(&body, m.HTML)
	p.Write(body.Bytes())
	for _, img := range m.Inline {
		p, _ := rw.CreatePart(textproto.MIMEHeader{
			"Content-Type":              {mime.FormatMediaType(img.Type, map[string]string{"name": img.Name})},
			"Content-Disposition":       {mime.FormatMediaType("inline", map[string]string{"filename": img.Name})},
			"Content-ID":                {"<" + img.ContentID + ">"},
			"Content-Transfer-Encoding": {"base64"},
		})
		writeBase64(p, img.Data)
	}
	rw.Close()
	p, _ = w.CreatePart(textproto.MIMEHeader{"Content-Type": {"multipart/related; type=\"text/html\"; boundary=\"" + rw.Boundary() + "\""}})
	p.Write(inner.Bytes())
}

// writeBase64 writes data in base64 in lines of 76 characters.
func writeBase64(w io.Writer, data []byte) {
	enc := base64.StdEncoding.EncodeToString(data)
	for len(enc) > 76 {
		io.WriteString(w, enc[:76]+"\r\n")
		enc = enc[76:]
	}
	io.WriteString(w, enc+"\r\n")
}
