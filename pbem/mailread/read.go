package mailread

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"

	"icepost/pbem/mailaddr"
)

// SelfHeader is the header field icepost sets (to "1") on every mail it
// sends; Read marks a mail carrying it as automatic, so the server never
// answers itself.
const SelfHeader = "X-Icepost"

// Limits on what Read looks at. Past them a mail is still read, but parts
// are cut short or ignored.
const (
	MaxInput      = 32 << 20 // bytes of a whole mail read at most
	MaxCommands   = 8        // command lines taken from the top of a reply
	maxPartBytes  = 4 << 20  // bytes of one text part decoded at most
	maxParts      = 200      // MIME parts visited at most
	maxDepth      = 8        // multipart nesting followed at most
	maxLines      = 20000    // body lines looked at
	maxComment    = 16 << 10 // bytes of comment kept
	maxHeaderText = 8 << 10  // bytes of one header field decoded
	maxListItems  = 100      // addresses, references kept
	maxUnread     = 200      // bytes of the line kept when no command was read
)

// Message is what the daemon needs from one incoming mail.
type Message struct {
	From       string   // sender address in its canonical form (package mailaddr); "" if none could be read
	ReturnPath string   // Return-Path address, canonical; "" when absent, null or not an address
	NullSender bool     // Return-Path: <> (a bounce)
	To, Cc     []string // recipient addresses, canonical
	Subject    string   // decoded, white space collapsed
	MessageID  string   // without angle brackets
	InReplyTo  string   // first id of In-Reply-To, without angle brackets
	References []string // ids of References, without angle brackets

	// Raw material for the daemon's reply token; this package does not
	// interpret tokens. PlusParts are the "+detail" parts of the local
	// parts of the To, Cc, Delivered-To and X-Original-To addresses
	// ("games+TOKEN@host" gives "TOKEN"), in order, without repeats.
	// SubjectTags are the texts inside [brackets] in the subject.
	PlusParts   []string
	SubjectTags []string

	Commands []Command // the commands read, see ParseCommand; empty if none
	Comment  string    // the author's text after the commands; "" if none
	// Unread is the first line of the author's own text when no command
	// was read from the mail (at most maxUnread bytes), so that the
	// answer can say what it made of it: "bord", "did you mean board?".
	Unread string
	// FromSubject is set when the commands came from the subject line
	// because the body had none.
	FromSubject bool

	Auto       bool   // automatic mail (auto-reply, bounce, list, icepost's own): never answer it
	AutoReason string // why Auto is set

	// AuthResults are the Authentication-Results header values, raw, top
	// (most recent) first, for the daemon to check against its own
	// authserv-id.
	AuthResults []string

	// Text is the decoded body text the commands were looked for in, before
	// quotes and signatures were cut (HTML already made text).
	Text string
}

// ErrUnreadable is wrapped by the error Read returns for a mail whose header
// cannot be read at all.
var ErrUnreadable = errors.New("mailread: unreadable mail")

// Read reads one mail. It fails only when the mail's header cannot be read;
// broken MIME, unknown charsets and truncated encodings give what could be
// decoded. A mail without a command is not an error: Commands is empty.
// lang tells the games' words and the commands (see Language).
func Read(r io.Reader, lang Language) (*Message, error) {
	br := bufio.NewReader(io.LimitReader(r, MaxInput))
	h, err := textproto.ReadHeader(br)
	if err != nil && !(errors.Is(err, io.EOF) && h.Len() > 0) {
		return nil, fmt.Errorf("%w: header: %v", ErrUnreadable, err)
	}
	if h.Len() == 0 {
		return nil, fmt.Errorf("%w: no header fields", ErrUnreadable)
	}
	m := &Message{}
	m.readHeader(h)

	w := walker{}
	w.walk(h, br, 0)
	text := w.plain
	if !w.hasPlain {
		text = ""
		if w.hasHTML {
			text = htmlText(w.html)
		}
	}
	m.Text = normalize(text)

	lines := ownLines(m.Text)
	m.Commands, m.Comment = commandsAndComment(lines, lang)
	if len(m.Commands) == 0 {
		m.Unread = firstLine(lines)
	}
	if len(m.Commands) == 0 {
		if c, ok := ParseCommand(bareSubject(m.Subject), lang); ok {
			m.Commands = []Command{c}
			m.FromSubject = true
			m.Comment = joinComment(lines)
		}
	}
	if w.report && !m.Auto {
		m.Auto, m.AutoReason = true, "Content-Type: multipart/report"
	}
	return m, nil
}

