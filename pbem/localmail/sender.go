package localmail

// Who a mail is from. The SMTP server is a submission server: a mail it
// takes says, in its envelope and in its header, that it is from the
// account that logged in and from nobody else. The daemon decides who may
// act by the From address (pbem/proof.go), and a player's mail client may
// show only the display name, so both are checked: the envelope sender
// (MAIL FROM), the one From address and the Sender, if there is one, must
// be the login's address by mailaddr.Canonical (the case of an ASCII
// local part and the spelling of the domain, IDNA's U-label or A-label,
// do not matter; a look-alike such as a KELVIN SIGN for a K does), and no
// display name or comment may read as another address once its encoded
// words (RFC 2047) are decoded.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/mail"
	"strings"

	"github.com/emersion/go-message/textproto"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/unicode/norm"

	"icepost/pbem/mailaddr"
)

// ownHeader checks msg's header against own, the login's canonical
// address: one From field holding one mailbox of own, and at most one
// Sender field, holding own too. It returns why the mail is refused, in
// words for its sender, or nil. The header is read by go-message's
// parser, the one the daemon reads it with (pbem/mailread), so that the
// fields checked here are the fields the daemon acts on.
func ownHeader(msg []byte, own string) error {
	h, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(msg)))
	if err != nil {
		return errors.New("the header cannot be read")
	}
	from := h.Values("From")
	if len(from) != 1 {
		return fmt.Errorf("the mail has %d From fields, not one", len(from))
	}
	if err := ownMailbox("From", from[0], own); err != nil {
		return err
	}
	switch sender := h.Values("Sender"); len(sender) {
	case 0:
	case 1:
		return ownMailbox("Sender", sender[0], own)
	default:
		return fmt.Errorf("the mail has %d Sender fields, not one", len(sender))
	}
	return nil
}

// ownMailbox checks the value of the From or Sender field (key): one
// mailbox, whose address is own, with no display name or comment that
// reads as another address.
func ownMailbox(key, value, own string) error {
	// One angle-addr at most: then a reader that picks the address out
	// of a field it cannot parse (pbem/mailread's lenient reading does)
	// finds the one checked here, and no display name holds < or >.
	if strings.Count(value, "<") > 1 || strings.Count(value, ">") > 1 {
		return fmt.Errorf("the %s has more than one < or >", key)
	}
	if _, err := wordDecoder.DecodeHeader(value); err != nil {
		return fmt.Errorf("the %s has an encoded word in a charset the server cannot read", key)
	}
	comments, err := comments(value)
	if err != nil {
		return fmt.Errorf("the %s %w", key, err)
	}
	p := mail.AddressParser{WordDecoder: wordDecoder}
	a, err := p.Parse(value)
	if err != nil {
		return fmt.Errorf("the %s is not one address", key)
	}
	if addr, err := mailaddr.FromParsed(a); err != nil || addr != own {
		return fmt.Errorf("the %s address is %s", key, mailaddr.Quote(a.Address))
	}
	// net/mail gives as Name the display name, or the comment of an
	// address without one; every comment is checked, as some mail
	// clients show them.
	for _, text := range append([]string{a.Name}, comments...) {
		if err := ownDisplay(text, own); err != nil {
			return fmt.Errorf("the %s's display name %w", key, err)
		}
	}
	return nil
}

// maxDecodes is how many times a display name is decoded at most: an
// encoded word inside a quoted string, which net/mail leaves as it is,
// or inside another encoded word is decoded by some mail clients.
const maxDecodes = 4

// ownDisplay checks a display name or comment. In each of its decoded
// forms, taken in Unicode's compatibility form (NFKC, in which a
// FULLWIDTH COMMERCIAL AT is an at sign), it must hold no < or >, and an
// at sign only when the whole name is own (case aside, as
// mailaddr.Canonical says; a name with a look-alike letter is another
// address).
func ownDisplay(text, own string) error {
	for range maxDecodes {
		folded := norm.NFKC.String(text)
		if strings.ContainsAny(folded, "<>") {
			return fmt.Errorf("%s has < or >", mailaddr.Quote(text))
		}
		if strings.Contains(folded, "@") {
			if c, err := mailaddr.Canonical(strings.TrimSpace(text)); err != nil || c != own {
				return fmt.Errorf("%s reads as another address", mailaddr.Quote(text))
			}
		}
		decoded, err := wordDecoder.DecodeHeader(text)
		if err != nil {
			return fmt.Errorf("%s is in a charset the server cannot read", mailaddr.Quote(text))
		}
		if decoded == text {
			return nil
		}
		text = decoded
	}
	return fmt.Errorf("%s is encoded again and again", mailaddr.Quote(text))
}

// comments returns the comments of a field's value (their text between
// the parentheses, as written), and refuses a list, a group or a route:
// a ',' ';' or ':' outside quoted strings and comments. net/mail takes a
// group of one member as one address and drops the group's name, which
// a mail client may show.
func comments(value string) ([]string, error) {
	unclosed := errors.New("has an unclosed quote or comment")
	var out []string
	for i := 0; i < len(value); i++ {
		switch value[i] {
		case '"':
			for i++; i < len(value) && value[i] != '"'; i++ {
				if value[i] == '\\' {
					i++
				}
			}
			if i >= len(value) {
				return nil, unclosed
			}
		case '(':
			start, depth := i, 0
		comment:
			for ; i < len(value); i++ {
				switch value[i] {
				case '\\':
					i++
				case '(':
					depth++
				case ')':
					if depth--; depth == 0 {
						break comment
					}
				}
			}
			if i >= len(value) {
				return nil, unclosed
			}
			out = append(out, value[start+1:i])
		case ',', ';', ':':
			return nil, errors.New("is a list or a group, not one address")
		}
	}
	return out, nil
}

// wordDecoder decodes encoded words in the charsets go-message/charset
// knows (IANA's MIME names, then the WHATWG's labels), without importing
// that package: its init sets go-message's process-wide CharsetReader,
// which the daemon's reader keeps unset (pbem/mailread,
// TestNoGlobalCharsetReader). A charset that neither knows, UTF-7 among
// them, is an error: a name that cannot be read cannot be checked, and
// a mail client that reads it may show an address.
var wordDecoder = &mime.WordDecoder{CharsetReader: charsetReader}

func charsetReader(name string, input io.Reader) (io.Reader, error) {
	enc, err := ianaindex.MIME.Encoding(name)
	if enc == nil {
		enc, err = ianaindex.MIME.Encoding("cs" + name)
	}
	if enc == nil {
		enc, err = htmlindex.Get(name)
	}
	if err != nil || enc == nil {
		return nil, fmt.Errorf("localmail: charset %s is not one the server reads", mailaddr.Quote(name))
	}
	return enc.NewDecoder().Reader(input), nil
}
