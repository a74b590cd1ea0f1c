package mailread

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/emersion/go-message"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
)

// Charsets outside the package's own tables come through x/text: a move
// with a comment in Shift_JIS, GB18030, Big5, EUC-KR or ISO-2022-JP.
func TestEastAsianCharsets(t *testing.T) {
	comments := map[string]string{
		"Shift_JIS":   "よろしくお願いします",
		"GB18030":     "祝你好运",
		"Big5":        "祝你好運",
		"EUC-KR":      "행운을 빕니다",
		"ISO-2022-JP": "よろしく",
	}
	for name, comment := range comments {
		t.Run(name, func(t *testing.T) {
			enc, err := htmlindex.Get(name)
			if err != nil {
				t.Fatal(err)
			}
			body, err := enc.NewEncoder().String("c3xe5\r\n" + comment + "\r\n")
			if err != nil {
				t.Fatal(err)
			}
			raw := "From: ada@example.org\r\nTo: games@example.org\r\nSubject: Re: game\r\n" +
				"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=" + name + "\r\n\r\n" + body
			m, err := Read(strings.NewReader(raw), grammar)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Commands) != 1 || m.Commands[0].String() != "move c3xe5" || m.Comment != comment {
				t.Errorf("commands %q, comment %q; want move c3xe5 and %q", m.Commands, m.Comment, comment)
			}
		})
	}
}

// The single-byte charset names the package reads itself, aliases
// included, each with a text in that charset. Every one of them must keep
// decoding as it did when the tables were copied into the package.
var singleByteSamples = []struct {
	names []string
	enc   *charmap.Charmap // to make the sample's bytes
	text  string
}{
	{[]string{"windows-1250", "cp1250", "x-cp1250"}, charmap.Windows1250,
		"Příliš žluťoučký kůň úpěl ďábelské ódy – „ano“"},
	{[]string{"windows-1251", "cp1251", "x-cp1251"}, charmap.Windows1251,
		"Съешь же ещё этих мягких французских булок — №1"},
	{[]string{"windows-1252", "cp1252", "x-cp1252", "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1"},
		charmap.Windows1252, "Voilà, ça coûte 5 € — «très» cher™ ‘oui’"},
	{[]string{"iso-8859-2", "iso8859-2", "iso_8859-2", "latin2"}, charmap.ISO8859_2,
		"Zażółć gęślą jaźń; Šťastný"},
	{[]string{"iso-8859-5", "iso8859-5", "iso_8859-5"}, charmap.ISO8859_5,
		"Привет, мир! Ђорђе №5"},
	{[]string{"iso-8859-15", "iso8859-15", "iso_8859-15", "latin-9"}, charmap.ISO8859_15,
		"Œuvre à 5 €, Šárka, Žofie, Ÿ"},
	{[]string{"koi8-r", "koi8r"}, charmap.KOI8R, "Привет, ёжик ═ ░"},
	{[]string{"koi8-u", "koi8u"}, charmap.KOI8U, "Привіт, ґанок, їжак, Єва"},
	{[]string{"ibm866", "cp866"}, charmap.CodePage866, "Привет, ёж │ ░ №"},
	{[]string{"ibm850", "cp850"}, charmap.CodePage850, "Grüße, Ñandú, ©2024 ¿qué? ½"},
	{[]string{"macintosh", "mac", "x-mac-roman"}, charmap.Macintosh, "Café “quoted” – ƒ π ∞ ™"},
}

// Every single-byte name, in the spellings a mail may give it (any case,
// quoted, padded), decodes a sample with non-ASCII characters, in the body
// of a whole mail.
func TestSingleByteCharsets(t *testing.T) {
	for _, s := range singleByteSamples {
		body, err := s.enc.NewEncoder().String("c3xe5\r\n" + s.text + "\r\n")
		if err != nil {
			t.Fatalf("%s: %v", s.names[0], err)
		}
		for _, name := range s.names {
			for _, spelled := range []string{name, strings.ToUpper(name), `"` + name + `"`, " " + name + " "} {
				t.Run(spelled, func(t *testing.T) {
					if got, known := decodeCharset(spelled, []byte(body)); !known || got != "c3xe5\r\n"+s.text+"\r\n" {
						t.Errorf("decodeCharset = %q, %v; want %q", got, known, s.text)
					}
					raw := "From: ada@example.org\r\nSubject: Re: game\r\n" +
						"Content-Type: text/plain; charset=" + strings.TrimSpace(spelled) + "\r\n\r\n" + body
					m, err := Read(strings.NewReader(raw), grammar)
					if err != nil {
						t.Fatal(err)
					}
					if len(m.Commands) != 1 || m.Commands[0].String() != "move c3xe5" || m.Comment != s.text {
						t.Errorf("commands %q, comment %q; want move c3xe5 and %q", m.Commands, m.Comment, s.text)
					}
					// An encoded word in a header field, except in the
					// Latin-1 that package mime decodes itself.
					if spelled != name || strings.EqualFold(name, "iso-8859-1") {
						return
					}
					subject := "=?" + name + "?B?" + base64.StdEncoding.EncodeToString([]byte(body[7:len(body)-2])) + "?="
					if got := decodeHeaderText(subject); got != strings.Join(strings.Fields(s.text), " ") {
						t.Errorf("subject %s decodes to %q, want %q", subject, got, s.text)
					}
				})
			}
		}
	}
}

// Each single-byte name, the ASCII names and an unknown name (which all
// read 8-bit bytes that are not UTF-8 as windows-1252) decode every byte
// exactly as the golden file says: it was written with the tables the
// package had before it used golang.org/x/text's charmap.
func TestSingleByteGolden(t *testing.T) {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	names := []string{"", "us-ascii", "ascii", "ansi_x3.4-1968", "iso646-us", "x-unknown"}
	for _, s := range singleByteSamples {
		names = append(names, s.names...)
	}
	var b strings.Builder
	for _, name := range names {
		got, known := decodeCharset(name, all)
		fmt.Fprintf(&b, "%q known=%v\n%q\n", name, known, got)
	}
	checkGolden(t, "testdata/charsets.golden", b.String())
}

// The samples name every single-byte charset the package reads itself.
func TestSingleByteSamplesComplete(t *testing.T) {
	sampled := map[string]bool{}
	for _, s := range singleByteSamples {
		for _, name := range s.names {
			sampled[name] = true
			if _, ok := singleByte[name]; !ok {
				t.Errorf("%s is no longer read as a single-byte charset", name)
			}
		}
	}
	for name := range singleByte {
		if !sampled[name] {
			t.Errorf("%s has no sample in singleByteSamples", name)
		}
	}
}

// The package decodes charsets itself: nothing it links in (such as
// go-message/charset) sets go-message's process-wide CharsetReader.
func TestNoGlobalCharsetReader(t *testing.T) {
	if message.CharsetReader != nil {
		t.Error("go-message's CharsetReader is set")
	}
}
