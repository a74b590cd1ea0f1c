package notation

import "testing"

func TestSplitPlayer(t *testing.T) {
	for _, c := range []struct{ in, name, addr string }{
		{"Ada <ada@club.test>", "Ada", "ada@club.test"},
		{"  Ada Lovelace <ada@club.test> ", "Ada Lovelace", "ada@club.test"},
		{"Ada", "Ada", ""},
		{"<ada@club.test>", "", "ada@club.test"},
		{`img <"<img src=x onerror=alert(1)>"@club.test>`, "img", `"<img src=x onerror=alert(1)>"@club.test`},
		{`x <"a\"<b"@club.test>`, "x", `"a\"<b"@club.test`},
		{"a > b", "a > b", ""},
		{"no open>", "no open>", ""},
	} {
		name, addr := SplitPlayer(c.in)
		if name != c.name || addr != c.addr {
			t.Errorf("SplitPlayer(%q) = %q, %q; want %q, %q", c.in, name, addr, c.name, c.addr)
		}
	}
}
