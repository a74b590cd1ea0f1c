package mailbox

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"
)

// TLSMode says how a connection to a mail server is secured. Its values are
// the strings a configuration file uses.
type TLSMode string

const (
	// TLSImplicit connects with TLS from the first byte (IMAPS on 993,
	// submissions on 465). It is the default.
	TLSImplicit TLSMode = "tls"
	// TLSStartTLS connects in clear text and upgrades with STARTTLS before
	// authenticating (IMAP on 143, submission on 587).
	TLSStartTLS TLSMode = "starttls"
	// TLSNone sends everything, the password included, in clear text. It
	// is only accepted when the server address is a loopback address.
	TLSNone TLSMode = "none"
)

// check returns the mode to use (the default for "") or an error when the
// mode is unknown or clear text is asked for a server that is not on
// loopback.
func (m TLSMode) check(addr string) (TLSMode, error) {
	switch m {
	case "":
		return TLSImplicit, nil
	case TLSImplicit, TLSStartTLS:
		return m, nil
	case TLSNone:
		if !isLoopback(addr) {
			return m, fmt.Errorf("mailbox: tls = %q is only allowed for a loopback server, not %s", m, addr)
		}
		return m, nil
	}
	return m, fmt.Errorf("mailbox: unknown tls mode %q (want %q, %q or %q)", string(m), TLSImplicit, TLSStartTLS, TLSNone)
}

// isLoopback reports whether the host of addr is "localhost" or a loopback
// IP address. Host names other than localhost are not resolved: a name can
// point elsewhere tomorrow.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// tlsConfig returns a copy of c (or a new config) with ServerName set from
// addr when empty.
func tlsConfig(c *tls.Config, addr string) *tls.Config {
	var out *tls.Config
	if c != nil {
		out = c.Clone()
	} else {
		out = &tls.Config{}
	}
	if out.ServerName == "" {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			host = addr
		}
		out.ServerName = host
	}
	return out
}

// trust returns c (or a new config) with the certificate authorities of
// the PEM file caFile as its only roots, and serverName as the name the
// server's certificate must hold, each when given.
func trust(c *tls.Config, caFile, serverName string) (*tls.Config, error) {
	if caFile == "" && serverName == "" {
		return c, nil
	}
	if c != nil {
		c = c.Clone()
	} else {
		c = &tls.Config{}
	}
	if serverName != "" {
		c.ServerName = serverName
	}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("ca_file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("ca_file %s: no PEM certificate in it (want -----BEGIN CERTIFICATE----- blocks)", caFile)
		}
		c.RootCAs = pool
	}
	return c, nil
}

// dialTCP opens a TCP connection to addr, wrapped in TLS for TLSImplicit.
func dialTCP(ctx context.Context, addr string, mode TLSMode, tc *tls.Config, timeout time.Duration) (net.Conn, error) {
	d := &net.Dialer{Timeout: timeout}
	if mode == TLSImplicit {
		td := &tls.Dialer{NetDialer: d, Config: tlsConfig(tc, addr)}
		return td.DialContext(ctx, "tcp", addr)
	}
	return d.DialContext(ctx, "tcp", addr)
}

// IMAPConfig says which IMAP mailbox to read and how.
type IMAPConfig struct {
	// Addr is the server's host:port.
	Addr string
	// TLS is how the connection is secured; "" means TLSImplicit.
	TLS TLSMode
	// TLSConfig, when set, is used for TLS (for example to trust a private
	// CA). ServerName defaults to the host of Addr.
	TLSConfig *tls.Config
	// CAFile and ServerName, when set, override TLSConfig's: the PEM
	// file of the certificate authorities to trust instead of the
	// system's (a private CA), and the name the server's certificate
	// must hold when it is not the host of Addr.
	CAFile, ServerName string
	// Username and Password log in with the IMAP LOGIN command.
	Username, Password string
	// Auth is how to log in; "" means AuthPassword. With an OAuth2
	// Auth, Username is the account's address, Password is empty, and
	// OAuth2 says where the token comes from: the login is AUTHENTICATE
	// with the mechanism, which the server must offer.
	Auth   Auth
	OAuth2 OAuth2

	// Mailbox is the folder to read; default "INBOX".
	Mailbox string
	// DoneFolder receives processed mail; default "icepost/done".
	DoneFolder string
	// RejectedFolder receives mail set aside as unreadable; default
	// "icepost/rejected".
	RejectedFolder string

	// MaxMessageSize bounds how many bytes of one message are fetched;
	// larger messages come back truncated (Mail.Truncated). Default 4 MiB.
	MaxMessageSize int64
	// MaxBatch bounds how many messages one Fetch returns; default 50.
	MaxBatch int

	// PollInterval is how long Wait sleeps when the server has no IDLE (or
	// DisableIdle is set); default 1 minute.
	PollInterval time.Duration
	// IdleRefresh is the watchdog: Wait leaves IDLE and enters it again at
	// least this often, so that a connection silently dropped by a NAT or
	// a server is noticed; default 4 minutes.
	IdleRefresh time.Duration
	// DisableIdle makes Wait poll even when the server offers IDLE.
	DisableIdle bool

	// DialTimeout bounds connecting and logging in; default 30 seconds.
	DialTimeout time.Duration
	// MinBackoff and MaxBackoff bound the wait between reconnection
	// attempts of a Reader; defaults 1 second and 5 minutes.
	MinBackoff, MaxBackoff time.Duration

	// Logger receives connection events; default: discard.
	Logger *slog.Logger
}

func (c IMAPConfig) withDefaults() (IMAPConfig, error) {
	if c.Addr == "" {
		return c, fmt.Errorf("mailbox: IMAP address is empty")
	}
	mode, err := c.TLS.check(c.Addr)
	if err != nil {
		return c, err
	}
	c.TLS = mode
	if c.Auth, err = c.Auth.check("[imap]", c.Username, c.Password, c.OAuth2); err != nil {
		return c, err
	}
	if c.TLSConfig, err = trust(c.TLSConfig, c.CAFile, c.ServerName); err != nil {
		return c, fmt.Errorf("mailbox: [imap] %w", err)
	}
	c.CAFile, c.ServerName = "", "" // in TLSConfig now: not read twice
	if c.Mailbox == "" {
		c.Mailbox = "INBOX"
	}
	if c.DoneFolder == "" {
		c.DoneFolder = "icepost/done"
	}
	if c.RejectedFolder == "" {
		c.RejectedFolder = "icepost/rejected"
	}
	if c.MaxMessageSize <= 0 {
		c.MaxMessageSize = 4 << 20
	}
	if c.MaxBatch <= 0 {
		c.MaxBatch = 50
	}
	if c.PollInterval <= 0 {
		c.PollInterval = time.Minute
	}
	if c.IdleRefresh <= 0 {
		c.IdleRefresh = 4 * time.Minute
	}
	if c.DialTimeout <= 0 {
		c.DialTimeout = 30 * time.Second
	}
	if c.MinBackoff <= 0 {
		c.MinBackoff = time.Second
	}
	if c.MaxBackoff <= 0 {
		c.MaxBackoff = 5 * time.Minute
	}
	if c.MaxBackoff < c.MinBackoff {
		c.MaxBackoff = c.MinBackoff
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c, nil
}
