package xoauth2

import (
	"errors"
	"testing"
)

// TestExchange runs the client against the server, as IMAP and SMTP carry
// them: a good token, and a refused one answered with an empty response.
func TestExchange(t *testing.T) {
	refused := errors.New("no")
	auth := func(user, token string) error {
		if user == "games@example.org" && token == "good" {
			return nil
		}
		return refused
	}
	for _, tc := range []struct {
		token string
		want  error
	}{{"good", nil}, {"stale", refused}} {
		t.Run(tc.token, func(t *testing.T) {
			c, s := NewClient("games@example.org", tc.token), NewServer(auth)
			mech, resp, err := c.Start()
			if mech != Mechanism || err != nil {
				t.Fatalf("Start: %s, %v", mech, err)
			}
			var done bool
			for i := 0; !done; i++ {
				if i > 3 {
					t.Fatal("no end to the exchange")
				}
				var challenge []byte
				challenge, done, err = s.Next(resp)
				if done || err != nil {
					break
				}
				if resp, err = c.Next(challenge); err != nil {
					t.Fatalf("client Next: %v", err)
				}
				if resp == nil {
					t.Fatal("client answered nil, which go-smtp takes for the end")
				}
			}
			if err != tc.want {
				t.Errorf("server says %v, want %v", err, tc.want)
			}
			if (c.Refused != nil) != (tc.want != nil) {
				t.Errorf("client's Refused = %v", c.Refused)
			}
		})
	}
}
