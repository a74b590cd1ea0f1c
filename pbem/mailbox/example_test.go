package mailbox_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"icepost/pbem/localmail"
	"icepost/pbem/mailbox"
)

// The daemon's loop in miniature, on the embedded mail system: a player's
// mail goes in over SMTP, the Reader finds it, and files it as done.
func Example() {
	ctx := context.Background()
	sys, err := localmail.Start(ctx, localmail.Config{Users: map[string]string{"games": "pw", "alice": "apw"}})
	if err != nil {
		panic(err)
	}
	defer sys.Stop()

	sender, _ := mailbox.NewSender(mailbox.SMTPConfig{Addr: sys.SMTPAddr, TLS: mailbox.TLSNone, Username: "alice", Password: "apw"})
	msg := "From: alice@localhost\r\nSubject: Re: board\r\n\r\nc3xe5\r\n"
	if err := sender.Send(ctx, "alice@localhost", []string{"games+g1@localhost"}, []byte(msg)); err != nil {
		panic(err)
	}

	r, _ := mailbox.NewReader(mailbox.IMAPConfig{Addr: sys.IMAPAddr, TLS: mailbox.TLSNone, Username: "games", Password: "pw"})
	defer r.Close()
	var last, uidValidity uint32
	for range 2 {
		mails, uv, err := r.Fetch(ctx, last)
		if err != nil {
			panic(err)
		}
		if uv != uidValidity && last != 0 {
			// The mailbox was rebuilt: last means nothing, read it all.
			uidValidity, last = uv, 0
			continue
		}
		uidValidity = uv
		for _, m := range mails {
			fmt.Println(m.UID, strings.Contains(string(m.Raw), "c3xe5"))
			r.Done(ctx, m.UID)
			last = m.UID
		}
		r.Wait(ctx, 10*time.Millisecond)
	}
	// Output: 1 true
}
