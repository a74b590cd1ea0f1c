package mailread

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unicode/utf8"
)

// FuzzRead feeds arbitrary mails to Read: it must never panic, and what it
// returns must be well-formed (valid UTF-8, bounded, commands canonical).
func FuzzRead(f *testing.F) {
	for _, glob := range []string{"testdata/*.eml", realDir + "/talon/standard_replies/*.eml", realDir + "/talon/*.eml"} {
		files, _ := filepath.Glob(glob)
		for _, p := range files {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
	}
	for _, p := range []string{"html_replies/gmail.html", "html_replies/ms_outlook_2003.html", "OLK_SRC_BODY_SECTION.html"} {
		if b, err := os.ReadFile(filepath.Join(realDir, "talon", p)); err == nil {
			f.Add(append([]byte("From: a@b.example\nContent-Type: text/html\n\n"), b...))
		}
	}
	f.Add([]byte("From: a@b.example\nSubject: Re: c3xe5\n\n> q\nOn x wrote:\n\nh1(nw)\n-- \nsig"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := Read(bytes.NewReader(b), grammar)
		if err != nil {
			r := Summary(bytes.NewReader(b), grammar)
			if r.Error == "" {
				t.Fatal("Summary lost the error")
			}
			return
		}
		if len(m.Commands) > MaxCommands {
			t.Fatalf("%d commands", len(m.Commands))
		}
		if !utf8.ValidString(m.Comment) || !utf8.ValidString(m.Subject) || !utf8.ValidString(m.Text) {
			t.Fatal("invalid UTF-8 out")
		}
		if len(m.Comment) > maxComment {
			t.Fatalf("comment of %d bytes", len(m.Comment))
		}
		for _, c := range m.Commands {
			// Canonical forms read back as themselves.
			if again, ok := ParseCommand(c.String(), grammar); !ok || again.String() != c.String() {
				t.Fatalf("command %q reads back as %q, %v", c, again, ok)
			}
		}
		if m.Auto && m.AutoReason == "" {
			t.Fatal("Auto without reason")
		}
		if _, err := m.Result().JSON(); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzParseCommand: canonical output is a fixed point.
func FuzzParseCommand(f *testing.F) {
	for _, s := range []string{"c3xe5", "h1(NW)", "L@a1-c3-c5", "challenge pikemen seats=3 bob@x.org", "vacation 007", "e7-f8=k"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, ok := ParseCommand(s, grammar)
		if !ok {
			return
		}
		if again, ok := ParseCommand(c.String(), grammar); !ok || !reflect.DeepEqual(again, c) {
			t.Fatalf("%q -> %q -> %q, %v", s, c, again, ok)
		}
	})
}
