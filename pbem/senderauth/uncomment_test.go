package senderauth

import "testing"

func TestUncomment(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{in: "a (b) c", want: "a   c"},
		{in: "a(b)c", want: "a c"},
		{in: "a (b (c) d) e", want: "a   e"},
		{in: `a (b \) c) d`, want: "a   d"},
		{in: `a (b \\) c`, want: "a   c"},
		{in: `a (b " c) d`, want: "a   d"},
		{in: `a="b.c@d"`, want: "a=b.c@d"},
		{in: `a="b\.c"`, want: "a=b.c"},
		{in: `a="b c"`, want: `a=""`},
		{in: `a="b;c"`, want: `a=""`},
		{in: `a="b(c"`, want: `a=""`},
		{in: `a="b=c"`, want: `a=""`},
		{in: `a="b\"c"`, want: `a=""`},
		{in: `a=""`, want: `a=""`},
		{in: `"" b`, want: `"" b`},
		{in: "a\tb", want: "a\tb"},
		{in: "a (\xff) b", want: "a   b"},
		{in: "a (b", err: "an unclosed comment"},
		{in: "a b)", err: "a ')' outside a comment"},
		{in: `a (b\`, err: "a bad quoted-pair in a comment"},
		{in: "a (b\\\x00)", err: "a bad quoted-pair in a comment"},
		{in: `a="b`, err: "an unclosed quoted string"},
		{in: `a="b\`, err: "a bad quoted-pair in a quoted string"},
		{in: `a\;b`, err: "a backslash outside a quoted string or comment"},
		{in: "a\x00", err: "a control character"},
		{in: "a\nb", err: "a control character"},
		{in: "a\xffb", err: "non-ASCII outside a quoted string or comment"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := uncomment(tc.in)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("uncomment(%q) = %q, %v; want error %q", tc.in, got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("uncomment(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
}
