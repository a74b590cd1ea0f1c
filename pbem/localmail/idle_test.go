package localmail_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"icepost/pbem/localmail"
)

// rawIMAP is an IMAP client that speaks the protocol by hand, so that the
// test sees exactly what the server writes during IDLE.
type rawIMAP struct {
	t    *testing.T
	conn net.Conn
	r    *bufio.Reader
	n    int
}

func (c *rawIMAP) cmd(line string) {
	c.t.Helper()
	c.n++
	tag := fmt.Sprintf("a%d", c.n)
	fmt.Fprintf(c.conn, "%s %s\r\n", tag, line)
	for {
		l := c.line(5 * time.Second)
		if strings.HasPrefix(l, tag+" ") {
			if !strings.HasPrefix(l, tag+" OK") {
				c.t.Fatalf("%s: %s", line, l)
			}
			return
		}
	}
}

// line reads one line, failing after d.
func (c *rawIMAP) line(d time.Duration) string {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(d))
	l, err := c.r.ReadString('\n')
	if err != nil {
		c.t.Fatalf("reading from the server: %v", err)
	}
	return strings.TrimRight(l, "\r\n")
}

// waitExists waits up to d for "* N EXISTS", and returns N's line.
func (c *rawIMAP) waitExists(d time.Duration, what string) string {
	c.t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		c.conn.SetReadDeadline(deadline)
		l, err := c.r.ReadString('\n')
		if err != nil {
			c.t.Fatalf("no EXISTS for %s within %v: %v", what, d, err)
		}
		if strings.HasSuffix(strings.TrimSpace(l), "EXISTS") {
			return strings.TrimSpace(l)
		}
	}
	c.t.Fatalf("no EXISTS for %s within %v", what, d)
	return ""
}

// A client in IDLE is told of a mail delivered just before IDLE began
// (after its SELECT) and of one delivered while it idles, at once: the
// library alone announces the first only when a second comes.
func TestIdleAnnouncesEveryMail(t *testing.T) {
	ctx := context.Background()
	sys, err := localmail.Start(ctx, localmail.Config{Users: map[string]string{"ada": "pa"}})
	if err != nil {
		t.Fatal(err)
	}
	defer sys.Stop()
	conn, err := net.Dial("tcp", sys.IMAPAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := &rawIMAP{t: t, conn: conn, r: bufio.NewReader(conn)}
	c.line(5 * time.Second) // greeting
	c.cmd("LOGIN ada pa")
	c.cmd("SELECT INBOX")
	mail := func(n int) []byte {
		return []byte(fmt.Sprintf("From: bob@localhost\r\nTo: ada@localhost\r\nSubject: %d\r\n\r\nhi\r\n", n))
	}
	if err := sys.Append(ctx, "ada", "", mail(1)); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "i1 IDLE\r\n")
	if l := c.line(5 * time.Second); !strings.HasPrefix(l, "+") {
		t.Fatalf("IDLE: %s", l)
	}
	if l := c.waitExists(1500*time.Millisecond, "the mail delivered before IDLE"); l != "* 1 EXISTS" {
		t.Errorf("got %q, want * 1 EXISTS", l)
	}
	if err := sys.Append(ctx, "ada", "", mail(2)); err != nil {
		t.Fatal(err)
	}
	if l := c.waitExists(1500*time.Millisecond, "the mail delivered during IDLE"); l != "* 2 EXISTS" {
		t.Errorf("got %q, want * 2 EXISTS", l)
	}
	fmt.Fprintf(conn, "DONE\r\n")
	if l := c.line(5 * time.Second); !strings.HasPrefix(l, "i1 OK") {
		t.Errorf("after DONE: %s", l)
	}
}
