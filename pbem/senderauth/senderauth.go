// Package senderauth decides whether the operator's own mail server vouches
// for the sender of an incoming mail: Verify.
//
// A play-by-email server must never let someone act for another player,
// and a From line is easily forged: anyone can write any address there.
// What can be believed is the operator's own MTA, which checks DMARC and
// DKIM when the mail arrives and writes what it found in an
// Authentication-Results header field (RFC 8601) under its own
// authserv-id. This package is the one place in icepost that reads those
// fields, with a kept parser (github.com/emersion/go-msgauth/authres),
// never by substring.
//
// The decision, for a mail whose From address has the domain D:
//
//   - Only the topmost Authentication-Results field under the operator's
//     authserv-id counts. Fields of other servers are passed over (anyone
//     can write them, below ours); a second field of ours below the first is
//     not read either: a fail on top and a pass below is not verified.
//   - The sender is verified when that field has dmarc=pass with
//     header.from D, or, when its dmarc result is none or missing, dkim=pass
//     with a header.d aligned with D as DMARC's relaxed alignment has it: D
//     itself, or a domain of the same organizational domain (the public
//     suffix list plus one label), where a public suffix is no one's
//     organization. dmarc=none says only that D publishes no DMARC policy
//     (many small domains do not): the domain's own signature still
//     vouches for the mail.
//   - Any other dmarc result than a pass for D or none (a fail, temperror,
//     permerror, a pass for another domain or without header.from) means
//     not verified, whatever the dkim results say: a dmarc fail beside an
//     aligned dkim pass contradicts itself, and in doubt, not verified.
//     One dkim pass suffices among dkim failures: a mail may carry several
//     signatures and one of them may break.
//   - SPF is not read (it vouches for the envelope sender, not the From
//     line), nor ARC (a forwarder's word).
//
// It relies on the operator's server adding its field on top of every mail
// it accepts: a field under the operator's authserv-id that the sender
// wrote below counts when there is none above it. RFC 8601 section 5 asks
// the server to remove such fields from incoming mail too.
//
// All of this vouches for the domain, not the person: that ada@example.org
// and not bob@example.org sent the mail is up to example.org's own server.
//
// go-msgauth's Parse splits at every ";" and at white space and keeps
// comments, so a comment or a quoted string could forge a result (as in
// "dmarc=fail (p=reject; dmarc=pass header.from=example.org)"). Verify
// first takes the comments out and makes quoted strings safe; a field it
// cannot read that way (an unbalanced comment, a control character,
// non-ASCII outside comments and quoted strings, over 16 KB) is read as
// "not verified", and so is anything the parser refuses.
package senderauth

import (
	"errors"
	"fmt"
	"strings"

	"github.com/emersion/go-msgauth/authres"
	"golang.org/x/net/publicsuffix"
)

const (
	// maxValue bounds the length of one Authentication-Results value.
	maxValue = 16 << 10
	// maxResults bounds the results in the field that counts; a real one
	// has a handful.
	maxResults = 100
	// maxShown bounds a piece of the mail (or a parser's error, which may
	// quote it) in a reason.
	maxShown = 80
)

