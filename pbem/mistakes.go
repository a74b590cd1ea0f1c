package pbem

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"icepost/pbem/mailread"
	"icepost/rules"
	"icepost/rules/games"
)

// Mistakes that teach (docs/mail.md, "When a mail is not understood"): a
// mail from which the reader took no command is not only answered with
// the help. Its first line is looked at once more, against the table's
// verbs, the games' names and, when the mail is about a game, that
// game's legal moves now: a line copied from the moves answer
// ("d7:  d7:E") plays the one move it names, or gets its moves back to
// pick one; a word near a verb, a game or a legal move gets "did you
// mean". Examples come from the game the mail is about, never from
// another game.

// mailGame is the game a mail without a command is about, for the
// examples and suggestions of its answer: the reply token's, when its
// seat is the From's, else the sender's one active game; nil when none
// or several.
func (h *handling) mailGame() (*game, int, error) {
	if t := h.sender.tok; t != nil {
		g, err := h.loadGame(t.Game)
		if err == nil && t.Seat <= len(g.seats) && g.seatOf(h.msg.From) == t.Seat {
			return g, t.Seat, nil
		}
		if err != nil && !errors.Is(err, errNoGame) {
			return nil, 0, err
		}
	}
	ids, err := h.sendersGames(activeGame)
	if err != nil || len(ids) != 1 {
		return nil, 0, err
	}
	g, err := h.loadGame(ids[0])
	if err != nil {
		return nil, 0, err
	}
	return g, g.seatOf(h.msg.From), nil
}

// copiedMoves reads a line copied from the moves answer, "FROM: MOVE
// MOVE ...", or a bare list of moves: the legal moves of g it names, all
// of them legal, or nil.
func copiedMoves(line string, g *game) []mailread.Command {
	if g == nil || g.status != statusActive {
		return nil
	}
	rest := line
	if i := strings.Index(line, ": "); i >= 0 {
		rest = line[i+2:]
	}
	f := strings.Fields(rest)
	if len(f) == 0 || len(f) > 64 {
		return nil
	}
	st := g.state()
	var out []mailread.Command
	for _, tok := range f {
		c, ok := mailread.ParseCommand(tok, Language())
		if !ok || c.Verb != "move" {
			return nil
		}
		if _, _, err := rules.Play(st, tok); err != nil {
			return nil
		}
		out = append(out, c)
	}
	return out
}

// exampleMove is a legal move of g now, for the examples of an answer;
// "" when there is none (or no game).
func exampleMove(g *game) string {
	if g == nil || g.status != statusActive {
		return ""
	}
	s := g.state()
	if legal := s.Moves(nil); len(legal) > 0 {
		return s.FormatMove(legal[len(legal)/2])
	}
	return ""
}

// notUnderstood is the answer to a mail with no command: what its first
// line might have meant, then how to write a move and the help.
func notUnderstood(line string, g *game) string {
	var b strings.Builder
	if line == "" {
		b.WriteString("I found no text in your mail to read as a command.")
	} else {
		fmt.Fprintf(&b, "I could not read %q as a command.", clipLine(line))
		if s := didYouMean(line, g); s != "" {
			b.WriteString(" " + s)
		}
	}
	b.WriteString("\n\n")
	if ex := exampleMove(g); ex != "" {
		fmt.Fprintf(&b, "To move in %s #%d, reply to its latest board with just your move on the first line (like %s), or one of the commands below.\n\n", g.gameName(), g.id, ex)
	} else {
		b.WriteString("Reply to a game's latest board with just your move on the first line, or send one of the commands below.\n\n")
	}
	b.WriteString(helpText(exampleMove(g)))
	return b.String()
}

// didYouMean suggests what a line that is no command was near: a verb
// of the table, a game's name after "challenge" or "seek", or a legal
// move of g.
func didYouMean(line string, g *game) string {
	f := strings.Fields(line)
	w := strings.ToLower(strings.TrimSuffix(f[0], "."))
	if (w == "challenge" || w == "seek") && len(f) >= 2 {
		if _, known := (games.Grammar{}).Game(f[1]); !known {
			if near := nearest(f[1], games.Names()); len(near) > 0 {
				return fmt.Sprintf("%q is not a game I know: did you mean %s? The games: %s.", clipLine(f[1]), near[0], strings.Join(games.Names(), ", "))
			}
			return fmt.Sprintf("%q is not a game I know. The games: %s.", clipLine(f[1]), strings.Join(games.Names(), ", "))
		}
		if w == "seek" {
			return "A seek names a game and, if you like, options, like: seek " + strings.ToLower(games.Names()[0]) + " days=3."
		}
		return "A challenge names a game and its players, like: challenge " + strings.ToLower(games.Names()[0]) + " bot, or challenge " + strings.ToLower(games.Names()[0]) + " friend@example.org."
	}
	if near := nearest(w, verbWords()); len(near) > 0 {
		return fmt.Sprintf("Did you mean %q?", near[0])
	}
	if g != nil && g.status == statusActive && looksLikeMove(f[0]) {
		s := g.state()
		var legal []string
		for _, m := range s.Moves(nil) {
			legal = append(legal, s.FormatMove(m))
		}
		near := nearest(f[0], legal)
		if len(near) > 5 {
			near = near[:5]
		}
		if len(near) > 0 {
			return fmt.Sprintf("It is not a legal move in %s #%d now; the nearest legal moves: %s. (Reply moves for them all.)", g.gameName(), g.id, strings.Join(near, ", "))
		}
		return fmt.Sprintf("It is not a legal move in %s #%d now. (Reply moves for the legal moves.)", g.gameName(), g.id)
	}
	return ""
}

// looksLikeMove: a word with a digit in it, short, as every game's move
// tokens are.
func looksLikeMove(w string) bool {
	return len(w) <= 24 && strings.ContainsFunc(w, unicode.IsDigit)
}

// verbWords are the first words of the table's verbs.
func verbWords() []string {
	var out []string
	for _, c := range mailCommands {
		if w, _, _ := strings.Cut(c.Verb, " "); !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// nearest returns the words of among closest to w by edit distance, when
// that distance is small for w's length (1 for up to 4 letters, else 2,
// and less than half of w): the best first, ties in among's order.
func nearest(w string, among []string) []string {
	limit := 1
	if len([]rune(w)) > 4 {
		limit = 2
	}
	if limit*2 >= len([]rune(w)) {
		limit = (len([]rune(w)) - 1) / 2
	}
	best, out := limit+1, []string(nil)
	for _, a := range among {
		d := editDistance(strings.ToLower(w), strings.ToLower(a))
		switch {
		case d == 0 && w != a && strings.EqualFold(w, a):
			d = 1 // the same but for case: still worth saying
		case d == 0:
			continue // the word itself: nothing to suggest
		}
		if d < best {
			best, out = d, nil
		}
		if d == best {
			out = append(out, a)
		}
	}
	return out
}

// editDistance is Levenshtein's distance, with a transposition of two
// neighbours counting one (resing, resign).
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	if len(x) > 64 || len(y) > 64 {
		return 1 << 20
	}
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}

// clipLine cuts what a player wrote to a length an answer can quote.
func clipLine(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

// isPlayer says whether the mail comes, with proof, from a player with a
// game: a reply token of their seat from its address, or a verified
// sender with a game invited or in progress. Their mistakes are
// answered under the looser limit (playerAnswer).
func (h *handling) isPlayer() bool {
	if !h.sender.proven {
		return false
	}
	if h.sender.tok != nil {
		return true
	}
	ids, err := h.sendersGames(&gameFilter{statuses: []string{statusInvited, statusActive}})
	return err == nil && len(ids) > 0
}
