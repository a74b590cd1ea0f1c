package pbem

import (
	"fmt"
	"strings"

	"icepost/engine"
	"icepost/pbem/outmail"
	"icepost/pbem/replytoken"
	"icepost/rules"
)

// subject is the one stable subject of a game's mails for a seat, so that
// mail clients keep one thread. It carries the seat's thread token.
func (h *handling) subject(g *game, seatNo int) string {
	s := fmt.Sprintf("%s #%d", g.gameName(), g.id)
	names := make([]string, len(g.seats))
	for i, st := range g.seats {
		names[i] = st.name
	}
	s += ": " + strings.Join(names, " vs ")
	if seatNo > 0 {
		s += " [" + replytoken.Token{Kind: 'g', Game: g.id, Seat: seatNo}.Sign(h.s.Secret) + "]"
	}
	return s
}

func (h *handling) threadRoot(g *game, seatNo int) string {
	return fmt.Sprintf("icepost-game-%d-%d@%s", g.id, seatNo, h.s.domain())
}

// threadMail is a mail to a seat in a game's thread; with a token (kind
// not 0) the reply address and Message-ID carry it, else the seat's
// thread token.
func (h *handling) threadMail(g *game, seatNo int, tok replytoken.Token) *outmail.Mail {
	if tok.Kind == 0 {
		tok = replytoken.Token{Kind: 'g', Game: g.id, Seat: seatNo}
	}
	signed := tok.Sign(h.s.Secret)
	root := h.threadRoot(g, seatNo)
	return &outmail.Mail{
		To:         g.seats[seatNo-1].address,
		ReplyTo:    h.s.plusAddress(signed),
		Subject:    h.subject(g, seatNo),
		MessageID:  signed + "." + outmail.RandomID() + "@" + h.s.domain(),
		InReplyTo:  root,
		References: []string{root},
	}
}

// boardMail is the board as a seat (or an observer, seatNo 0 with to set)
// sees it: the game and its players, news, the board from their side,
// the clock, what to do next, and the position code. The HTML part shows
// the board as a picture (boardImage) in place of the text board.
func (h *handling) boardMail(g *game, seatNo int, news, to string) *outmail.Mail {
	var m *outmail.Mail
	if seatNo > 0 {
		m = h.threadMail(g, seatNo, replytoken.Token{Kind: 'm', Game: g.id, Seat: seatNo, Ply: g.ply()})
	} else {
		m = &outmail.Mail{To: to, ReplyTo: h.s.Address, Subject: h.subject(g, 0)}
	}
	s := g.state()
	var b strings.Builder
	b.WriteString(g.title() + "\n")
	for i, st := range g.seats {
		fmt.Fprintf(&b, "  seat %d: %s <%s>\n", i+1, st.name, st.address)
	}
	b.WriteString("\n")
	if news != "" {
		b.WriteString(strings.TrimRight(news, "\n") + "\n\n")
	}
	board := boardText(s, seatNo, g.status != statusActive)
	b.WriteString(board + "\n")
	fmt.Fprintf(&b, "Moves played: %d\n", g.ply())
	b.WriteString(h.clockLine(g, seatNo) + "\n")
	b.WriteString(h.nextStep(g, seatNo) + "\n")
	b.WriteString(codeBlock(s.Code()))
	m.Text = b.String()
	m.Picture = h.boardImage(g, seatNo, board)
	return m
}

// codeBlock is a position code as the last lines of a mail: on one line
// after "Position: " when it fits (scripts read it there, as the demo's
// players do), else as code (pbem/outmail), broken after a "/".
func codeBlock(code string) string {
	if line := "Position: " + code; len(line) <= outmail.TextMax {
		return line + "\n"
	}
	return "Position (one line, broken here after a \"/\"):\n    " + strings.Join(wrapCode(code, outmail.TextWidth-outmail.CodeIndent), "\n    ") + "\n"
}

// nextStep says what the reader of a board mail does next.
func (h *handling) nextStep(g *game, seatNo int) string {
	s := g.state()
	var b strings.Builder
	switch {
	case g.status != statusActive:
		b.WriteString(g.endText() + "\n")
		if seatNo > 0 && g.status == statusFinished && g.ply() > 0 {
			b.WriteString("For the computer's analysis of the game (its mistakes, the better moves, a graph of the odds), reply analyze.\n")
		}
	case seatNo > 0 && s.ToMove() == seatNo:
		example := ""
		if legal := s.Moves(nil); len(legal) > 0 {
			example = " (for example " + s.FormatMove(legal[len(legal)/2]) + ")"
		}
		fmt.Fprintf(&b, "YOUR MOVE, %s. Reply to this mail with your move on the first line%s.\nA line of text after the move is passed on to the others as a comment.\n", g.seats[seatNo-1].name, example)
	default:
		fmt.Fprintf(&b, "%s (seat %d) is to move. The next board will come by mail.\n", g.seats[s.ToMove()-1].name, s.ToMove())
	}
	if seatNo > 0 && g.status == statusActive && g.botMask() != 0 {
		if n := g.play.Repeats(); n >= engine.RepeatDraw {
			fmt.Fprintf(&b, "This position has stood on the board %d times: offer a draw (reply draw) and the bot accepts.\n", n)
		}
	}
	if link := h.s.playLink(g.id, seatNo); link != "" && g.status == statusActive {
		fmt.Fprintf(&b, "Or play in your browser: %s\n", link)
	}
	b.WriteString(g.conditionsText(seatNo))
	if seatNo > 0 && g.status == statusActive {
		b.WriteString("\nOther commands: board, moves, history, draw, resign, undo, games, help.\n")
	}
	return b.String()
}

// boardText is the text board from viewer's side. A game that ended off
// the board (a resignation, an agreement, a loss on time) is not over by
// the rules, so the board's last line would still say "Seat N to move"
// above the mail's "Game over": that line is left out.
func boardText(s rules.State, viewer int, ended bool) string {
	text := s.Board(viewer)
	if !ended || s.Outcome().Over || s.ToMove() == 0 {
		return text
	}
	body := strings.TrimSuffix(text, "\n")
	i := strings.LastIndexByte(body, '\n')
	if strings.HasPrefix(body[i+1:], fmt.Sprintf("Seat %d to move", s.ToMove())) {
		return body[:i+1]
	}
	return text
}

// wrapCode breaks a position code into lines of at most width
// characters, after a "/" or at a space, so that a mail's text stays
// narrow; a code that fits stays one line.
func wrapCode(code string, width int) []string {
	var lines []string
	for len(code) > width {
		cut := strings.LastIndexAny(code[:width+1], " /")
		if cut <= 0 {
			cut = width
		} else if code[cut] == '/' {
			cut++ // keep the "/" at the line's end
		}
		lines = append(lines, strings.TrimRight(code[:cut], " "))
		code = strings.TrimLeft(code[cut:], " ")
	}
	return append(lines, code)
}