// Verify reports whether the operator's own mail server, whose authserv-id
// is authServID, vouches for the address from, and why, briefly, for the
// operator's log. See the package comment for the rules.
//
// headers are the Authentication-Results field values, topmost (most
// recent) first, as the mail carries them, unfolded (runs of white space
// may be collapsed to one space). from is a bare address, such as
// "ada@example.org"; its domain is what follows the last "@".
//
// Verify never panics. Without authServID nobody is verified. A value over
// 16 KB, or one that cannot be read, above or at the first of ours stops
// the search with "not verified": it might have been ours.
func Verify(headers []string, authServID, from string) (ok bool, why string) {
	if authServID == "" {
		return false, "no authserv-id configured: nobody is verified"
	}
	domain, why := fromDomain(from)
	if domain == "" {
		return false, why
	}
	for i, h := range headers {
		if len(h) > maxValue {
			return false, fmt.Sprintf("Authentication-Results %d is over %d bytes", i+1, maxValue)
		}
		clean, err := uncomment(h)
		if err != nil {
			return false, fmt.Sprintf("Authentication-Results %d: %v", i+1, err)
		}
		id, results, err := authres.Parse(clean)
		if id == "" {
			if err == nil {
				err = errors.New("no authserv-id")
			}
			return false, fmt.Sprintf("Authentication-Results %d: %s", i+1, shown(err.Error()))
		}
		if lowerASCII(id) != lowerASCII(authServID) {
			continue
		}
		if err != nil {
			return false, fmt.Sprintf("Authentication-Results from %s: %s", authServID, shown(err.Error()))
		}
		if len(results) > maxResults {
			return false, fmt.Sprintf("Authentication-Results from %s has over %d results", authServID, maxResults)
		}
		return decide(results, domain, authServID)
	}
	return false, "no Authentication-Results from " + authServID
}

// decide reads the results of the field that counts, for the From domain.
func decide(results []authres.Result, domain, authServID string) (ok bool, why string) {
	var (
		dmarcPass, dmarcOther bool
		dkimPass              string // an aligned header.d
		dmarcWhy, dkimWhy     string // the first dmarc result against, a dkim result not good enough
	)
	for _, r := range results {
		switch r := r.(type) {
		case *authres.DMARCResult:
			from := lowerASCII(r.From)
			switch {
			case r.Value == authres.ResultPass && from == domain:
				dmarcPass = true
			case r.Value == authres.ResultNone:
				// No DMARC policy published: the dkim results decide.
			case dmarcOther:
			case r.From == "":
				dmarcOther, dmarcWhy = true, fmt.Sprintf("dmarc=%s without header.from", shown(string(r.Value)))
			case from != domain:
				dmarcOther, dmarcWhy = true, fmt.Sprintf("dmarc=%s for %s, not %s", shown(string(r.Value)), shown(from), domain)
			default:
				dmarcOther, dmarcWhy = true, fmt.Sprintf("dmarc=%s for %s", shown(string(r.Value)), domain)
			}
		case *authres.DKIMResult:
			d := lowerASCII(r.Domain)
			switch {
			case r.Value != authres.ResultPass && dkimWhy != "":
			case r.Value != authres.ResultPass && d == "":
				dkimWhy = fmt.Sprintf("dkim=%s without header.d", shown(string(r.Value)))
			case r.Value != authres.ResultPass:
				dkimWhy = fmt.Sprintf("dkim=%s for %s", shown(string(r.Value)), shown(d))
			case d == "":
				dkimWhy = "dkim=pass without header.d"
			case aligned(d, domain):
				if dkimPass == "" {
					dkimPass = d
				}
			default:
				dkimWhy = fmt.Sprintf("dkim=pass for %s, not aligned with %s", shown(d), domain)
			}
		}
	}
	switch {
	case dmarcOther:
		return false, dmarcWhy
	case dmarcPass:
		return true, "dmarc=pass for " + domain
	case dkimPass != "":
		return true, fmt.Sprintf("dkim=pass for %s, aligned with %s", dkimPass, domain)
	case dkimWhy != "":
		return false, dkimWhy
	case len(results) == 0:
		return false, "Authentication-Results from " + authServID + " has no results"
	}
	return false, "Authentication-Results from " + authServID + " has no dmarc or dkim result"
}

// aligned reports whether a DKIM signing domain d is aligned with the From
// domain in DMARC's relaxed mode: the same domain, or the same
// organizational domain. Both are lower-case; domain is valid.
func aligned(d, domain string) bool {
	if !validDomain(d) {
		return false
	}
	if d == domain {
		return true
	}
	od, err := publicsuffix.EffectiveTLDPlusOne(d)
	if err != nil {
		return false
	}
	of, err := publicsuffix.EffectiveTLDPlusOne(domain)
	return err == nil && od == of
}

