package localmail_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"icepost/pbem/localmail"
)

// submit sends msg as a mail client would, logged in as login, with the
// envelope sender as given: MAIL FROM carries it as it is, even when it
// is not ASCII (the server does not offer SMTPUTF8, and a client's
// SendMail would stop before asking).
func submit(t *testing.T, addr, login, password, envelope, rcpt, msg string) error {
	t.Helper()
	c, err := smtp.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Auth(sasl.NewPlainClient("", login, password)); err != nil {
		t.Fatalf("AUTH as %s: %v", login, err)
	}
	if err := c.Mail(envelope, nil); err != nil {
		return err
	}
	if err := c.Rcpt(rcpt, nil); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write([]byte(msg)); err != nil {
		return err
	}
	return w.Close()
}

// A login sends as its own address and as no other (issue 37): the
// envelope sender and the From (and a Sender) must be the login's address
// in its canonical form, so the case of the local part and the spelling
// of the domain (its U-label or A-label, in capitals or full width) do
// not matter, and a look-alike does; and no display name or comment may
// spell another address, however it is encoded (Q, B, UTF-7, in quotes,
// twice), since a reader's mail client may show only the name.
func TestSenderIsTheLogin(t *testing.T) {
	ctx := context.Background()
	systems := map[string]*localmail.System{}
	for _, domain := range []string{"club.test", "bücher.test"} {
		sys, err := localmail.Start(ctx, localmail.Config{Domain: domain, Users: map[string]string{"kim": "pk", "ada": "pa", "cy": "pc"}})
		if err != nil {
			t.Fatal(err)
		}
		defer sys.Stop()
		systems[domain] = sys
	}
	const (
		envelope = "MAIL FROM must be your login's address, "
		header   = "From must be your login's address, "
	)
	for _, tc := range []struct {
		name     string
		domain   string // "" for club.test
		login    string // "" for kim
		envelope string // MAIL FROM
		header   string // the fields before Subject
		refusal  string // "" when taken; else what the 5xx reply begins with
	}{
		{name: "own address", envelope: "kim@club.test", header: "From: Kim <kim@club.test>"},
		{name: "case variants", envelope: "KIM@Club.Test", header: "From: Kim <Kim@CLUB.TEST>"},
		{name: "logged in with the address in capitals", login: "KIM@CLUB.TEST", envelope: "kim@club.test", header: "From: kim@club.test"},
		{name: "a display name that is the own address in capitals", envelope: "kim@club.test", header: `From: "KIM@club.test" <kim@club.test>`},
		{name: "a full-width domain (IDNA mapping)", envelope: "kim@\uff23\uff2c\uff35\uff22.test", header: "From: kim@\uff43\uff4c\uff55\uff42.test"},
		{name: "a U-label login, A-label forms", domain: "bücher.test", envelope: "kim@xn--bcher-kva.test", header: "From: Kim <kim@XN--BCHER-KVA.test>"},
		{name: "a U-label login, U-label forms in capitals", domain: "bücher.test", envelope: "kim@BÜCHER.test", header: "From: Kim <Kim@BÜCHER.TEST>"},
		{name: "a name in windows-1251", envelope: "kim@club.test", header: "From: =?windows-1251?B?yujs?= <kim@club.test>"},
		{name: "a name in Q-encoded UTF-8", envelope: "kim@club.test", header: "From: =?utf-8?q?Kim_J=C3=B6rg?= <kim@club.test>"},
		{name: "a Sender of the login", envelope: "kim@club.test", header: "From: kim@club.test\r\nSender: Kim <KIM@club.test>"},

		{name: "envelope of another account", envelope: "ada@club.test", header: "From: kim@club.test", refusal: envelope},
		{name: "envelope with a plus detail", envelope: "kim+x@club.test", header: "From: kim@club.test", refusal: envelope},
		{name: "envelope of another domain", envelope: "kim@elsewhere.test", header: "From: kim@club.test", refusal: envelope},
		{name: "null envelope", envelope: "", header: "From: kim@club.test", refusal: envelope},
		{name: "envelope with a Kelvin sign", envelope: "\u212aim@club.test", header: "From: kim@club.test", refusal: envelope},
		{name: "envelope of another account, A-label domain", domain: "bücher.test", envelope: "ada@xn--bcher-kva.test", header: "From: kim@bücher.test", refusal: envelope},

		{name: "From of another account", envelope: "kim@club.test", header: "From: ada@club.test", refusal: header},
		{name: "From with a Kelvin sign", envelope: "kim@club.test", header: "From: \u212aim@club.test", refusal: header},
		{name: "a display name with a Kelvin sign", envelope: "kim@club.test", header: "From: \"\u212aim@club.test\" <kim@club.test>", refusal: header},
		{name: "UTF-7, the at sign encoded", envelope: "kim@club.test", header: "From: =?UTF-7?Q?ada+AEA-club.test?= <kim@club.test>", refusal: header},
		{name: "UTF-7, the at sign direct", envelope: "kim@club.test", header: "From: =?utf-7?q?ada=40club.test?= <kim@club.test>", refusal: header},
		{name: "Q-encoded", envelope: "kim@club.test", header: "From: =?utf-8?q?ada=40club.test?= <kim@club.test>", refusal: header},
		{name: "B-encoded", envelope: "kim@club.test", header: "From: =?UTF-8?B?YWRhQGNsdWIudGVzdA==?= <kim@club.test>", refusal: header},
		{name: "B-encoded latin-1", envelope: "kim@club.test", header: "From: =?iso-8859-1?b?YWRhQGNsdWIudGVzdA==?= <kim@club.test>", refusal: header},
		{name: "a name that decodes to a name and address", envelope: "kim@club.test", header: "From: =?utf-8?q?ada=40club.test_=3Cada=40club.test=3E?= <kim@club.test>", refusal: header},
		{name: "an encoded word in quotes", envelope: "kim@club.test", header: `From: "=?utf-8?q?ada=40club.test?=" <kim@club.test>`, refusal: header},
		{name: "an encoded word encoded again", envelope: "kim@club.test", header: "From: =?utf-8?q?=3D=3Futf-8=3Fq=3Fada=3D40club.test=3F=3D?= <kim@club.test>", refusal: header},
		{name: "an encoded full-width at sign", envelope: "kim@club.test", header: "From: =?utf-8?q?ada=EF=BC=A0club.test?= <kim@club.test>", refusal: header},
		{name: "an unknown charset", envelope: "kim@club.test", header: "From: =?x-unknown?q?Kim?= <kim@club.test>", refusal: header},
		{name: "a group named as another address", envelope: "kim@club.test", header: "From: =?utf-8?q?ada=40club.test?=: kim@club.test;", refusal: header},
		{name: "a comment after the address", envelope: "kim@club.test", header: "From: Kim <kim@club.test> (ada@club.test)", refusal: header},
		{name: "an encoded comment", envelope: "kim@club.test", header: "From: kim@club.test (=?utf-8?q?ada=40club.test?=)", refusal: header},
		{name: "a list", envelope: "kim@club.test", header: "From: kim@club.test, ada@club.test", refusal: header},
		{name: "a second From with a space before its colon", envelope: "kim@club.test", header: "From: kim@club.test\r\nFrom : ada@club.test", refusal: header},
		{name: "a Sender of another account", envelope: "kim@club.test", header: "From: kim@club.test\r\nSender: ada@club.test", refusal: header},
		{name: "two Senders", envelope: "kim@club.test", header: "From: kim@club.test\r\nSender: kim@club.test\r\nSender: kim@club.test", refusal: header},
		{name: "From of another account, U-label domain", domain: "bücher.test", envelope: "kim@bücher.test", header: "From: ada@bücher.test", refusal: header},
	} {
		t.Run(tc.name, func(t *testing.T) {
			domain, login := tc.domain, tc.login
			if domain == "" {
				domain = "club.test"
			}
			if login == "" {
				login = "kim"
			}
			sys := systems[domain]
			before, err := sys.Messages(ctx, "cy", "")
			if err != nil {
				t.Fatal(err)
			}
			msg := tc.header + "\r\nTo: cy@" + domain + "\r\nSubject: " + tc.name + "\r\n\r\nhello\r\n"
			err = submit(t, sys.SMTPAddr, login, "pk", tc.envelope, "cy@"+domain, msg)
			after, merr := sys.Messages(ctx, "cy", "")
			if merr != nil {
				t.Fatal(merr)
			}
			if tc.refusal == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if len(after) != len(before)+1 {
					t.Errorf("taken, but cy has %d mails, had %d", len(after), len(before))
				}
				return
			}
			own := "kim@club.test"
			if domain != "club.test" {
				own = "kim@xn--bcher-kva.test"
			}
			var serr *smtp.SMTPError
			if !errors.As(err, &serr) || serr.Code/100 != 5 {
				t.Fatalf("got %v, want a 5xx refusal", err)
			}
			if !strings.HasPrefix(serr.Message, tc.refusal+own) {
				t.Errorf("refusal %q does not begin %q", serr.Message, tc.refusal+own)
			}
			if len(after) != len(before) {
				t.Errorf("refused, but cy has %d mails, had %d", len(after), len(before))
			}
		})
	}
}
