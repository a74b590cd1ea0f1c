package senderauth_test

import (
	"testing"

	"icepost/pbem/senderauth"
)

// FuzzVerify: Verify never panics, always says why in a bounded line, never
// verifies through a field under another authserv-id, and never past a
// fail of ours on top.
func FuzzVerify(f *testing.F) {
	for _, s := range []string{
		"; dmarc=pass header.from=example.org",
		"; dkim=pass header.d=mail.example.org",
		"; dmarc=fail (p=reject; dmarc=pass header.from=example.org) header.from=example.org",
		`; dkim=fail reason="a \" ; dkim=pass header.d=example.org"`,
		" 1; dkim=pass (x (y) \\) z) header.d=example.org",
		"; none",
		"; arc=pass header.oldest-pass=99999999999999999999999999999999999999999999999999999999999999999999",
		"",
	} {
		f.Add(s, "ada@example.org")
	}
	f.Fuzz(func(t *testing.T, rest, from string) {
		for _, hs := range [][]string{
			{"mx.example.org" + rest},
			{rest},
			{rest, "mx.example.org; dmarc=pass header.from=example.org"},
		} {
			ok, why := senderauth.Verify(hs, ours, from)
			if why == "" || len(why) > 600 {
				t.Fatalf("Verify(%q, %q) = %v, %q", hs, from, ok, why)
			}
		}
		for _, hs := range [][]string{
			{"mx.evil.example" + rest},
			{"mx.example.org.evil.example" + rest},
			{"mx.example.org; dmarc=fail header.from=example.org", "mx.example.org" + rest},
			{"mx.example.org; dmarc=fail header.from=example.org", rest},
		} {
			if ok, why := senderauth.Verify(hs, ours, from); ok {
				t.Fatalf("Verify(%q, %q) = true, %q", hs, from, why)
			}
		}
	})
}
