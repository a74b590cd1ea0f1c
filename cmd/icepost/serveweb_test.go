package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"icepost/internal/waitfor"
	"icepost/pbem/mailbox"
)

// TestServeWeb: serve -web runs the web site in the daemon's process; a
// board mail's HTML part carries a link (<a href>) to its play page
// there, which answers 200 and plays a move, and the daemon sends the
// next board by mail.
func TestServeWeb(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb syncBuffer
	e := &env{ctx: ctx, stdout: &out, stderr: &errb}
	log := newLogger(&errb, false)
	db := filepath.Join(t.TempDir(), "icepost.db")
	emb, err := startEmbedded(ctx, db, "127.0.0.1:0", "127.0.0.1:0", log, false)
	if err != nil {
		t.Fatal(err)
	}
	defer emb.close()
	site, stop, err := serveWeb(e, log, "127.0.0.1:0", db, emb.daemon.Handler)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	ran := make(chan error, 1)
	go func() { ran <- emb.daemon.Run(ctx) }()
	defer func() {
		cancel()
		select {
		case <-ran:
		case <-time.After(20 * time.Second):
			t.Error("the daemon did not stop when its context ended")
		}
	}()

	sys := emb.sys
	send := func(body string) {
		t.Helper()
		msg := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: hello\r\nMessage-ID: <web%d@%s>\r\nDate: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
			sys.Address("ada"), sys.Address("games"), time.Now().UnixNano(), sys.Domain, time.Now().Format(time.RFC1123Z), body)
		s, err := mailbox.NewSender(mailbox.SMTPConfig{Addr: sys.SMTPAddr, TLS: mailbox.TLSNone, Username: "ada", Password: sys.Password("ada")})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if err := s.Send(ctx, sys.Address("ada"), []string{sys.Address("games")}, []byte(msg)); err != nil {
			t.Fatal(err)
		}
	}
	// waitMail waits for ada's mail number n (from 1) and returns its HTML part.
	waitMail := func(n int) string {
		t.Helper()
		var raw []byte
		if !waitfor.Within(60*time.Second, func() bool {
			msgs, err := sys.Messages(ctx, "ada", "")
			if err != nil || len(msgs) < n {
				return false
			}
			raw = msgs[n-1].Raw
			return true
		}) {
			t.Fatalf("ada's mail %d did not come: %s", n, errb.String())
		}
		mr, err := gomail.CreateReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		for {
			p, err := mr.NextPart()
			if err != nil {
				t.Fatalf("ada's mail %d has no HTML part: %v", n, err)
			}
			if h, ok := p.Header.(*gomail.InlineHeader); ok {
				if ct, _, _ := h.ContentType(); ct == "text/html" {
					b, _ := io.ReadAll(p.Body)
					return string(b)
				}
			}
		}
	}
	send("challenge icesickle bot level=1")
	page := waitMail(1)
	m := regexp.MustCompile(`<a href="(http://` + regexp.QuoteMeta(site) + `/play/[^"]+)">`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("the first board's HTML part has no link to http://%s/play/...:\n%s", site, page)
	}
	link := m[1]
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "<form") {
		t.Fatalf("GET %s: %d\n%s", link, resp.StatusCode, body)
	}
	plies := regexp.MustCompile(`name="ply" value="(\d+)"`).FindStringSubmatch(string(body))
	if plies == nil {
		t.Fatalf("the play page has no ply field:\n%s", body)
	}
	req, _ := http.NewRequest("POST", link, strings.NewReader(url.Values{"ply": {plies[1]}, "line": {"L@c3"}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "http://"+site)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "Done: move L@c3") {
		t.Fatalf("POST %s: %d\n%s", link, resp.StatusCode, body)
	}
	// The daemon sends ada the board after the bot's answer, by mail.
	if next := waitMail(2); !strings.Contains(next, "L@c3") {
		t.Errorf("ada's next board does not show L@c3:\n%s", next)
	}
}

// TestServeWebFlag: serve -web names the site in its greeting, and the
// site answers there.
func TestServeWebFlag(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb syncBuffer
	db := filepath.Join(t.TempDir(), "icepost.db")
	done := make(chan int, 1) // room for the exit code when the test has given up waiting
	go func() {
		done <- run(ctx, []string{"serve", "-db", db, "-imap", "127.0.0.1:0", "-smtp", "127.0.0.1:0", "-web", "127.0.0.1:0", "-q"}, nil, &out, &errb)
	}()
	defer func() {
		cancel()
		select {
		case code := <-done:
			if code != exitOK {
				t.Errorf("serve stopped with exit %d: %s", code, errb.String())
			}
		case <-time.After(20 * time.Second):
			t.Error("serve did not stop when its context ended")
		}
	}()
	var site []string
	if !waitfor.Within(20*time.Second, func() bool {
		site = regexp.MustCompile(`The web site: (http://127\.0\.0\.1:\d+/)`).FindStringSubmatch(out.String())
		return site != nil
	}) {
		t.Fatalf("serve -web named no site:\n%s\n%s", out.String(), errb.String())
	}
	resp, err := http.Get(site[1])
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET %s: %d", site[1], resp.StatusCode)
	}
}
