package mailtest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"icepost/pbem/localmail"
	"icepost/pbem/mailtest"
)

// TestDovecotWithEmbeddedSMTP pairs Dovecot with the embedded SMTP server,
// as the integration tests do, and restarts Dovecot with the mail kept.
func TestDovecotWithEmbeddedSMTP(t *testing.T) {
	ctx := context.Background()
	dv := mailtest.StartDovecot(t)
	sys, err := localmail.Start(ctx, localmail.Config{Users: dv.Users, Deliver: dv.Deliver})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Stop()
	if sys.IMAPAddr != "" {
		t.Errorf("IMAPAddr = %q with Deliver set, want none", sys.IMAPAddr)
	}
	c, err := smtp.Dial(sys.SMTPAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Auth(sasl.NewPlainClient("", "bob", dv.Users["bob"])); err != nil {
		t.Fatal(err)
	}
	if err := c.SendMail("bob@localhost", []string{"games+t1@localhost"}, strings.NewReader("From: bob@localhost\r\nSubject: hello\r\n\r\nhi\r\n")); err != nil {
		t.Fatal(err)
	}
	dv.Restart()
	ms, err := dv.Messages(ctx, "games", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || !strings.Contains(string(ms[0].Raw), "Subject: hello") {
		t.Errorf("games's INBOX in Dovecot = %+v", ms)
	}
}
