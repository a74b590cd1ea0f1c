package mailread

import (
	"strings"
	"testing"

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
			if len(m.Commands) != 1 || m.Commands[0] != "move c3xe5" || m.Comment != comment {
				t.Errorf("commands %q, comment %q; want move c3xe5 and %q", m.Commands, m.Comment, comment)
			}
		})
	}
}
