package mailread

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzHTMLText feeds arbitrary markup to htmlText: it must never panic,
// and valid UTF-8 in gives valid UTF-8 out, trimmed.
func FuzzHTMLText(f *testing.F) {
	for _, c := range htmlGoldenCases {
		f.Add(c.in)
	}
	files, _ := filepath.Glob(realDir + "/talon/*/*.html")
	more, _ := filepath.Glob(realDir + "/talon/*.html")
	for _, p := range append(files, more...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := htmlText(s)
		if utf8.ValidString(s) && !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out: %q", out)
		}
		if out != strings.TrimSpace(out) {
			t.Fatalf("untrimmed: %q", out)
		}
	})
}
