package pbem_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"icepost/pbem/daemon"
	"icepost/pbem/store"
)

// refusingMailbox is the real IMAP mailbox with a filing call that fails
// for good for one mail, as a server that refuses both the move and the
// flags would.
type refusingMailbox struct {
	daemon.Mailbox
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

// TestManyMailsInOneStep: a batch of mails is answered, each once, and
// filed, and the last UID is the last mail's.
func TestManyMailsInOneStep(t *testing.T) {
	w := newWorld(t)
	n := 43 // under the 50 of one Fetch
	for i := range n {
		p := testPlayers[i%len(testPlayers)]
		w.deliver(w.write(p, w.srv.Address, "help", "", "help"))
	}
	msgs, err := w.messages(w.ctx, "games", "")
	if err != nil || len(msgs) != n {
		t.Fatalf("%d mails in the INBOX (%v), want %d", len(msgs), err, n)
	}
	if got, err := w.d.ProcessInbox(w.ctx); got != n || err != nil {
		t.Fatalf("ProcessInbox = %d, %v; want %d", got, err, n)
	}
	if _, err := w.d.SendOutbox(w.ctx); err != nil {
		t.Fatal(err)
	}
	if left, _ := w.messages(w.ctx, "games", ""); len(left) != 0 {
		t.Errorf("%d mails left in the INBOX", len(left))
	}
	if done, _ := w.messages(w.ctx, "games", "icepost/done"); len(done) != n {
		t.Errorf("%d mails in icepost/done, want %d", len(done), n)
	}
	if last, _ := store.State(w.ctx, w.srv.DB, "last_uid"); last != strconv.Itoa(int(msgs[n-1].UID)) {
		t.Errorf("last_uid = %s, want %d", last, msgs[n-1].UID)
	}
	for i, p := range testPlayers {
		want := n / len(testPlayers)
		if i < n%len(testPlayers) {
			want++
		}
		if got := len(w.inbox(p)); got != want {
			t.Errorf("%s got %d mails, want %d", p, got, want)
		}
	}
}
