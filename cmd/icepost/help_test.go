package main

import (
	"strings"
	"testing"
)

// Every subcommand in the table runs, is listed in its parent's usage, and
// answers -h: with its own usage where it has one (subHelp), else with its
// parent's.
func TestHelpEverySubcommand(t *testing.T) {
	for _, c := range commands {
		if c.run == nil {
			t.Errorf("%s has no run", c.name)
		}
		if len(c.subcommands) == 0 {
			continue
		}
		_, parent, _ := icepost(t, "", c.name, "-h")
		for _, s := range c.subcommands {
			if s.run == nil {
				t.Errorf("%s %s has no run", c.name, s.name)
			}
			if !strings.Contains(parent, "\n  "+s.name+" ") {
				t.Errorf("%s -h does not list %s:\n%s", c.name, s.name, parent)
			}
			want := "Usage: icepost " + c.name + " "
			if c.subHelp {
				want += s.name + " "
			}
			if code, out, _ := icepost(t, "", c.name, s.name, "-h"); code != exitOK || !strings.HasPrefix(out, want) {
				t.Errorf("%s %s -h: exit %d, want %q first:\n%s", c.name, s.name, code, want, out)
			}
		}
	}
}
