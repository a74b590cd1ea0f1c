package mailerr

import (
	"fmt"
	"strings"
)

// OAuth2Error is the failure of a login with an OAuth2 access token
// (XOAUTH2, OAUTHBEARER), so that Advice names the token's setting
// rather than the password's: the token could not be had (Token: the
// file is missing or empty, the command failed), or the server refused
// it. It wraps what failed, which Classify reads as usual (At the login
// step, whatever does not pass is an operator fault).
type OAuth2Error struct {
	// Setting is where the token comes from: "oauth2_token_file" or
	// "oauth2_token_command".
	Setting string
	// Token says that the token could not be had; false: the login with
	// it failed.
	Token bool
	Err   error
}

func (e *OAuth2Error) Error() string {
	if e.Token {
		return fmt.Sprintf("OAuth2 token (%s): %v", e.Setting, e.Err)
	}
	return fmt.Sprintf("with the OAuth2 token of %s: %v", e.Setting, e.Err)
}

func (e *OAuth2Error) Unwrap() error { return e.Err }

// MechanismError says that a server does not offer the login mechanism
// the settings ask for (auth = "xoauth2" where the server offers only
// OAUTHBEARER, say). The settings are wrong: an operator fault.
type MechanismError struct {
	// Mechanism is the one asked for, Offered those the server offers.
	Mechanism string
	Offered   []string
}

func (e *MechanismError) Error() string {
	if len(e.Offered) == 0 {
		return fmt.Sprintf("the server offers no AUTH %s (it offers no login mechanism on this connection)", e.Mechanism)
	}
	return fmt.Sprintf("the server offers no AUTH %s (it offers %s)", e.Mechanism, strings.Join(e.Offered, " "))
}

// Kind says that it is an operator fault.
func (e *MechanismError) Kind() Kind { return Operator }

// oauth2Advice is Advice for an OAuth2 login's failure.
func oauth2Advice(e *OAuth2Error, proto, section string) string {
	switch {
	case e.Token && e.Setting == "oauth2_token_command":
		return fmt.Sprintf("%s login: %s oauth2_token_command failed (its error output is in the error): fix the command, or the refresher it asks", proto, section)
	case e.Token:
		return fmt.Sprintf("%s login: the OAuth2 token cannot be read: check %s oauth2_token_file, and that the token refresher writes it", proto, section)
	case e.Setting == "oauth2_token_command":
		return fmt.Sprintf("%s login: the OAuth2 token was refused: check that %s oauth2_token_command prints a fresh token, for %s username", proto, section, section)
	}
	return fmt.Sprintf("%s login: the OAuth2 token was refused: check that %s oauth2_token_file is refreshed, and is for %s username", proto, section, section)
}
