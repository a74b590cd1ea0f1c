package games_test

import (
	"slices"
	"testing"

	"icepost/rules/counting"
	"icepost/rules/games"
)

func TestLookup(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"IceSickle", "IceSickle"}, {"icesickle", "IceSickle"}, {"Ice-Sickle", "IceSickle"}, {"ice sickle", "IceSickle"},
		{"ICE_LADY", "IceLady"}, {"Ice Lady", "IceLady"}, {"pikemen", "Pikemen"}, {"icefrogs", "IceFrogs"},
		{"chess", ""}, {"", ""}, {"ice", ""},
	} {
		g, ok := games.Lookup(tt.in)
		if got := ""; ok {
			got = g.Name()
			if got != tt.want {
				t.Errorf("Lookup(%q) = %s, want %q", tt.in, got, tt.want)
			}
		} else if tt.want != "" {
			t.Errorf("Lookup(%q) found nothing, want %s", tt.in, tt.want)
		}
	}
}

func TestRegister(t *testing.T) {
	if _, ok := games.Lookup("counting"); ok {
		t.Fatal("Counting is known before it is registered")
	}
	unregister := games.Register(counting.Game)
	if g, ok := games.Lookup("COUNTING"); !ok || g != counting.Game {
		t.Errorf("Lookup(COUNTING) after Register = %v, %v", g, ok)
	}
	if n := games.Names(); n[len(n)-1] != "Counting" {
		t.Errorf("Names() = %v, want Counting last", n)
	}
	if c, ok := games.Token("+2"); !ok || c != "+2" {
		t.Errorf("Token(+2) = %q, %v", c, ok)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("registering Counting twice did not panic")
			}
		}()
		games.Register(counting.Game)
	}()
	unregister()
	if _, ok := games.Lookup("counting"); ok || slices.Contains(games.Names(), "Counting") {
		t.Error("Counting is still known after unregister")
	}
	if _, ok := games.Token("+2"); ok {
		t.Error("+2 is still a move after unregister")
	}
}

func TestToken(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"l@C3", "L@c3"}, {"A1XD4", "a1xd4"}, {"h1(nw)", "h1:NW"}, {"g4-e6:u", "g4-e6:U"},
		{"c3xe5xc7", "c3xe5xc7"}, {"e7-f8=k", "e7-f8=K"}, {"m@a1-b1", "M@a1-b1"}, {"PASS", "pass"},
		{"hello", ""}, {"c3", ""}, {"a1-b2-c3:NW", ""}, {"X@c3", ""}, {"M@a1xb1", ""}, {"a0-b1", ""},
	} {
		c, ok := games.Token(tt.in)
		if (tt.want != "") != ok || c != tt.want {
			t.Errorf("Token(%q) = %q, %v; want %q", tt.in, c, ok, tt.want)
		}
	}
}
