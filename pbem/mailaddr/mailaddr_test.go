package mailaddr

import (
	"strings"
	"testing"
)

func TestCanonical(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ada@club.test", "ada@club.test"},
		{"Ada@Club.TEST", "ada@club.test"},
		{"ada@ｃｌｕｂ.test", "ada@club.test"},                  // full-width domain: one DNS name
		{"ada@bücher.example", "ada@xn--bcher-kva.example"}, // IDNA
		{"ada@BÜCHER.example", "ada@xn--bcher-kva.example"},
		{"\u212aim@club.test", "\u212aim@club.test"}, // KELVIN SIGN kept as written
		{"\u0130da@club.test", "\u0130da@club.test"}, // I WITH DOT ABOVE kept
		{"\u017fam@club.test", "\u017fam@club.test"}, // LONG S kept
		{"ｋｉｍ@club.test", "ｋｉｍ@club.test"},           // full-width local part kept
		{"Jörg@club.test", "Jörg@club.test"},         // non-ASCII: exactly as written
		{`"a b"@club.test`, `"a b"@club.test`},
		{`"ada"@club.test`, "ada@club.test"},
		{`"<img src=x onerror=alert(1)>"@club.test`, `"<img src=x onerror=alert(1)>"@club.test`},
		{"ada@localhost", "ada@localhost"},
	} {
		got, err := Canonical(c.in)
		if err != nil || got != c.want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", c.in, got, err, c.want)
			continue
		}
		if again, err := Canonical(got); err != nil || again != got {
			t.Errorf("Canonical(%q) = %q, %v: not idempotent", got, again, err)
		}
	}
}

func TestCanonicalRefuses(t *testing.T) {
	for _, in := range []string{
		"", "ada", "@club.test", "ada@", "a@b@club.test", "Ada <ada@club.test>", "<ada@club.test>",
		"ada@club.test\r\nBcc: x@y.test", "ada@[127.0.0.1]", "ada@club..test", "ada@-club.test",
		"ada@club_test.example", strings.Repeat("a", 300) + "@club.test", "ad\x00a@club.test", "a\xffda@club.test",
	} {
		if got, err := Canonical(in); err == nil {
			t.Errorf("Canonical(%q) = %q, want an error", in, got)
		} else if len(err.Error()) > 200 {
			t.Errorf("Canonical(%q): error of %d bytes", in, len(err.Error()))
		}
	}
}

// TestLookAlikes: every look-alike of kim@club.test is an address of its
// own, and none is kim's.
func TestLookAlikes(t *testing.T) {
	kim, _ := Canonical("kim@club.test")
	seen := map[string]string{kim: "kim@club.test"}
	for _, in := range []string{
		"\u212aim@club.test",      // KELVIN SIGN
		"\u212aIM@club.test",      // and upper-case ASCII beside it
		"k\u0131m@club.test",      // dotless i
		"\u0130da@club.test",      // I WITH DOT ABOVE (ida's)
		"\u017fim@club.test",      // long s
		"ｋim@club.test",           // full-width k
		"ｋｉｍ@club.test",           // all full-width
		"\u043aim@club.test",      // Cyrillic ka
		"\u03bai\u03bc@club.test", // Greek kappa and mu
		"kim\u200b@club.test",     // zero-width space
	} {
		got, err := Canonical(in)
		if err != nil {
			continue // refused: acts for nobody
		}
		if got == kim || Equal(in, "kim@club.test") {
			t.Errorf("%q is kim's address", in)
		}
		if prev, ok := seen[got]; ok && prev != in {
			t.Errorf("%q and %q share the form %q", in, prev, got)
		}
		seen[got] = in
	}
	ida, _ := Canonical("ida@club.test")
	if c, _ := Canonical("\u0130da@club.test"); c == ida {
		t.Errorf("İda is ida")
	}
}

func TestAddrSpec(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ada@club.test", "ada@club.test"},
		{"<img src=x onerror=alert(1)>@club.test", `"<img src=x onerror=alert(1)>"@club.test`},
		{"a b@club.test", `"a b"@club.test`},
	} {
		if got := addrSpec(c.in); got != c.want {
			t.Errorf("addrSpec(%q) = %q, want %q", c.in, got, c.want)
		}
		if back, err := Canonical(addrSpec(c.in)); err != nil || back != c.want {
			t.Errorf("Canonical(addrSpec(%q)) = %q, %v", c.in, back, err)
		}
	}
}

func TestQuote(t *testing.T) {
	if q := Quote(strings.Repeat("x", 10<<20)); len(q) > 100 {
		t.Errorf("Quote of 10 MB gives %d bytes", len(q))
	}
}

// FuzzCanonical: a canonical form is its own canonical form, and two
// inputs with different forms are never Equal.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{"ada@club.test", "\u212aim@club.test", `"a b"@Club.Test`, "ｋｉｍ@ｃｌｕｂ.test", "x@bücher.example"} {
		f.Add(s, "kim@club.test")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ca, erra := Canonical(a)
		if erra == nil {
			if again, err := Canonical(ca); err != nil || again != ca {
				t.Fatalf("Canonical(%q) = %q; of that: %q, %v", a, ca, again, err)
			}
		}
		cb, errb := Canonical(b)
		if erra == nil && errb == nil && (ca == cb) != Equal(a, b) {
			t.Fatalf("Equal(%q, %q) disagrees with %q vs %q", a, b, ca, cb)
		}
		if erra == nil && errb == nil && ca != cb && Equal(a, b) {
			t.Fatalf("%q and %q: different forms, equal", a, b)
		}
	})
}
