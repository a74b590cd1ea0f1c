package pbem

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// refusingMailbox is the real IMAP mailbox with a filing call that fails
// for good for one mail, as a server that refuses both the move and the
// flags would.
type refusingMailbox struct {
	Mailbox
	refuse uint32
}

var errRefused = errors.New("NO [CANNOT] the server refuses")

func (r refusingMailbox) Done(ctx context.Context, uids ...uint32) error {
	if slices.Contains(uids, r.refuse) {
		return errRefused
	}
	return r.Mailbox.Done(ctx, uids...)
}

// TestFilingFailureDoesNotStall: a handled mail that cannot be filed away
// stays in the inbox, and the mails behind it are answered; a later pass
// does not answer it again.
func TestFilingFailureDoesNotStall(t *testing.T) {
	w := newWorld(t)
	w.deliver(w.write("ada", w.srv.Address, "help", "", "help"))
	w.deliver(w.write("bob", w.srv.Address, "help", "", "help"))
	msgs, err := w.messages(w.ctx, "games", "")
	if err != nil || len(msgs) != 2 {
		t.Fatalf("%d mails in the INBOX (%v)", len(msgs), err)
	}
	w.d.Mailbox = refusingMailbox{Mailbox: w.d.Mailbox, refuse: msgs[0].UID}
	w.step()
	w.step()
	for _, p := range []string{"ada", "bob"} {
		if n := len(w.inbox(p)); n != 1 {
			t.Errorf("%s got %d mails, want 1 (the help)", p, n)
		}
		if !strings.Contains(w.last(p).text, "icepost plays Icehouse") {
			t.Errorf("%s's mail is not the help:\n%s", p, w.last(p).text)
		}
	}
	if left, _ := w.messages(w.ctx, "games", ""); len(left) != 1 {
		t.Errorf("%d mails left in the INBOX, want the one that could not be filed", len(left))
	}
}
