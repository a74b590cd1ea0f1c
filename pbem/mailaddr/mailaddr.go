// Package mailaddr holds the one canonical form of a mail address, so
// that every comparison, key and token of icepost (seats, senders,
// limits, blocks, observers, reply tokens, exports, the settings) sees
// one address as one string and two mailboxes as two.
//
// Why a package of its own: addresses were compared with
// strings.ToLower and strings.EqualFold, whose Unicode case folding
// made "Kim@club.test" with a KELVIN SIGN (U+212A) the same player as
// "kim@club.test". The rule here is RFC 5321's: the domain is the DNS's,
// so it is lower-cased and written in its ASCII (IDNA) form; the local
// part belongs to the receiving system, so only what every mail system
// treats alike is folded: an all-ASCII local part is lower-cased in
// ASCII, and a local part with any other character is kept exactly as
// written (no Unicode case folding, no normalisation). Two different
// canonical strings are two different addresses; equal ones are one.
package mailaddr

import (
	"errors"
	"fmt"
	"net/mail"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// MaxLen is the longest address taken (RFC 5321's path limit).
const MaxLen = 254

// idnaProfile maps a domain as a resolver would (UTS #46: case, width)
// and checks it, so that two spellings of one DNS name are one domain
// and a name no resolver would look up is refused.
var idnaProfile = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.Transitional(false),
	idna.StrictDomainName(true),
	idna.VerifyDNSLength(true),
)

// ErrEmpty is an empty address.
var ErrEmpty = errors.New("no address")

// Canonical reads one bare address (local@domain, the local part quoted
// where RFC 5322 needs it) and returns its canonical form: the local
// part lower-cased in ASCII when it is all ASCII and as written
// otherwise, then '@' and the domain in lower-case ASCII (IDNA); the
// local part is quoted where it must be (as net/mail writes it), so that
// the form can go into a header or a record as it is. It is idempotent:
// Canonical of a canonical form is that form.
func Canonical(s string) (string, error) {
	if s == "" {
		return "", ErrEmpty
	}
	if len(s) > MaxLen {
		return "", fmt.Errorf("an address of %d bytes is longer than the %d an address may have", len(s), MaxLen)
	}
	if !utf8.ValidString(s) {
		return "", fmt.Errorf("%s is not valid UTF-8", Quote(s))
	}
	a, err := mail.ParseAddress("<" + s + ">")
	if err != nil || a.Name != "" || strings.ContainsAny(s, "\r\n") {
		return "", fmt.Errorf("%s is not an address: write one address as name@domain, with no display name or < >", Quote(s))
	}
	return FromParsed(a)
}

func join(local, domain string) (string, error) {
	if local == "" {
		return "", fmt.Errorf("%s has no local part before the @", Quote("@"+domain))
	}
	for _, r := range local {
		if r < 0x20 || r == 0x7f {
			return "", fmt.Errorf("the address %s has a control character", Quote(local+"@"+domain))
		}
	}
	if strings.HasPrefix(domain, "[") {
		return "", fmt.Errorf("%s: an address at an IP literal is not taken; use a domain name", Quote(local+"@"+domain))
	}
	d, err := idnaProfile.ToASCII(domain)
	if err != nil || strings.TrimSuffix(d, ".") == "" {
		return "", fmt.Errorf("%s: %s is not a domain a mail can be sent to", Quote(local+"@"+domain), Quote(domain))
	}
	d = strings.TrimSuffix(d, ".")
	if isASCII(local) {
		local = lowerASCII(local)
	}
	return addrSpec(local + "@" + d), nil
}

// FromParsed is Canonical for an address net/mail has parsed (its
// Address field holds the local part unquoted).
func FromParsed(a *mail.Address) (string, error) {
	at := strings.LastIndexByte(a.Address, '@')
	if at < 0 {
		return "", fmt.Errorf("%s is not an address: it has no @", Quote(a.Address))
	}
	if len(a.Address) > MaxLen {
		return "", fmt.Errorf("an address of %d bytes is longer than the %d an address may have", len(a.Address), MaxLen)
	}
	return join(a.Address[:at], a.Address[at+1:])
}

// Equal reports whether a and b are one address; an address that does
// not parse equals nothing.
func Equal(a, b string) bool {
	ca, err := Canonical(a)
	if err != nil {
		return false
	}
	cb, err := Canonical(b)
	return err == nil && ca == cb
}

// addrSpec writes an address whose local part is unquoted (net/mail's
// Address field) as an addr-spec, the local part quoted where RFC 5322
// needs it, as net/mail does. A canonical form is written this way
// already: it goes into headers and records as it is.
func addrSpec(addr string) string {
	s := (&mail.Address{Address: addr}).String()
	return strings.TrimSuffix(strings.TrimPrefix(s, "<"), ">")
}

// Quote quotes a piece of input for an error message: at most 80
// characters, with what is not printable escaped.
func Quote(s string) string {
	const max = 80
	if utf8.RuneCountInString(s) > max {
		n := 0
		for i := range s {
			if n == max {
				s = s[:i] + "…"
				break
			}
			n++
		}
	}
	return fmt.Sprintf("%+q", s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
