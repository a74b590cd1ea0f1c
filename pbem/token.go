package pbem

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"strconv"
	"strings"
)

// A replyToken ties a mail to a game, a seat and (for board mails) a ply,
// so that a reply can be checked without trusting its From line: it
// authorises a seat. (A move token, what a player writes to name a move,
// is another thing: a string the game decodes; see notation and rules.) It is an
// HMAC-SHA256 with the server's secret, cut to 80 bits and written in
// lower-case base32:
//
//	m12-1-5-abcdefghijklmnop   board mail: game 12, seat 1, ply 5
//	i12-2-abcdefghijklmnop     invitation: game 12, seat 2
//	g12-1-abcdefghijklmnop     the game's thread (the subject): game 12, seat 1
//	w12-1-abcdefghijklmnop     the play page's capability (webplay.go): game 12, seat 1
//
// It travels in the Reply-To address (games+TOKEN@host), in the
// Message-ID (<TOKEN.random@host>, so it survives in References) and, as
// the g form, in the subject.
type replyToken struct {
	kind byte // 'm', 'i', 'g' or 'w'
	game int64
	seat int
	ply  int // 'm' only
}

const macLen = 16 // base32 characters: 80 bits

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

func (t replyToken) body() string {
	s := string(t.kind) + strconv.FormatInt(t.game, 10) + "-" + strconv.Itoa(t.seat)
	if t.kind == 'm' {
		s += "-" + strconv.Itoa(t.ply)
	}
	return s
}

func mac(secret []byte, body string) string {
	h := hmac.New(sha256.New, secret)
	h.Write([]byte(body))
	return strings.ToLower(b32.EncodeToString(h.Sum(nil)))[:macLen]
}

// sign writes the token with its MAC.
func (t replyToken) sign(secret []byte) string {
	b := t.body()
	return b + "-" + mac(secret, b)
}

// parseToken reads and checks a token; ok is false for anything that is
// not a well-formed token with a valid MAC.
//
// A token has one spelling, the one sign writes: the same token in upper
// case, with spaces or percent-encoded is not a token. (A play link's
// limit is counted by the seat it names, whatever was typed, but a link
// typed otherwise does not get that far.)
func parseReplyToken(secret []byte, s string) (replyToken, bool) {
	if len(s) < 4 || len(s) > 64 {
		return replyToken{}, false
	}
	i := strings.LastIndexByte(s, '-')
	if i < 0 {
		return replyToken{}, false
	}
	body, sum := s[:i], s[i+1:]
	parts := strings.Split(body[1:], "-")
	t := replyToken{kind: body[0]}
	want := 2
	if t.kind == 'm' {
		want = 3
	} else if t.kind != 'i' && t.kind != 'g' && t.kind != 'w' {
		return replyToken{}, false
	}
	if len(parts) != want {
		return replyToken{}, false
	}
	var nums [3]int64
	for k, p := range parts {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil || n < 0 || strconv.FormatInt(n, 10) != p {
			return replyToken{}, false
		}
		nums[k] = n
	}
	t.game, t.seat, t.ply = nums[0], int(nums[1]), int(nums[2])
	if t.seat < 1 || t.seat > 4 || t.body() != body {
		return replyToken{}, false
	}
	if !hmac.Equal([]byte(sum), []byte(mac(secret, body))) {
		return replyToken{}, false
	}
	return t, true
}

// An address token proves that a mail comes from the address it was sent
// to, when no game is concerned: the games list carries one, and so does
// the answer to a command that acts for its sender (a challenge, a
// vacation, observe) sent without proof, so that replying with the same
// line does it. It is "a-" and an HMAC of the address, cut as a reply
// token's:
//
//	a-abcdefghijklmnop
//
// It is valid only on a mail from that address.
func addressToken(secret []byte, addr string) string {
	return "a-" + mac(secret, "a "+addr)
}

// isAddressToken checks s as an address token of addr.
func isAddressToken(secret []byte, s, addr string) bool {
	sum, ok := strings.CutPrefix(s, "a-")
	return ok && addr != "" && hmac.Equal([]byte(sum), []byte(mac(secret, "a "+addr)))
}
