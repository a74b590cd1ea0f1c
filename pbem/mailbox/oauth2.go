package mailbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/emersion/go-sasl"

	"icepost/pbem/mailerr"
	"icepost/pbem/xoauth2"
)

// Auth says how a client logs in. Its values are the strings a
// configuration file uses.
type Auth string

const (
	// AuthPassword logs in with a user name and a password: IMAP LOGIN,
	// SMTP AUTH PLAIN or LOGIN. It is the default.
	AuthPassword Auth = "password"
	// AuthXOAuth2 logs in with an OAuth2 access token by XOAUTH2, what
	// Gmail and Microsoft 365 take.
	AuthXOAuth2 Auth = "xoauth2"
	// AuthOAuthBearer logs in with an OAuth2 access token by OAUTHBEARER
	// (RFC 7628), the standard mechanism.
	AuthOAuthBearer Auth = "oauthbearer"
)

// OAuth2 says where an OAuth2 login's access token comes from: exactly
// one of TokenFile and TokenCommand. The token is read at each login, so
// that one refreshed meanwhile (tokens last about an hour) is the one
// used; icepost never refreshes it itself.
type OAuth2 struct {
	// TokenFile is a file holding the token, kept current by the
	// operator's token refresher.
	TokenFile string
	// TokenCommand is run with sh -c; its standard output, trimmed, is
	// the token.
	TokenCommand string
}

// check returns the mode to use (AuthPassword for "") or an error when
// the settings do not fit it. section is "[imap]" or "[smtp]".
func (a Auth) check(section, username, password string, o OAuth2) (Auth, error) {
	switch a {
	case "", AuthPassword:
		if o.TokenFile != "" || o.TokenCommand != "" {
			return a, fmt.Errorf("mailbox: %s oauth2_token_file and oauth2_token_command are for auth = %q or %q, not %q", section, AuthXOAuth2, AuthOAuthBearer, AuthPassword)
		}
		return AuthPassword, nil
	case AuthXOAuth2, AuthOAuthBearer:
		switch {
		case username == "":
			return a, fmt.Errorf("mailbox: %s auth = %q needs username, the account's address", section, a)
		case password != "":
			return a, fmt.Errorf("mailbox: %s auth = %q logs in with a token, not a password", section, a)
		case (o.TokenFile == "") == (o.TokenCommand == ""):
			return a, fmt.Errorf("mailbox: %s auth = %q needs exactly one of oauth2_token_file and oauth2_token_command", section, a)
		}
		return a, nil
	}
	return a, fmt.Errorf("mailbox: %s unknown auth %q (want %q, %q or %q)", section, string(a), AuthPassword, AuthXOAuth2, AuthOAuthBearer)
}

// mechanism is the SASL mechanism of an OAuth2 Auth.
func (a Auth) mechanism() string {
	if a == AuthOAuthBearer {
		return sasl.OAuthBearer
	}
	return xoauth2.Mechanism
}

// setting names where the token comes from, as the config file does.
func (o OAuth2) setting() string {
	if o.TokenCommand != "" {
		return "oauth2_token_command"
	}
	return "oauth2_token_file"
}

// token returns the access token, read now from the file or the command.
// Its errors are *mailerr.OAuth2Error with Token set.
func (o OAuth2) token(ctx context.Context) (string, error) {
	fail := func(err error) (string, error) {
		return "", &mailerr.OAuth2Error{Setting: o.setting(), Token: true, Err: err}
	}
	var out []byte
	if o.TokenCommand != "" {
		cmd := exec.CommandContext(ctx, "sh", "-c", o.TokenCommand)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			if ctx.Err() != nil {
				err = fmt.Errorf("%w (%w)", ctx.Err(), err)
			}
			if msg := strings.TrimSpace(stderr.String()); msg != "" {
				return fail(fmt.Errorf("%q: %w: %s", o.TokenCommand, err, msg))
			}
			return fail(fmt.Errorf("%q: %w (and nothing on its standard error)", o.TokenCommand, err))
		}
		out = stdout.Bytes()
	} else {
		b, err := os.ReadFile(o.TokenFile)
		if err != nil {
			return fail(err)
		}
		out = b
	}
	token := strings.TrimSpace(string(out))
	switch {
	case token == "" && o.TokenCommand != "":
		return fail(fmt.Errorf("%q printed no token", o.TokenCommand))
	case token == "":
		return fail(fmt.Errorf("%s is empty", o.TokenFile))
	case strings.ContainsAny(token, "\x00\x01\r\n"):
		return fail(errors.New("the token holds a line break or a control character: want one line, the access token alone"))
	}
	return token, nil
}

// oauthClient is an OAuth2 SASL client, XOAUTH2 or OAUTHBEARER. A server
// that refuses the token sends its error, a JSON object, as a challenge,
// and waits for an answer before it says no; the client answers and
// keeps the server's error for refused.
type oauthClient interface {
	sasl.Client
	refused() error
}

// newOAuthClient returns the client for auth, logging in as username
// with token to the server at addr.
func newOAuthClient(auth Auth, addr, username, token string) oauthClient {
	if auth == AuthOAuthBearer {
		opts := &sasl.OAuthBearerOptions{Username: username, Token: token}
		if host, port, err := net.SplitHostPort(addr); err == nil {
			opts.Host = host
			opts.Port, _ = strconv.Atoi(port)
		}
		return &bearerClient{Client: sasl.NewOAuthBearerClient(opts)}
	}
	return xoauthClient{xoauth2.NewClient(username, token)}
}

type xoauthClient struct{ *xoauth2.Client }

func (c xoauthClient) refused() error { return c.Refused }

// bearerClient is go-sasl's OAUTHBEARER client, which returns the
// server's error where RFC 7628 (3.2.3) wants the client to answer it
// with %x01 first: IMAP and SMTP clients stop at the error, and the
// server is left waiting.
type bearerClient struct {
	sasl.Client
	err error
}

func (c *bearerClient) Next(challenge []byte) ([]byte, error) {
	if c.err != nil {
		return nil, sasl.ErrUnexpectedServerChallenge
	}
	_, err := c.Client.Next(challenge)
	var bearer *sasl.OAuthBearerError
	if !errors.As(err, &bearer) {
		err = fmt.Errorf("OAUTHBEARER token refused (%q)", challenge)
	}
	c.err = err
	return []byte{1}, nil
}

func (c *bearerClient) refused() error { return c.err }

// oauthLogin logs in with auth (an OAuth2 one) by authenticate, which
// runs the SASL exchange on the connection, with the token read now from
// o. Its errors are *mailerr.OAuth2Error (or a ctx error while reading
// the token).
func oauthLogin(ctx context.Context, auth Auth, o OAuth2, addr, username string, authenticate func(sasl.Client) error) error {
	token, err := o.token(ctx)
	if err != nil {
		return err
	}
	c := newOAuthClient(auth, addr, username, token)
	if err := authenticate(c); err != nil {
		if r := c.refused(); r != nil {
			err = fmt.Errorf("%w (%v)", err, r)
		}
		return &mailerr.OAuth2Error{Setting: o.setting(), Err: fmt.Errorf("as %s by %s: %w", username, auth.mechanism(), err)}
	}
	return nil
}
