package pbem_test

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"

	"icepost/pbem/mailbox"
)

// BenchmarkIdlePush measures what a player in a mail client waiting in
// IMAP IDLE sees: the time from the daemon's SMTP send of a board to the
// client's EXISTS for it, on the embedded mail system and on Dovecot
// (docs/bench.md). The aim is under 1.5 s.
//
//	go test -run XXX -bench IdlePush -benchtime 20x ./pbem/
func BenchmarkIdlePush(b *testing.B) {
	for _, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			w := be.new(b)
			exists := make(chan uint32, 16)
			d := net.Dialer{Timeout: 10 * time.Second}
			conn, err := d.DialContext(w.ctx, "tcp", w.imapAddr)
			if err != nil {
				b.Fatal(err)
			}
			c := imapclient.New(conn, &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
				Mailbox: func(data *imapclient.UnilateralDataMailbox) {
					if data.NumMessages != nil {
						exists <- *data.NumMessages
					}
				},
			}})
			defer c.Close()
			if err := c.Login("bob", "pw-bob").Wait(); err != nil {
				b.Fatal(err)
			}
			if _, err := c.Select("INBOX", nil).Wait(); err != nil {
				b.Fatal(err)
			}
			idle, err := c.Idle()
			if err != nil {
				b.Fatal(err)
			}
			defer idle.Close()
			sender, err := mailbox.NewSender(mailbox.SMTPConfig{Addr: w.sys.SMTPAddr, TLS: mailbox.TLSNone, Username: "games", Password: "pw-games"})
			if err != nil {
				b.Fatal(err)
			}
			defer sender.Close()
			var total time.Duration
			n := 0
			for b.Loop() {
				n++
				msg := fmt.Sprintf("From: games@club.test\r\nTo: bob@club.test\r\nSubject: board %d\r\nMessage-ID: <push%d@club.test>\r\n\r\nyour move\r\n", n, n)
				t0 := time.Now()
				ctx, cancel := context.WithTimeout(w.ctx, 10*time.Second)
				if err := sender.Send(ctx, w.sys.Address("games"), []string{w.sys.Address("bob")}, []byte(msg)); err != nil {
					b.Fatal(err)
				}
				cancel()
				select {
				case <-exists:
				case <-time.After(30 * time.Second):
					b.Fatalf("no EXISTS within 30 s of send %d", n)
				}
				total += time.Since(t0)
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(n), "ms/push")
		})
	}
}
