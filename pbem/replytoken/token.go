// Package replytoken signs and checks the tokens that tie a mail to a
// game, a seat and a ply, and the address tokens that prove a sender:
// what lets a reply act for a player without trusting its From line. It
// holds nothing but the format and the MAC, so that the one place where
// a capability is written and read can be read on its own.
package replytoken

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"strconv"
	"strings"
)

// A Token ties a mail to a game, a seat and (for board mails) a ply,
// so that a reply can be checked without trusting its From line: it
// authorises a seat. (A move token, what a player writes to name a move,
// is another thing: a string the game decodes; see notation and rules.) It is an
// HMAC-SHA256 with the server's secret, cut to 80 bits and written in
// lower-case base32:
//
//	m12-1-5-abcdefghijklmnop   board mail: game 12, seat 1, ply 5
//	i12-2-abcdefghijklmnop     invitation: game 12, seat 2
//	g12-1-abcdefghijklmnop     the game's thread (the subject): game 12, seat 1
//	w12-1-abcdefghijklmnop     the play page's capability (pbem's webplay.go): game 12, seat 1
//
// It travels in the Reply-To address (games+TOKEN@host), in the
// Message-ID (<TOKEN.random@host>, so it survives in References) and, as
// the g form, in the subject.
type Token struct {
	Kind byte // 'm', 'i', 'g' or 'w'
	Game int64
	Seat int
	Ply  int // 'm' only
}

const macLen = 16 // base32 characters: 80 bits

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

func (t Token) body() string {
	s := string(t.Kind) + strconv.FormatInt(t.Game, 10) + "-" + strconv.Itoa(t.Seat)
	if t.Kind == 'm' {
		s += "-" + strconv.Itoa(t.Ply)
	}
	return s
}

func mac(secret []byte, body string) string {
	h := hmac.New(sha256.New, secret)
	h.Write([]byte(body))
	return strings.ToLower(b32.EncodeToString(h.Sum(nil)))[:macLen]
}

// Sign writes the token with its MAC.
func (t Token) Sign(secret []byte) string {
	b := t.body()
	return b + "-" + mac(secret, b)
}

// Parse reads and checks a token; ok is false for anything that is
// not a well-formed token with a valid MAC.
//
// A token has one spelling, the one Sign writes: the same token in upper
// case, with spaces or percent-encoded is not a token. (A play link's
// limit is counted by the seat it names, whatever was typed, but a link
// typed otherwise does not get that far.)
func Parse(secret []byte, s string) (Token, bool) {
	if len(s) < 4 || len(s) > 64 {
		return Token{}, false
	}
	i := strings.LastIndexByte(s, '-')
	if i < 0 {
		return Token{}, false
	}
	body, sum := s[:i], s[i+1:]
	parts := strings.Split(body[1:], "-")
	t := Token{Kind: body[0]}
	want := 2
	if t.Kind == 'm' {
		want = 3
	} else if t.Kind != 'i' && t.Kind != 'g' && t.Kind != 'w' {
		return Token{}, false
	}
	if len(parts) != want {
		return Token{}, false
	}
	var nums [3]int64
	for k, p := range parts {
		n, err := strconv.ParseInt(p, 10, 64)
		if err != nil || n < 0 || strconv.FormatInt(n, 10) != p {
			return Token{}, false
		}
		nums[k] = n
	}
	t.Game, t.Seat, t.Ply = nums[0], int(nums[1]), int(nums[2])
	if t.Seat < 1 || t.Seat > 4 || t.body() != body {
		return Token{}, false
	}
	if !hmac.Equal([]byte(sum), []byte(mac(secret, body))) {
		return Token{}, false
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
func ForAddress(secret []byte, addr string) string {
	return "a-" + mac(secret, "a "+addr)
}

// IsForAddress checks s as an address token of addr.
func IsForAddress(secret []byte, s, addr string) bool {
	sum, ok := strings.CutPrefix(s, "a-")
	return ok && addr != "" && hmac.Equal([]byte(sum), []byte(mac(secret, "a "+addr)))
}

// A puzzle token ties a reply to the daily puzzle (pbem's puzzles.go) to
// the address it was sent to, the puzzle and how many of the player's
// own moves were played when it was sent: a reply with a move answers
// that puzzle at that point, and proves its sender as an address token
// does. It is "p", the puzzle, the moves, and an HMAC of them with the
// address, cut as a reply token's:
//
//	p12-1-abcdefghijklmnop
func ForPuzzle(secret []byte, addr string, puzzle int64, moves int) string {
	body := "p" + strconv.FormatInt(puzzle, 10) + "-" + strconv.Itoa(moves)
	return body + "-" + mac(secret, body+" "+addr)
}

// ParsePuzzle reads s as a puzzle token of addr: the puzzle and the
// moves; ok is false for anything else (another address's token too).
func ParsePuzzle(secret []byte, s, addr string) (puzzle int64, moves int, ok bool) {
	if addr == "" || len(s) > 64 || !strings.HasPrefix(s, "p") {
		return 0, 0, false
	}
	i := strings.LastIndexByte(s, '-')
	if i < 0 {
		return 0, 0, false
	}
	body, sum := s[:i], s[i+1:]
	id, n, found := strings.Cut(body[1:], "-")
	if !found {
		return 0, 0, false
	}
	p, err1 := strconv.ParseInt(id, 10, 64)
	k, err2 := strconv.Atoi(n)
	if err1 != nil || err2 != nil || p < 1 || k < 0 || k > 9 || strconv.FormatInt(p, 10) != id || strconv.Itoa(k) != n {
		return 0, 0, false
	}
	if !hmac.Equal([]byte(sum), []byte(mac(secret, body+" "+addr))) {
		return 0, 0, false
	}
	return p, k, true
}
