package pbem

import (
	"strings"
	"testing"
)

// Every entry of the table is whole: words, a proof, a handler, a help
// line (or the entry before it tells it), and its line parses back to it.
func TestTableIsComplete(t *testing.T) {
	seen := map[string]bool{}
	for i, mc := range MailCommands {
		t.Run(mc.Verb, func(t *testing.T) {
			if mc.Verb == "" || seen[mc.Verb] {
				t.Fatalf("entry %d: verb %q empty or twice", i, mc.Verb)
			}
			seen[mc.Verb] = true
			switch mc.proof {
			case ReadOnly, ForSeat, ForSender:
			default:
				t.Errorf("%q has no proof: say what a mail must show to run it (proof.go)", mc.Verb)
			}
			if mc.run == nil {
				t.Errorf("%q has no handler", mc.Verb)
			}
			if mc.usage == "" && (i == 0 || MailCommands[i-1].usage == "") {
				t.Errorf("%q has no help line", mc.Verb)
			}
			if mc.proof == ForSeat && mc.about == nil {
				t.Errorf("%q acts for a seat, but is about no game", mc.Verb)
			}
			if mc.usage != "" && !strings.Contains(HelpText(""), mc.usage) {
				t.Errorf("the help does not list %q", mc.usage)
			}
		})
	}
}
