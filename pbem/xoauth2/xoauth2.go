// Package xoauth2 is the XOAUTH2 SASL mechanism, both sides: the login
// with an OAuth2 access token that Google and Microsoft take for IMAP and
// SMTP, which go-sasl does not have (it has the standard one, OAUTHBEARER,
// RFC 7628). The client is what icepost logs in with; the server is for
// the test servers (pbem/localmail, pbem/mailtest).
//
// The exchange: the client's initial response is
// "user=" user "\x01auth=Bearer " token "\x01\x01". The server accepts it,
// or answers with a challenge, a JSON error, to which the client answers
// with an empty response before the server ends the login with its
// refusal.
package xoauth2

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/emersion/go-sasl"
)

// Mechanism is the SASL mechanism's name.
const Mechanism = "XOAUTH2"

// Error is the JSON error a server sends as a challenge when it refuses
// the token.
type Error struct {
	Status  string `json:"status"`
	Schemes string `json:"schemes,omitempty"`
	Scope   string `json:"scope,omitempty"`
}

func (e *Error) Error() string {
	return fmt.Sprintf("XOAUTH2 token refused (status %s)", e.Status)
}

// Client is the client side. Its zero Refused means that the server sent
// no error challenge.
type Client struct {
	Username, Token string
	// Refused is the server's error challenge, when it sent one. The
	// login itself fails with the server's final answer (an IMAP NO, an
	// SMTP 535): Next answers the challenge, as the mechanism wants, so
	// it cannot return the error; the caller reads it here.
	Refused error
	step    int
}

// NewClient returns a client that logs in as username with token.
func NewClient(username, token string) *Client {
	return &Client{Username: username, Token: token}
}

// Start returns the mechanism and the initial response.
func (c *Client) Start() (mech string, ir []byte, err error) {
	return Mechanism, []byte("user=" + c.Username + "\x01auth=Bearer " + c.Token + "\x01\x01"), nil
}

// Next answers a challenge: the server's error, answered with an empty
// response (not nil: go-smtp's client takes nil for the end of the
// exchange).
func (c *Client) Next(challenge []byte) ([]byte, error) {
	c.step++
	if c.step > 1 {
		return nil, sasl.ErrUnexpectedServerChallenge
	}
	e := &Error{}
	if err := json.Unmarshal(challenge, e); err != nil || e.Status == "" {
		c.Refused = fmt.Errorf("XOAUTH2 token refused (%q)", challenge)
	} else {
		c.Refused = e
	}
	return []byte{}, nil
}

// Authenticator checks a login's token for username; a non-nil error
// refuses it, and is what the server's last answer says.
type Authenticator func(username, token string) error

type server struct {
	auth    Authenticator
	refused error // the login refused, sent as a JSON challenge
	done    bool
}

// NewServer returns the server side, which checks logins with auth.
func NewServer(auth Authenticator) sasl.Server { return &server{auth: auth} }

func (s *server) Next(response []byte) (challenge []byte, done bool, err error) {
	switch {
	case s.refused != nil:
		// The client's answer to the error challenge, whatever it is.
		return nil, true, s.refused
	case s.done:
		return nil, true, sasl.ErrUnexpectedClientResponse
	case response == nil:
		return []byte{}, false, nil // asks for the initial response
	}
	s.done = true
	user, token, err := parse(response)
	if err == nil {
		err = s.auth(user, token)
	}
	if err == nil {
		return nil, true, nil
	}
	s.refused = err
	blob, _ := json.Marshal(Error{Status: "400", Schemes: "Bearer"})
	return blob, false, nil
}

// parse reads "user=...\x01auth=Bearer ...\x01\x01".
func parse(response []byte) (user, token string, err error) {
	for _, field := range bytes.Split(response, []byte{1}) {
		k, v, _ := strings.Cut(string(field), "=")
		switch k {
		case "user":
			user = v
		case "auth":
			scheme, t, ok := strings.Cut(v, " ")
			if ok && strings.EqualFold(scheme, "Bearer") {
				token = t
			}
		}
	}
	if user == "" || token == "" {
		return "", "", errors.New("xoauth2: malformed initial response")
	}
	return user, token, nil
}