func (m *Message) readHeader(h textproto.Header) {
	mh := mail.Header{Header: message.Header{Header: h}}

	if as := addresses(mh, "From"); len(as) > 0 {
		m.From = as[0]
	} else if as := addresses(mh, "Sender"); len(as) > 0 {
		m.From = as[0]
	}
	m.To = addresses(mh, "To")
	m.Cc = addresses(mh, "Cc")
	m.Subject = decodeHeaderText(h.Get("Subject"))
	if id, err := mh.MessageID(); err == nil {
		m.MessageID = id
	} else {
		m.MessageID = strings.Trim(strings.TrimSpace(h.Get("Message-Id")), "<>")
	}
	if ids := msgIDs(mh, "In-Reply-To"); len(ids) > 0 {
		m.InReplyTo = ids[0]
	}
	m.References = msgIDs(mh, "References")

	rp := h.Get("Return-Path")
	switch t := strings.TrimSpace(rp); {
	case h.Has("Return-Path") && (t == "<>" || t == "" || strings.ReplaceAll(t, " ", "") == "<>"):
		m.NullSender = true
	case t != "":
		m.ReturnPath = canonical(strings.Trim(t, "<> "))
	}

	var plus []string
	for _, key := range []string{"To", "Cc", "Delivered-To", "X-Original-To"} {
		as := m.To
		switch key {
		case "Cc":
			as = m.Cc
		case "Delivered-To", "X-Original-To":
			as = nil
			for _, v := range h.Values(key) {
				if a := lenientAddress(v); a != "" {
					as = append(as, a)
				}
			}
		}
		for _, a := range as {
			local := a[:max(strings.LastIndexByte(a, '@'), 0)]
			if k := strings.IndexByte(local, '+'); k >= 0 && k+1 < len(local) {
				plus = appendUnique(plus, local[k+1:])
			}
		}
	}
	m.PlusParts = plus
	m.SubjectTags = bracketed(m.Subject)

	for _, v := range h.Values("Authentication-Results") {
		if len(m.AuthResults) < maxListItems {
			m.AuthResults = append(m.AuthResults, strings.Join(strings.Fields(v), " "))
		}
	}
	m.Auto, m.AutoReason = autoReason(h, m)
}

// addresses reads an address list header; when it does not parse, the
// addresses are picked out leniently.
func addresses(mh mail.Header, key string) []string {
	var out []string
	if list, err := mh.AddressList(key); err == nil {
		for _, a := range list {
			if c, err := mailaddr.FromParsed(a); err == nil && len(out) < maxListItems {
				out = append(out, c)
			}
		}
		return out
	}
	for _, part := range strings.Split(mh.Get(key), ",") {
		if a := lenientAddress(part); a != "" && len(out) < maxListItems {
			out = append(out, a)
		}
	}
	return out
}

// lenientAddress picks an address out of text that is not a valid address
// list: the last <...> holding an '@', else the first word holding one.
func lenientAddress(s string) string {
	if len(s) > maxHeaderText {
		s = s[:maxHeaderText]
	}
	if i := strings.LastIndexByte(s, '<'); i >= 0 {
		if j := strings.IndexByte(s[i:], '>'); j > 0 && isAddress(s[i+1:i+j]) {
			return canonical(s[i+1 : i+j])
		}
	}
	for _, f := range strings.Fields(s) {
		f = strings.Trim(f, `<>"',;()`)
		if isAddress(f) {
			return canonical(f)
		}
	}
	return ""
}

// canonical is a's canonical form (package mailaddr), "" when a is not
// an address.
func canonical(a string) string {
	c, err := mailaddr.Canonical(a)
	if err != nil {
		return ""
	}
	return c
}

func msgIDs(mh mail.Header, key string) []string {
	ids, err := mh.MsgIDList(key)
	if err != nil || len(ids) == 0 {
		ids = nil
		for _, f := range strings.Fields(mh.Get(key)) {
			if f = strings.Trim(f, "<>,"); f != "" {
				ids = append(ids, f)
			}
		}
	}
	if len(ids) > maxListItems {
		ids = ids[len(ids)-maxListItems:] // the newest are last
	}
	return ids
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// bracketed returns the texts inside [ ] in s.
func bracketed(s string) []string {
	var out []string
	for len(out) < 10 {
		i := strings.IndexByte(s, '[')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], ']')
		if j < 0 {
			break
		}
		if t := strings.TrimSpace(s[i+1 : i+j]); t != "" {
			out = append(out, t)
		}
		s = s[i+j+1:]
	}
	return out
}

