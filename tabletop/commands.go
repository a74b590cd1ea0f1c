package tabletop

import (
	"errors"
	"fmt"
	"icepost/rules"
	"slices"
	"strconv"
	"strings"
)

// The commands typed at the table: moves, undo, show, comment, resign,
// draw and help. Each says what it did (or why not) to the session's
// output and changes the game through its notation.Game.

func (s *Session) help() {
	s.printf(`Type a move as the record writes it (%s), or one of:
  moves          list the legal moves
  show [N]       the board after move N (0: the start; no N: now)
  undo           take back the last move (or the resignation or draw)
  comment TEXT   attach a comment to the last move
  resign [SEAT]  a seat resigns (by number or name)
  draw           the players agree a draw (against the engine: offer one;
                 it accepts only when it thinks it is losing, or when the
                 position has come back three times)
  hint           the engine's suggestion for the player to move, with its
                 chance to win
  review [L]     once the game is over: the engine's analysis of every move
                 (level L, default 3), the three worst with the better move
  save           write the record now (it is written after every move anyway)
  quit           write the record and stop; an unfinished game is kept with result *
  help           this text
`, s.example())
}

// example returns a legal move token of the current position, or a
// description when there is none.
func (s *Session) example() string {
	ms := s.current().Moves(s.buf[:0])
	if len(ms) == 0 {
		return "no move is legal now"
	}
	return "like " + s.current().FormatMove(ms[len(ms)/2])
}

func (s *Session) move(tok string) {
	if t := s.ending(); t != "" {
		s.printf("The game is over (%s): nothing recorded. Type undo to take that back.\n", t)
		return
	}
	st := s.current()
	if o := st.Outcome(); o.Over {
		s.printf("The game is over (%s): %s was not recorded.\n", o, tok)
		return
	}
	m, err := s.game.PlayToken(tok, "")
	if err != nil {
		// Said last, just above the prompt, and without the board again:
		// on a small terminal a board would push the reason out of view.
		s.refused++
		s.printf("Not recorded: %s\n", reason(err))
		s.printf("%s is still to move; type moves to list the legal moves.\n", s.seatName(st.ToMove()))
		return
	}
	s.save()
	s.printf("\nMove %d: %s played %s.\n\n", s.game.Ply(), s.seatName(st.ToMove()), st.FormatMove(m))
	s.showCurrent()
	if s.current().Outcome().Over {
		s.gameOver()
	}
}

func reason(err error) string {
	var me *rules.MoveError
	if errors.As(err, &me) {
		return me.Error()
	}
	return err.Error()
}

// showCurrent shows the board now, whose turn it is and the scores.
func (s *Session) showCurrent() { s.showState(s.current()) }

// showState shows st's board and what it leaves out of the status.
func (s *Session) showState(st rules.State) {
	s.board(st)
	s.status(st, st.Board(0))
}

// board shows the game's own drawing of st, with the players' names put
// where it says "seat N", so that the scores and whose turn it is are said
// once, with names.
func (s *Session) board(st rules.State) {
	s.printf("%s\n", strings.TrimRight(s.named(st.Board(0)), "\n"))
}

// status says what the board did not: the scores and whose turn it is,
// for a game whose drawing leaves them out (rules.State.Board says a
// board shows them; this is the fallback).
func (s *Session) status(st rules.State, board string) {
	low := strings.ToLower(board)
	if sc := st.Scores(); sc != nil && !strings.Contains(low, "score") {
		parts := make([]string, len(sc))
		for i, v := range sc {
			parts[i] = fmt.Sprintf("%s %d", s.seatName(i+1), v)
		}
		s.printf("Scores: %s.\n", strings.Join(parts, ", "))
	}
	if o := st.Outcome(); o.Over || strings.Contains(low, "to move") {
		return
	}
	s.printf("%s to move.\n", s.seatName(st.ToMove()))
}