// fromDomain returns the lower-cased domain of a bare address, or "" and
// why not.
func fromDomain(from string) (domain, why string) {
	at := strings.LastIndexByte(from, '@')
	if at < 0 {
		return "", fmt.Sprintf("From %q has no @", shown(from))
	}
	domain = lowerASCII(from[at+1:])
	if !validDomain(domain) {
		return "", fmt.Sprintf("From %q has no plain domain name", shown(from))
	}
	return domain, ""
}

// validDomain reports whether d is a lower-case ASCII domain name: labels
// of letters, digits and inner hyphens. The public suffix list is looked
// up in this form only (it does not know U-labels or upper case).
func validDomain(d string) bool {
	if d == "" || len(d) > 253 {
		return false
	}
	for label := range strings.SplitSeq(d, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	return true
}

// uncomment returns the field value v ready for authres.Parse: each RFC
// 5322 comment (nested, with quoted-pairs) made one space, and each quoted
// string made its content when that is a plain word (letters, digits and
// ".-_@+/:"), else an empty quoted string, so that neither can carry a ";",
// white space or a property into the parser. It refuses control
// characters (tab aside), an unbalanced comment or quoted string, a
// backslash outside them, and non-ASCII outside them. It is linear in
// len(v).
func uncomment(v string) (string, error) {
	var b strings.Builder
	b.Grow(len(v))
	depth := 0 // of comments
	for i := 0; i < len(v); i++ {
		c := v[i]
		if isControl(c) {
			return "", errors.New("a control character")
		}
		switch {
		case depth > 0:
			switch c {
			case '\\':
				if i++; i == len(v) || isControl(v[i]) {
					return "", errors.New("a bad quoted-pair in a comment")
				}
			case '(':
				depth++
			case ')':
				if depth--; depth == 0 {
					b.WriteByte(' ')
				}
			}
		case c == '(':
			depth = 1
		case c == ')':
			return "", errors.New("a ')' outside a comment")
		case c == '"':
			end, word, err := quoted(v, i)
			if err != nil {
				return "", err
			}
			if word == "" {
				word = `""`
			}
			b.WriteString(word)
			i = end
		case c == '\\':
			return "", errors.New("a backslash outside a quoted string or comment")
		case c >= 0x80:
			return "", errors.New("non-ASCII outside a quoted string or comment")
		default:
			b.WriteByte(c)
		}
	}
	if depth > 0 {
		return "", errors.New("an unclosed comment")
	}
	return b.String(), nil
}

// quoted reads the quoted string that opens at v[start] and returns the
// index of its closing quote, and its content if that is a plain word, or
// "".
func quoted(v string, start int) (end int, word string, err error) {
	var b strings.Builder
	plain := true
	for i := start + 1; i < len(v); i++ {
		c := v[i]
		switch {
		case isControl(c):
			return 0, "", errors.New("a control character")
		case c == '"':
			if !plain {
				return i, "", nil
			}
			return i, b.String(), nil
		case c == '\\':
			if i++; i == len(v) || isControl(v[i]) {
				return 0, "", errors.New("a bad quoted-pair in a quoted string")
			}
			c = v[i]
		}
		if plain && isWordByte(c) {
			b.WriteByte(c)
		} else {
			plain = false
		}
	}
	return 0, "", errors.New("an unclosed quoted string")
}

func isControl(c byte) bool { return c < ' ' && c != '\t' || c == 0x7f }

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(".-_@+/:", c) >= 0
}

// lowerASCII lower-cases ASCII letters only: Unicode case folding would
// make, for one, the Kelvin sign equal to "k".
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// shown returns s cut to a length fit for a log line.
func shown(s string) string {
	if len(s) > maxShown {
		return s[:maxShown] + "..."
	}
	return s
}
