package mailread

import (
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
)

// The package decodes the charsets that mail to a games server mostly uses
// by itself: UTF-8, UTF-16 and the common single-byte sets (named in
// charmaps.go, decoded with golang.org/x/text's charmap). Every other
// charset a mail client may name (Shift_JIS, GB18030, Big5, EUC-KR,
// ISO-2022-JP, ...) goes through golang.org/x/text's WHATWG index, as
// go-message/charset would do, but without setting go-message's
// process-wide CharsetReader.
// A charset nobody knows is read as UTF-8 when it is valid UTF-8, else as
// windows-1252; the commands are ASCII either way.

// decodeCharset converts b from the named charset to valid UTF-8. known
// reports whether the charset was one the package knows.
func decodeCharset(name string, b []byte) (s string, known bool) {
	name = strings.ToLower(strings.Trim(strings.TrimSpace(name), `"'`))
	switch name {
	case "", "us-ascii", "ascii", "ansi_x3.4-1968", "iso646-us":
		// Undeclared or ASCII but with 8-bit bytes: UTF-8 if it is, else
		// the usual windows-1252.
		if utf8.Valid(b) {
			return string(b), true
		}
		return fromSingleByte(charmap.Windows1252, b), true
	case "utf-8", "utf8", "unicode-1-1-utf-8", "x-unicode20utf8":
		return strings.ToValidUTF8(string(b), "\uFFFD"), true
	case "utf-16", "utf-16le", "utf-16be", "ucs-2":
		return fromUTF16(name, b), true
	}
	if t, ok := singleByte[name]; ok {
		return fromSingleByte(t, b), true
	}
	if enc, err := htmlindex.Get(name); err == nil {
		if out, err := enc.NewDecoder().Bytes(b); err == nil {
			return strings.ToValidUTF8(string(out), "\uFFFD"), true
		}
	}
	if utf8.Valid(b) {
		return string(b), false
	}
	return fromSingleByte(charmap.Windows1252, b), false
}

func fromUTF16(name string, b []byte) string {
	big := name == "utf-16be"
	switch {
	case len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF:
		big, b = true, b[2:]
	case len(b) >= 2 && b[0] == 0xFF && b[1] == 0xFE:
		big, b = false, b[2:]
	case name == "utf-16" || name == "ucs-2":
		big = true // RFC 2781: big-endian without a BOM
	}
	u := make([]uint16, len(b)/2)
	for i := range u {
		if big {
			u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		} else {
			u[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
		}
	}
	return string(utf16.Decode(u))
}

// wordDecoder decodes RFC 2047 encoded words in header fields with the
// package's own charsets.
var wordDecoder = &mime.WordDecoder{
	CharsetReader: func(charset string, input io.Reader) (io.Reader, error) {
		b, err := io.ReadAll(io.LimitReader(input, maxHeaderText))
		if err != nil {
			return nil, err
		}
		s, _ := decodeCharset(charset, b)
		return strings.NewReader(s), nil
	},
}

// decodeHeaderText decodes encoded words; a field that fails to decode is
// kept as it came, made valid UTF-8.
func decodeHeaderText(v string) string {
	if len(v) > maxHeaderText {
		v = v[:maxHeaderText]
	}
	if d, err := wordDecoder.DecodeHeader(v); err == nil {
		v = d
	}
	v = strings.ToValidUTF8(v, "\uFFFD")
	return strings.Join(strings.Fields(v), " ")
}

// decodeTransfer undoes a Content-Transfer-Encoding. It never fails: bad
// base64 or quoted-printable yields what could be decoded.
func decodeTransfer(enc string, raw []byte) []byte {
	switch strings.ToLower(strings.TrimSpace(enc)) {
	case "base64":
		return decodeBase64(raw)
	case "quoted-printable":
		return decodeQP(raw)
	}
	return raw
}

// decodeBase64 decodes leniently: characters outside the alphabet are
// skipped, decoding stops at padding, and a truncated tail is dropped.
func decodeBase64(raw []byte) []byte {
	clean := make([]byte, 0, len(raw))
scan:
	for _, c := range raw {
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/':
			clean = append(clean, c)
		case c == '=':
			break scan
		}
	}
	if len(clean)%4 == 1 {
		clean = clean[:len(clean)-1]
	}
	out := make([]byte, base64.RawStdEncoding.DecodedLen(len(clean)))
	n, _ := base64.RawStdEncoding.Decode(out, clean)
	return out[:n]
}

// decodeQP decodes quoted-printable leniently (RFC 2045 6.7, with the
// robustness the RFC recommends): a bad escape is kept literally.
func decodeQP(raw []byte) []byte {
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '=' {
			out = append(out, c)
			continue
		}
		// Soft line break: '=' then optional blanks then a line end.
		j := i + 1
		for j < len(raw) && (raw[j] == ' ' || raw[j] == '\t') {
			j++
		}
		if j == len(raw) {
			i = j - 1
			continue
		}
		if raw[j] == '\n' {
			i = j
			continue
		}
		if raw[j] == '\r' {
			if j+1 < len(raw) && raw[j+1] == '\n' {
				j++
			}
			i = j
			continue
		}
		if i+2 < len(raw) && isHex(raw[i+1]) && isHex(raw[i+2]) {
			out = append(out, unhex(raw[i+1])<<4|unhex(raw[i+2]))
			i += 2
			continue
		}
		out = append(out, c)
	}
	return out
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// normalize makes decoded text uniform for the line matchers: LF line ends,
// no-break spaces as spaces, zero-width and control characters removed,
// trailing blanks removed, valid UTF-8.
func normalize(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == '\r':
			if i < len(s) && s[i] == '\n' {
				continue
			}
			b.WriteByte('\n')
		case r == '\n', r == '\t':
			b.WriteRune(r)
		case r == '\u00A0', r == '\u202F', r == '\u2007', r == '\u3000':
			b.WriteByte(' ')
		case r == '\u200B', r == '\u200C', r == '\u200D', r == '\u2060', r == '\uFEFF', r == '\u00AD',
			r == '\u200E', r == '\u200F':
		case r < 0x20, r == 0x7F, r >= 0x80 && r < 0xA0:
		case r == '\u2028', r == '\u2029':
			b.WriteByte('\n')
		default:
			b.WriteRune(r)
		}
	}
	lines := strings.Split(b.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(lines, "\n")
}

// unflow decodes a format=flowed text/plain body (RFC 3676): a line that
// ends in a space continues on the next line of the same quote depth,
// space-stuffing is undone, and with DelSp=yes the soft space is deleted.
// Lines come back with quote markers as "> " prefixes.
func unflow(s string, delSp bool) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var out []string
	var cur bytes.Buffer
	depth, open := 0, false
	flush := func() {
		if !open {
			return
		}
		line := cur.String()
		if depth > 0 {
			line = strings.Repeat(">", depth) + " " + line
		}
		out = append(out, line)
		cur.Reset()
		open = false
	}
	for _, line := range strings.Split(s, "\n") {
		d := 0
		for d < len(line) && line[d] == '>' {
			d++
		}
		rest := strings.TrimPrefix(line[d:], " ")
		sig := rest == "-- "
		flowed := !sig && strings.HasSuffix(rest, " ")
		if open && d != depth {
			flush()
		}
		if flowed && delSp {
			rest = rest[:len(rest)-1]
		}
		cur.WriteString(rest)
		depth, open = d, true
		if !flowed {
			flush()
		}
	}
	flush()
	return strings.Join(out, "\n")
}
