package pbem

import (
	"database/sql"
	"errors"
	"strings"

	"icepost/pbem/replytoken"
	"icepost/pbem/senderauth"
)

// Who may act (docs/mail.md, "Who may act"), decided here once for every
// mail and every command. A From line is easily forged, so a mail acts
// for a player only with proof that it comes from them:
//
//   - With the operator's check of senders (auth_serv_id), a verified
//     sender: the operator's mail server vouches for the From in its
//     Authentication-Results header. It is required for every command
//     that acts, and it suffices without a reply token (the token then
//     only names the game and the move).
//   - Without it, a reply token the server sent to the From's address: a
//     seat's token from that seat's address, or an address token.
//
// What a command needs is in its entry of the table (mailcommands.go):
// readOnly commands answer the From alone; forSeat and forSender commands
// need the proof, and without it the answer is the board (or the
// invitation, or a mail with an address token) to the From, so that one
// reply with the same line does it.

// sender is what a mail shows of who sent it.
type sender struct {
	tok    *replytoken.Token // the reply token of a seat the mail carries, nil without
	proven bool              // the mail shows that it comes from its From
	why    string            // when not proven: why not, in words for the player
}

// decideSender looks once at what the mail shows of its sender.
func (h *handling) decideSender() error {
	if t, ok := h.findReplyToken(); ok {
		h.sender.tok = &t
	}
	if h.s.AuthServID != "" {
		h.sender.proven = h.verified()
		h.sender.why = "this server's mail system could not confirm that it comes from " + h.msg.From +
			" (no DMARC or DKIM pass for its domain); if your replies keep getting this answer, your mail provider does not sign its mail, and this server cannot take commands from it"
		return nil
	}
	h.sender.why = "it did not answer a mail that this server sent to " + h.msg.From + ": a reply is what shows that a mail is yours"
	if t := h.sender.tok; t != nil {
		addr, err := h.seatAddress(t.Game, t.Seat)
		if err != nil {
			return err
		}
		if addr != "" && addr == h.msg.From {
			h.sender.proven = true
			return nil
		}
	}
	for _, s := range h.tokenPlaces() {
		if replytoken.IsForAddress(h.s.Secret, s, h.msg.From) {
			h.sender.proven = true
			return nil
		}
		// A puzzle mail's token is bound to its address too.
		if _, _, ok := replytoken.ParsePuzzle(h.s.Secret, s, h.msg.From); ok {
			h.sender.proven = true
			return nil
		}
	}
	return nil
}

// seatAddress is the address of a person's seat, "" when the game or the
// seat does not exist or a bot plays it.
func (h *handling) seatAddress(id int64, seat int) (string, error) {
	var addr string
	err := h.tx.QueryRowContext(h.ctx, `SELECT address FROM pbem_seats WHERE game_id = ? AND seat = ? AND bot_level = 0`, id, seat).Scan(&addr)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return addr, err
}

// verified says whether the operator's mail server vouches for the From
// (auth_serv_id): the one decision is senderauth's.
func (h *handling) verified() bool {
	ok, why := senderauth.Verify(h.msg.AuthResults, h.s.AuthServID, h.msg.From)
	if !ok && h.s.AuthServID != "" {
		h.s.log().Info("sender not verified", "from", h.msg.From, "why", why)
	}
	return ok
}

// tokenPlaces are the texts of the mail where a token may stand, in the
// order they are looked at: the plus parts of its recipients, the
// In-Reply-To, the References (newest first), and the words in brackets
// in the subject.
func (h *handling) tokenPlaces() []string {
	var out []string
	out = append(out, h.msg.PlusParts...)
	idToken := func(id string) string {
		id = strings.Trim(id, "<> ")
		local, _, _ := strings.Cut(id, "@")
		tok, _, _ := strings.Cut(local, ".")
		return tok
	}
	out = append(out, idToken(h.msg.InReplyTo))
	for i := len(h.msg.References) - 1; i >= 0; i-- {
		out = append(out, idToken(h.msg.References[i]))
	}
	for _, tag := range h.msg.SubjectTags {
		out = append(out, strings.Fields(tag)...)
	}
	return out
}

// findReplyToken returns the first valid reply token of a seat the mail
// carries (see tokenPlaces).
func (h *handling) findReplyToken() (replytoken.Token, bool) {
	for _, s := range h.tokenPlaces() {
		if t, ok := replytoken.Parse(h.s.Secret, s); ok {
			return t, true
		}
	}
	return replytoken.Token{}, false
}
