package senderauth_test

import (
	"strings"
	"testing"

	"icepost/pbem/senderauth"
)

const (
	ours = "mx.example.org"
	ada  = "ada@example.org"
)

func TestVerify(t *testing.T) {
	many := "mx.example.org" + strings.Repeat("; x=y", 1000) + "; dmarc=pass header.from=example.org"
	for _, tc := range []struct {
		name    string
		headers []string
		id      string // authServID; ours if ""
		from    string // ada if ""
		ok      bool
		why     string // a part of the reason
	}{
		// Verified.
		{name: "dmarc-pass", headers: []string{"mx.example.org; dmarc=pass header.from=example.org"}, ok: true, why: "dmarc=pass for example.org"},
		{name: "dkim-pass", headers: []string{"mx.example.org; dkim=pass header.d=example.org"}, ok: true, why: "dkim=pass for example.org, aligned with example.org"},
		{name: "dkim-pass-subdomain", headers: []string{"mx.example.org; dkim=pass header.d=mail.example.org"}, ok: true},
		{name: "dkim-pass-parent", headers: []string{"mx.example.org; dkim=pass header.d=example.org"}, from: "ada@sub.example.org", ok: true},
		{name: "dkim-pass-psl-org", headers: []string{"mx.example.org; dkim=pass header.d=mail.example.co.uk"}, from: "ada@example.co.uk", ok: true},
		{name: "version", headers: []string{"mx.example.org 1; dmarc=pass header.from=example.org"}, ok: true},
		{name: "id-upper-case", headers: []string{"MX.Example.ORG; dmarc=pass header.from=example.org"}, ok: true},
		{name: "config-upper-case", headers: []string{"mx.example.org; dmarc=pass header.from=example.org"}, id: "MX.EXAMPLE.ORG", ok: true},
		{name: "upper-case-everywhere", headers: []string{"mx.example.org; DMARC=PASS HEADER.FROM=EXAMPLE.ORG"}, from: "Ada@Example.Org", ok: true},
		{name: "others-passed-over", headers: []string{
			"spam.example.org; x=pass",
			"mx.example.org; dmarc=pass header.from=example.org",
			"mx.evil.example; dmarc=fail header.from=example.org",
		}, ok: true},
		{name: "ours-below-forged", headers: []string{
			"mx.example.org; dmarc=pass header.from=example.org",
			"mx.example.org; dmarc=pass header.from=evil.example",
		}, ok: true},
		{name: "real-world", headers: []string{"mx.example.org; dkim=pass (2048-bit key; unprotected) header.d=example.org header.i=@example.org header.b=\"AbC+/123\"; spf=pass (mx.example.org: domain of ada@example.org designates 192.0.2.1 as permitted sender) smtp.mailfrom=ada@example.org; dmarc=pass (p=reject dis=none) header.from=example.org"}, ok: true},
		{name: "comments-everywhere", headers: []string{"(a) mx.example.org (ours) 1 (v); (x) dmarc=pass (y) header.from=example.org (z)"}, ok: true},
		{name: "comment-glued", headers: []string{"mx.example.org(ours); dmarc=pass(ok)header.from=example.org(ok)"}, ok: true},
		{name: "quoted-value", headers: []string{`mx.example.org; dmarc=pass header.from="example.org"`}, ok: true},
		{name: "quoted-id", headers: []string{`"mx.example.org"; dmarc=pass header.from=example.org`}, ok: true},
		{name: "dmarc-pass-dkim-fail", headers: []string{"mx.example.org; dkim=fail header.d=example.org; dmarc=pass header.from=example.org"}, ok: true},
		{name: "one-dkim-pass-of-two", headers: []string{"mx.example.org; dkim=fail header.d=example.org; dkim=pass header.d=example.org"}, ok: true},
		{name: "dkim-pass-and-not-aligned", headers: []string{"mx.example.org; dkim=pass header.d=esp.example; dkim=pass header.d=example.org"}, ok: true},
		{name: "dmarc-none-dkim-aligned", headers: []string{"mx.example.org; dkim=pass header.d=example.org; dmarc=none header.from=example.org"}, ok: true},
		{name: "unknown-method", headers: []string{"mx.example.org; x-frob=pass header.q=1; dkim=pass header.d=example.org"}, ok: true},

		// Not verified.
		{name: "dmarc-fail-dkim-other", headers: []string{"mx.example.org; dkim=pass header.d=evil.example; dmarc=fail header.from=example.org"}, why: "dmarc=fail for example.org"},
		{name: "dmarc-fail-dkim-aligned", headers: []string{"mx.example.org; dkim=pass header.d=example.org; dmarc=fail header.from=example.org"}, why: "dmarc=fail for example.org"},
		{name: "dmarc-pass-other-dkim-aligned", headers: []string{"mx.example.org; dkim=pass header.d=example.org; dmarc=pass header.from=evil.example"}, why: "dmarc=pass for evil.example, not example.org"},
		{name: "dmarc-pass-and-fail", headers: []string{"mx.example.org; dmarc=pass header.from=example.org; dmarc=fail header.from=example.org"}, why: "dmarc=fail"},
		{name: "pass-in-comment-with-semicolon", headers: []string{"mx.example.org; dmarc=fail (p=reject; dmarc=pass header.from=example.org) header.from=example.org"}, why: "dmarc=fail for example.org"},
		{name: "pass-in-comment", headers: []string{"mx.example.org; dkim=fail (dkim=pass header.d=example.org) header.d=example.org"}, why: "dkim=fail for example.org"},
		{name: "pass-in-nested-comment", headers: []string{"mx.example.org; dkim=fail (a (b) ; dkim=pass header.d=example.org) header.d=example.org"}, why: "dkim=fail"},
		{name: "escaped-paren-in-comment", headers: []string{`mx.example.org; dkim=fail (a \) ; dkim=pass header.d=example.org) header.d=example.org`}, why: "dkim=fail"},
		{name: "pass-in-quoted-string", headers: []string{`mx.example.org; dkim=fail reason="x; dkim=pass header.d=example.org" header.d=evil.example`}, why: "dkim=fail for evil.example"},
		{name: "property-in-quoted-string", headers: []string{`mx.example.org; dkim=pass header.d=evil.example reason="a header.d=example.org b"`}, why: "not aligned"},
		{name: "paren-in-quoted-string", headers: []string{`mx.example.org; dkim=pass reason="a (b" header.d=evil.example reason=") c"`}, why: "dkim=pass for evil.example, not aligned with example.org"},
		{name: "quote-in-comment", headers: []string{`mx.example.org; dkim=fail (a " b) header.d=example.org (c " ; dkim=pass header.d=example.org)`}, why: "dkim=fail"},
		{name: "escaped-quote-in-quoted-string", headers: []string{`mx.example.org; dkim=fail reason="a \" ; dkim=pass header.d=example.org"`}, why: "dkim=fail"},
		{name: "other-id", headers: []string{"mx.evil.example; dmarc=pass header.from=example.org"}, why: "no Authentication-Results from mx.example.org"},
		{name: "other-id-prefix", headers: []string{"mx.example.org.evil.example; dmarc=pass header.from=example.org"}, why: "no Authentication-Results from"},
		{name: "fail-on-top-pass-below", headers: []string{
			"mx.example.org; dmarc=fail header.from=example.org",
			"mx.example.org; dmarc=pass header.from=example.org",
		}, why: "dmarc=fail for example.org"},
		{name: "dkim-other-domain", headers: []string{"mx.example.org; dkim=pass header.d=evil.example"}, why: "dkim=pass for evil.example, not aligned with example.org"},
		{name: "dkim-suffix-trick", headers: []string{"mx.example.org; dkim=pass header.d=example.org.evil.example"}, why: "not aligned"},
		{name: "dkim-name-trick", headers: []string{"mx.example.org; dkim=pass header.d=evilexample.org"}, why: "not aligned"},
		{name: "dkim-public-suffix", headers: []string{"mx.example.org; dkim=pass header.d=co.uk"}, from: "ada@example.co.uk", why: "dkim=pass for co.uk, not aligned with example.co.uk"},
		{name: "dkim-sibling-under-public-suffix", headers: []string{"mx.example.org; dkim=pass header.d=evil.co.uk"}, from: "ada@example.co.uk", why: "not aligned"},
		{name: "dkim-sibling-under-private-suffix", headers: []string{"mx.example.org; dkim=pass header.d=evil.github.io"}, from: "ada@ada.github.io", why: "not aligned"},
		{name: "dkim-trailing-dot", headers: []string{"mx.example.org; dkim=pass header.d=example.org."}, why: "not aligned"},
		{name: "dkim-only-header-i", headers: []string{"mx.example.org; dkim=pass header.i=@example.org"}, why: "dkim=pass without header.d"},
		{name: "dmarc-none", headers: []string{"mx.example.org; dmarc=none header.from=example.org"}, why: "no dmarc or dkim result"},
		{name: "dmarc-temperror", headers: []string{"mx.example.org; dmarc=temperror header.from=example.org"}, why: "dmarc=temperror"},
		{name: "dmarc-permerror", headers: []string{"mx.example.org; dmarc=permerror header.from=example.org"}, why: "dmarc=permerror"},
		{name: "dkim-none", headers: []string{"mx.example.org; dkim=none"}, why: "dkim=none without header.d"},
		{name: "dkim-neutral", headers: []string{"mx.example.org; dkim=neutral header.d=example.org"}, why: "dkim=neutral for example.org"},
		{name: "dkim-temperror", headers: []string{"mx.example.org; dkim=temperror header.d=example.org"}, why: "dkim=temperror"},
		{name: "dkim-policy", headers: []string{"mx.example.org; dkim=policy header.d=example.org"}, why: "dkim=policy"},
		{name: "no-result", headers: []string{"mx.example.org; none"}, why: "has no results"},
		{name: "no-semicolon", headers: []string{"mx.example.org"}, why: "has no results"},
		{name: "spf-only", headers: []string{"mx.example.org; spf=pass smtp.mailfrom=example.org"}, why: "no dmarc or dkim result"},
		{name: "arc-only", headers: []string{"mx.example.org; arc=pass"}, why: "no dmarc or dkim result"},
		{name: "no-authservid", headers: []string{"mx.example.org; dmarc=pass header.from=example.org"}, id: "-", why: "no authserv-id configured"},
		{name: "no-headers", why: "no Authentication-Results from mx.example.org"},
		{name: "empty-header", headers: []string{""}, why: "no authserv-id"},
		{name: "blank-header", headers: []string{"  "}, why: "no authserv-id"},
		{name: "empty-id", headers: []string{"; dmarc=pass header.from=example.org"}, why: "no authserv-id"},
		{name: "header-from-missing", headers: []string{"mx.example.org; dmarc=pass"}, why: "dmarc=pass without header.from"},
		{name: "header-from-empty", headers: []string{"mx.example.org; dmarc=pass header.from="}, why: "dmarc=pass without header.from"},
		{name: "header-from-missing-dkim-aligned", headers: []string{"mx.example.org; dmarc=fail; dkim=pass header.d=example.org"}, why: "dmarc=fail without header.from"},
		{name: "unsupported-version", headers: []string{"mx.example.org 2; dmarc=pass header.from=example.org"}, why: "unsupported version"},
		// RFC 8601 allows CFWS around "=", go-msgauth does not.
		{name: "comment-around-equals", headers: []string{"mx.example.org; dmarc (y) =pass header.from=example.org"}, why: "malformed"},
		{name: "comment-after-equals", headers: []string{"mx.example.org; dmarc=pass header.from=(y)example.org"}, why: "dmarc=pass without header.from"},
		{name: "space-before-equals", headers: []string{"mx.example.org; dkim = pass header.d=example.org"}, why: "malformed"},
		{name: "parse-error-after-pass", headers: []string{"mx.example.org; dmarc=pass header.from=example.org; garbage"}, why: "malformed"},
		{name: "arc-oldest-pass-long", headers: []string{"mx.example.org; arc=pass header.oldest-pass=" + strings.Repeat("9", 10000)}, why: "..."},
		{name: "arc-oldest-pass-bad", headers: []string{"mx.example.org; arc=pass header.oldest-pass=x; dmarc=pass header.from=example.org"}, why: "oldest-pass"},
		{name: "unreadable-above-stops", headers: []string{
			"spam.example.org; x=y (",
			"mx.example.org; dmarc=pass header.from=example.org",
		}, why: "Authentication-Results 1: an unclosed comment"},
		{name: "bad-version-above-stops", headers: []string{
			"mx.example.org 2; dmarc=fail header.from=example.org",
			"mx.example.org; dmarc=pass header.from=example.org",
		}, why: "Authentication-Results 1: msgauth: unsupported version"},
		{name: "dmarc-as-comment-only", headers: []string{"mx.example.org; (dmarc=pass header.from=example.org)"}, why: "has no results"},

		// The From address.
		{name: "from-no-at", headers: []string{"mx.example.org; dmarc=pass header.from=example.org"}, from: "example.org", why: "has no @"},
		{name: "from-empty-domain", headers: []string{"mx.example.org; dmarc=pass header.from="}, from: "ada@", why: "has no plain domain name"},
		{name: "from-empty", headers: []string{"mx.example.org; dmarc=pass header.from=example.org"}, from: "-", why: "has no @"},
		{name: "from-display-name", headers: []string{"mx.example.org; dmarc=pass header.from=example.org"}, from: "Ada <ada@example.org>", why: "has no plain domain name"},
		{name: "from-last-at", headers: []string{"mx.example.org; dmarc=pass header.from=example.org"}, from: `"ada@example.org"@evil.example`, why: "dmarc=pass for example.org, not evil.example"},
		{name: "from-kelvin", headers: []string{"mx.example.org; dmarc=pass header.from=kelvin.example"}, from: "ada@\u212aelvin.example", why: "has no plain domain name"},
		{name: "from-u-label", headers: []string{"mx.example.org; dkim=pass header.d=evil.xn--55qx5d.cn"}, from: "ada@example.公司.cn", why: "has no plain domain name"},
		{name: "from-a-label-sibling", headers: []string{"mx.example.org; dkim=pass header.d=evil.xn--55qx5d.cn"}, from: "ada@example.xn--55qx5d.cn", why: "not aligned"},

		// Bad input.
		{name: "100KB", headers: []string{"mx.example.org; dmarc=pass header.from=example.org " + strings.Repeat("x", 100<<10)}, why: "over 16384 bytes"},
		{name: "100KB-above", headers: []string{strings.Repeat("x", 100<<10), "mx.example.org; dmarc=pass header.from=example.org"}, why: "Authentication-Results 1 is over"},
		{name: "nul", headers: []string{"mx.example.org; dmarc=pass header.from=example.org\x00"}, why: "a control character"},
		{name: "nul-in-comment", headers: []string{"mx.example.org; dmarc=pass (\x00) header.from=example.org"}, why: "a control character"},
		{name: "nul-in-quoted-string", headers: []string{"mx.example.org; dmarc=pass reason=\"\x00\" header.from=example.org"}, why: "a control character"},
		{name: "newline", headers: []string{"mx.example.org;\r\n dmarc=pass header.from=example.org"}, why: "a control character"},
		{name: "escape", headers: []string{"mx.example.org; dmarc=pass header.from=example.org\x1b[2J"}, why: "a control character"},
		{name: "del", headers: []string{"mx.example.org; dmarc=pass header.from=example.org\x7f"}, why: "a control character"},
		{name: "tab", headers: []string{"mx.example.org;\tdmarc=pass\theader.from=example.org"}, ok: true},
		{name: "1000-results", headers: []string{many}, why: "over 100 results"},
		{name: "unbalanced-open", headers: []string{"mx.example.org; dmarc=pass header.from=example.org (p=none"}, why: "an unclosed comment"},
		{name: "unbalanced-close", headers: []string{"mx.example.org; dmarc=pass header.from=example.org p=none)"}, why: "a ')' outside a comment"},
		{name: "unbalanced-escaped", headers: []string{`mx.example.org; dmarc=pass header.from=example.org (p=none\)`}, why: "an unclosed comment"},
		{name: "unbalanced-nested", headers: []string{"mx.example.org; dmarc=pass header.from=example.org ((p=none)"}, why: "an unclosed comment"},
		{name: "backslash-at-end", headers: []string{`mx.example.org; dmarc=pass header.from=example.org (\`}, why: "a bad quoted-pair"},
		{name: "backslash-outside", headers: []string{`mx.example.org; dmarc=pass header.from=example.org\(`}, why: "a backslash outside"},
		{name: "unclosed-quote", headers: []string{`mx.example.org; dmarc=pass header.from=example.org reason="x`}, why: "an unclosed quoted string"},
		{name: "deep-nesting", headers: []string{"mx.example.org; dmarc=pass header.from=example.org " + strings.Repeat("(", 8000) + strings.Repeat(")", 8000)}, ok: true},
		{name: "invalid-utf8", headers: []string{"mx.example.org; dmarc=pass header.from=example.org\xff"}, why: "non-ASCII"},
		{name: "invalid-utf8-in-comment", headers: []string{"mx.example.org; dmarc=pass header.from=example.org (\xff\xfe)"}, ok: true},
		{name: "nbsp", headers: []string{"mx.example.org; dmarc=pass\u00a0header.from=example.org"}, why: "non-ASCII"},
		{name: "utf8-in-quoted-string", headers: []string{`mx.example.org; dmarc=pass reason="très bien" header.from=example.org`}, ok: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id, from := tc.id, tc.from
			switch id {
			case "":
				id = ours
			case "-":
				id = ""
			}
			switch from {
			case "":
				from = ada
			case "-":
				from = ""
			}
			ok, why := senderauth.Verify(tc.headers, id, from)
			if ok != tc.ok || !strings.Contains(why, tc.why) || why == "" {
				t.Errorf("Verify(%q, %q, %q) = %v, %q; want %v, %q", shorten(tc.headers), id, from, ok, why, tc.ok, tc.why)
			}
		})
	}
}

// shorten cuts long values for a failure message.
func shorten(hs []string) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		if len(h) > 200 {
			h = h[:200] + "..."
		}
		out[i] = h
	}
	return out
}