// bareSubject strips reply and forward prefixes (Re:, Fwd:, AW:, SV: ...,
// also repeated and numbered like "Re[2]:") and bracketed tags from a
// subject, leaving what the sender typed.
func bareSubject(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '[':
			depth++
		case r == ']' && depth > 0:
			depth--
			b.WriteByte(' ')
		case depth == 0:
			b.WriteRune(r)
		}
	}
	s = strings.TrimSpace(b.String())
	for {
		colon := strings.IndexByte(s, ':')
		if colon < 0 {
			return s
		}
		p := strings.ToLower(strings.TrimSpace(s[:colon]))
		if i := strings.IndexAny(p, "(0123456789"); i > 0 {
			p = strings.TrimSpace(p[:i]) // Re2:, Re(2):
		}
		switch p {
		case "re", "fw", "fwd", "aw", "wg", "sv", "vs", "vb", "tr", "rv", "enc", "odp", "r", "ref", "antw", "rif", "res", "ynt", "atb", "ha":
			s = strings.TrimSpace(s[colon+1:])
		default:
			return s
		}
	}
}

// walker collects the first text/plain and text/html body parts of a mail.
type walker struct {
	plain, html       string
	hasPlain, hasHTML bool
	report            bool
	parts             int
}

func (w *walker) walk(h textproto.Header, body io.Reader, depth int) {
	w.parts++
	if w.parts > maxParts || depth > maxDepth {
		return
	}
	mediaType, params := contentType(h)
	if depth == 0 && mediaType == "multipart/report" {
		w.report = true
	}
	if strings.HasPrefix(mediaType, "multipart/") {
		boundary := params["boundary"]
		if boundary == "" {
			// No boundary: guess it from the first "--" line, else read
			// the body as plain text.
			raw, _ := io.ReadAll(io.LimitReader(body, maxPartBytes))
			boundary = guessBoundary(raw)
			if boundary == "" {
				w.text("text/plain", params, h, raw)
				return
			}
			body = bytes.NewReader(raw)
		}
		mr := textproto.NewMultipartReader(body, boundary)
		for !w.done() && w.parts <= maxParts {
			p, err := mr.NextPart()
			if err != nil {
				return // end, or broken: keep what was found
			}
			w.walk(p.Header, p, depth+1)
		}
		return
	}
	if !strings.HasPrefix(mediaType, "text/") || strings.HasPrefix(strings.ToLower(h.Get("Content-Disposition")), "attachment") {
		return
	}
	if (mediaType == "text/plain" && w.hasPlain) || (mediaType == "text/html" && w.hasHTML) {
		return
	}
	if mediaType != "text/plain" && mediaType != "text/html" {
		return
	}
	raw, _ := io.ReadAll(io.LimitReader(body, maxPartBytes))
	w.text(mediaType, params, h, raw)
}

func (w *walker) done() bool { return w.hasPlain }

func (w *walker) text(mediaType string, params map[string]string, h textproto.Header, raw []byte) {
	b := decodeTransfer(h.Get("Content-Transfer-Encoding"), raw)
	s, _ := decodeCharset(params["charset"], b)
	if mediaType == "text/html" {
		w.html, w.hasHTML = s, true
		return
	}
	if strings.EqualFold(params["format"], "flowed") {
		s = unflow(s, strings.EqualFold(params["delsp"], "yes"))
	}
	w.plain, w.hasPlain = s, true
}

// contentType parses Content-Type leniently: text/plain when absent or
// unreadable, the bare media type when only the parameters are broken.
func contentType(h textproto.Header) (string, map[string]string) {
	v := h.Get("Content-Type")
	if strings.TrimSpace(v) == "" {
		return "text/plain", map[string]string{}
	}
	mt, params, err := mime.ParseMediaType(v)
	if err == nil {
		return mt, params
	}
	mt = strings.ToLower(strings.TrimSpace(strings.SplitN(v, ";", 2)[0]))
	params = map[string]string{}
	// Pick out boundary and charset by hand from broken parameters.
	for _, p := range strings.Split(v, ";")[1:] {
		k, val, ok := strings.Cut(p, "=")
		if !ok {
			continue
		}
		k = strings.ToLower(strings.TrimSpace(k))
		val = strings.Trim(strings.TrimSpace(val), `"`)
		if _, dup := params[k]; !dup && val != "" {
			params[k] = val
		}
	}
	if !strings.Contains(mt, "/") {
		mt = "text/plain"
	}
	return mt, params
}

// guessBoundary finds a multipart boundary from the body: the first line
// that starts with "--" and is followed later by a header-like line.
func guessBoundary(raw []byte) string {
	for _, line := range bytes.SplitN(raw, []byte("\n"), 200) {
		line = bytes.TrimRight(line, "\r \t")
		if len(line) > 2 && len(line) <= 72 && bytes.HasPrefix(line, []byte("--")) {
			return string(bytes.TrimSuffix(line[2:], []byte("--")))
		}
	}
	return ""
}

// firstLine is the first line of lines with text on it, trimmed and cut
// to maxUnread bytes.
func firstLine(lines []string) string {
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" {
			if len(l) > maxUnread {
				l = strings.ToValidUTF8(l[:maxUnread], "")
			}
			return l
		}
	}
	return ""
}