// named puts the players' names into text where it names a seat: "seat 2"
// or "Seat 2" becomes "Bob (seat 2)". Seats without a name stay as they
// are.
func (s *Session) named(text string) string {
	var b strings.Builder
	for {
		i := strings.Index(strings.ToLower(text), "seat ")
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		j := i + len("seat ")
		k := j
		for k < len(text) && text[k] >= '0' && text[k] <= '9' {
			k++
		}
		wordStart := i == 0 || !isLetter(text[i-1])
		n, err := strconv.Atoi(text[j:k])
		if !wordStart || err != nil || n < 1 || n > s.seats || s.seatName(n) == fmt.Sprintf("seat %d", n) {
			b.WriteString(text[:j])
			text = text[j:]
			continue
		}
		b.WriteString(text[:i])
		b.WriteString(s.seatName(n))
		text = text[k:]
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// gameOver reports the end of the game and writes the record; the session
// stays open for comment and undo until quit or an empty line.
func (s *Session) gameOver() {
	s.printf("\nGame over: %s. Result %s.\n", s.describeEnd(), s.Record().Result)
	if s.save() == nil {
		s.printf("The record is written to %s.\n", s.path)
	}
	if s.cfg.Ask {
		s.printf("Type review for the engine's analysis of the moves, comment TEXT to add a last comment, undo to take the end back, or quit (or Enter) to finish.\n")
	}
}

// ending returns how the game was ended other than by the rules
// (resignation, agreement), "" while it goes on or when the rules ended it.
func (s *Session) ending() string {
	if !s.game.Over() || s.current().Outcome().Over {
		return ""
	}
	t, _ := s.tag("Termination")
	return t
}

func (s *Session) describeEnd() string {
	if t := s.ending(); t != "" {
		if w := s.game.Winner(); w != 0 {
			return s.seatName(w) + " wins by " + t
		}
		return "drawn by " + t
	}
	o := s.current().Outcome()
	if o.Winner == 0 {
		return "a draw"
	}
	return s.seatName(o.Winner) + " wins"
}

func (s *Session) undo() {
	if t := s.ending(); t != "" {
		s.printf("Taken back: the %s. The game goes on.\n\n", map[string]string{"resignation": "resignation", "agreement": "draw"}[t])
		s.game.Reopen()
		s.save()
		s.showCurrent()
		return
	}
	n := s.game.Ply()
	if n == 0 {
		s.printf("Nothing to undo: no move has been played.\n")
		return
	}
	prev := s.game.States[n-1]
	tok := s.game.Token(n)
	if len(s.game.Record.Main.Moves[n-1].After) > 0 {
		s.printf("Taken back with its comments: ")
	} else {
		s.printf("Taken back: ")
	}
	s.printf("move %d, %s by %s.\n\n", n, tok, s.seatName(prev.ToMove()))
	if err := s.game.Undo(); err != nil {
		panic("tabletop: undo: " + err.Error()) // the checks above rule it out
	}
	s.circleSaid = 0 // the ply may come again with another position
	s.save()
	s.showCurrent()
}

func (s *Session) show(arg string) {
	if arg == "" {
		s.showCurrent()
		return
	}
	n, err := strconv.Atoi(arg)
	ply := s.game.Ply()
	if err != nil || n < 0 || n > ply {
		s.printf("show N: N is a move number from 0 (the start) to %d (now).\n", ply)
		return
	}
	st := s.game.States[n]
	if n == 0 {
		s.printf("The start:\n\n")
	} else {
		s.printf("After move %d, %s by %s:\n\n", n, s.game.Token(n), s.seatName(s.game.States[n-1].ToMove()))
	}
	s.showState(st)
	if n < ply {
		s.printf("(This is move %d of %d; moves typed now still go after move %d.)\n", n, ply, ply)
	}
}

func (s *Session) comment(text string) {
	if text == "" {
		s.printf("comment TEXT: type the comment after the word comment.\n")
		return
	}
	s.game.Comment(text)
	if n := s.game.Ply(); n == 0 {
		s.printf("Comment kept before the first move.\n")
	} else {
		s.printf("Comment attached to move %d, %s.\n", n, s.game.Token(n))
	}
	s.save()
}

func (s *Session) draw() {
	if s.game.Over() {
		s.printf("The game is over already (%s).\n", s.describeEnd())
		return
	}
	s.end("agreement", 0, "")
}

// resign handles "resign [SEAT...]". With two seats one seat resigns and
// the other wins. With three or four, a resignation ends the game only when
// every seat but one resigns together: the seat left wins. One player alone
// cannot leave a game the rules go on playing with them.
func (s *Session) resign(arg string) {
	if s.game.Over() {
		s.printf("The game is over already (%s).\n", s.describeEnd())
		return
	}
	if arg == "" {
		if s.seats == 2 {
			s.asks = append(s.asks, question{
				prompt: fmt.Sprintf("Which seat resigns? 1 = %s, 2 = %s (Enter: none): ", s.seatName(1), s.seatName(2)),
				answer: func(a string) bool {
					if strings.TrimSpace(a) == "" {
						s.printf("Nobody resigns.\n")
						return true
					}
					s.resign(a)
					return true
				},
			})
		} else {
			s.asks = append(s.asks, question{
				prompt: fmt.Sprintf("Which %d seats resign together (the one left wins)? Give numbers or names (Enter: none): ", s.seats-1),
				answer: func(a string) bool {
					if strings.TrimSpace(a) == "" {
						s.printf("Nobody resigns.\n")
						return true
					}
					s.resign(a)
					return true
				},
			})
		}
		if !s.cfg.Ask {
			s.printf("Which seat resigns? Type its number or name on the next line (an empty line: nobody).\n")
		}
		return
	}
	var out []int
	for _, w := range strings.FieldsFunc(arg, func(r rune) bool { return r == ' ' || r == ',' }) {
		k, ok := s.findSeat(w)
		if !ok {
			s.printf("resign: %q is neither a seat (1 to %d) nor a player's name.\n", w, s.seats)
			return
		}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	if len(out) != s.seats-1 {
		if s.seats == 2 {
			s.printf("resign: name the one seat that resigns.\n")
		} else {
			example := make([]string, s.seats-1)
			for i := range example {
				example[i] = strconv.Itoa(i + 2)
			}
			s.printf("In a %d-player game a resignation ends the game only when %d seats resign together and the one left wins (like resign %s).\n"+
				"A player who leaves alone: play on for them, agree a draw (draw), or quit to keep the game unfinished (result *).\n",
				s.seats, s.seats-1, strings.Join(example, " "))
		}
		return
	}
	winner := 0
	for k := 1; k <= s.seats; k++ {
		if !slices.Contains(out, k) {
			winner = k
		}
	}
	slices.Sort(out)
	names := make([]string, len(out))
	for i, k := range out {
		names[i] = s.seatName(k)
	}
	verb := "resigns"
	if len(out) > 1 {
		verb = "resign"
	}
	s.end("resignation", winner, joinAnd(names)+" "+verb)
}

// end ends the game other than by the rules and says so.
func (s *Session) end(termination string, winner int, note string) {
	if err := s.game.End(termination, winner, note); err != nil {
		panic("tabletop: " + err.Error()) // the callers check the game goes on
	}
	s.gameOver()
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func joinAnd(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// findSeat reads a seat number or a player's name (any case).
func (s *Session) findSeat(w string) (int, bool) {
	if k, err := strconv.Atoi(w); err == nil {
		return k, k >= 1 && k <= s.seats
	}
	found := 0
	for k := 1; k <= s.seats; k++ {
		name := s.tagOr("Player"+strconv.Itoa(k), "")
		if name != "?" && name != "" && (strings.EqualFold(name, w) || strings.EqualFold(firstWord(name), w)) {
			if found != 0 {
				return 0, false // two players answer to it
			}
			found = k
		}
	}
	return found, found != 0
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return s
}
