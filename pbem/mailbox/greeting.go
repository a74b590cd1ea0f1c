package mailbox

import (
	"context"
	"crypto/tls"
	"net"
	"time"

	"icepost/pbem/mailerr"
)

// greetingProbe is how long a connection in plain text (tls = "starttls"
// or "none") waits for the server's greeting before it asks, on a second
// connection, whether the server speaks TLS at once. A server on an
// implicit-TLS port (465, 993) waits for the client's handshake and says
// nothing, and a client that waits for a greeting would wait with it
// until its timeout (two minutes for SMTP) and then say only that the
// connection was closed. Mail servers greet at once; one that takes
// longer is asked, and waited for all the same.
const greetingProbe = 5 * time.Second

// awaitGreeting waits for the first bytes of the greeting on conn, a
// connection in plain text to addr, and returns conn with them put back
// for the protocol's client to read. When the first bytes are a TLS
// record, or the server says nothing for greetingProbe and answers a TLS
// handshake on a second connection, it returns an
// *mailerr.ImplicitTLSError. Otherwise it waits for the greeting until
// conn's deadline or until the caller closes conn (its context's end).
func awaitGreeting(ctx context.Context, conn net.Conn, addr string, mode TLSMode, dialTimeout time.Duration) (net.Conn, error) {
	type first struct {
		b   []byte
		err error
	}
	got := make(chan first, 1)
	go func() {
		b := make([]byte, 512)
		n, err := conn.Read(b)
		got <- first{b[:n], err}
	}()
	timer := time.NewTimer(greetingProbe)
	defer timer.Stop()
	var f first
	select {
	case f = <-got:
	case <-timer.C:
		if speaksTLS(ctx, addr, min(dialTimeout, greetingProbe)) {
			conn.Close()
			<-got
			return nil, &mailerr.ImplicitTLSError{Mode: string(mode)}
		}
		f = <-got
	}
	if len(f.b) == 0 {
		return nil, f.err
	}
	if isTLSRecord(f.b) {
		return nil, &mailerr.ImplicitTLSError{Mode: string(mode)}
	}
	return &greetedConn{Conn: conn, pending: f.b}, nil
}

// isTLSRecord reports whether b starts as a TLS record does: a handshake
// (0x16) or an alert (0x15), then the major version 3. No mail
// protocol's greeting starts with these bytes.
func isTLSRecord(b []byte) bool {
	return len(b) >= 2 && (b[0] == 0x16 || b[0] == 0x15) && b[1] == 0x03
}

// speaksTLS opens a second connection to addr and starts a TLS handshake
// on it: true when the server answers with a TLS record. The handshake
// is never finished (nothing is checked, nothing is sent over it).
func speaksTLS(ctx context.Context, addr string, timeout time.Duration) bool {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	raw, err := (&net.Dialer{}).DialContext(ctx, "tcp", addr)
	if err != nil {
		return false
	}
	defer raw.Close()
	if dl, ok := ctx.Deadline(); ok {
		raw.SetDeadline(dl)
	}
	rec := &recordingConn{Conn: raw}
	// The handshake fails however the server answers (the certificate
	// is not checked against anything here): what counts is the answer's
	// first bytes.
	tls.Client(rec, tlsConfig(nil, addr)).HandshakeContext(ctx)
	return isTLSRecord(rec.first)
}

// greetedConn is a connection whose first bytes were read already.
type greetedConn struct {
	net.Conn
	pending []byte
}

func (c *greetedConn) Read(p []byte) (int, error) {
	if len(c.pending) > 0 {
		n := copy(p, c.pending)
		c.pending = c.pending[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

// recordingConn keeps the first bytes read from a connection.
type recordingConn struct {
	net.Conn
	first []byte
}

func (c *recordingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if len(c.first) < 8 {
		c.first = append(c.first, p[:min(n, 8-len(c.first))]...)
	}
	return n, err
}
