package notation

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"icepost/rules"
)

// A Game is also a game being played: the methods in this file change its
// record and its positions together, so that the table (tabletop) and the
// mail daemon (pbem) keep one model of a game in progress, and the tags
// that say how a game stands (Result, Termination, Score) are set in one
// place, settle, whoever plays.
//
// They change the main line only; a game being played has no variations.

// NewGame starts the record of a game played from start, a starting
// position: the tags given (in their order), then the Game tag, a Player
// tag of "?" for each seat not named (they say how many seats play), the tags of
// the options the game takes (each with its value in force, defaults
// filled in: Board, Target), and Result "*" (and Score, for games with
// scores). Tags given for Game, Result, Score, Termination, Setup or an
// option are replaced by the ones the position says.
func NewGame(start rules.State, tags []Tag) *Game {
	rec := &Record{Result: "*"}
	for _, t := range tags {
		if !ownTag(start.Game(), t.Name) {
			rec.SetTag(t.Name, t.Value)
		}
	}
	rec.SetTag("Game", start.Game().Name())
	for k := 1; k <= start.Options().Seats; k++ {
		// The Player tags say how many seats a record has.
		if _, ok := rec.Tag("Player" + strconv.Itoa(k)); !ok {
			rec.SetTag("Player"+strconv.Itoa(k), "?")
		}
	}
	for _, t := range rules.OptionTags(start.Game(), start.Options()) {
		rec.SetTag(t[0], t[1])
	}
	g := &Game{Record: rec, Rules: start.Game(), Options: start.Options(), States: []rules.State{start}}
	g.settle()
	return g
}

// ownTag reports whether a tag is one the game being played sets itself.
func ownTag(g rules.Game, name string) bool {
	switch name {
	case "Game", "Result", "Score", "Termination", "Setup", rules.OptionBoard, rules.OptionTarget:
		return true
	}
	return slices.ContainsFunc(g.Info().Options, func(o rules.Option) bool { return o.Name == name })
}

// ErrOver is returned when a move or an ending is given to a game that
// has ended.
var ErrOver = errors.New("the game is over")

// Ply returns the number of moves played on the main line.
func (g *Game) Ply() int { return len(g.Moves) }

// Over reports whether the game has ended, by the rules or otherwise
// (resignation, agreement, time, an operator's decision).
func (g *Game) Over() bool { return g.Record.Result != "*" || g.Final().Outcome().Over }

// Repeats returns how many times the position now has stood on the board
// in the main line, now included: 1 for a position new to the game. Two
// positions are the same when their keys are (rules.AppendKey: the same
// pieces, supplies, scores and seat to move). None of the four games ends
// by repetition; a computer player uses this to see a game going round.
func (g *Game) Repeats() int {
	now := rules.AppendKey(nil, g.Final())
	n := 0
	var buf []byte
	for _, s := range g.States {
		buf = rules.AppendKey(buf[:0], s)
		if string(buf) == string(now) {
			n++
		}
	}
	return n
}

// Token returns the canonical token of main-line move n (1-based).
func (g *Game) Token(n int) string { return g.States[n-1].FormatMove(g.Moves[n-1]) }

// PlayToken decodes tok against the position now and plays it, with
// comment after it ("" for none). The error is the game's own, in a
// player's words (a *rules.MoveError), or ErrOver.
func (g *Game) PlayToken(tok, comment string) (rules.Move, error) {
	if g.Over() {
		return rules.Move{}, ErrOver
	}
	next, m, err := rules.Play(g.Final(), tok)
	if err != nil {
		return rules.Move{}, err
	}
	g.push(next, m, comment)
	return m, nil
}

// Play plays m, a legal move of the position now, with comment after it
// ("" for none).
func (g *Game) Play(m rules.Move, comment string) error {
	if g.Over() {
		return ErrOver
	}
	next, err := g.Final().Play(m)
	if err != nil {
		return err
	}
	g.push(next, m, comment)
	return nil
}

func (g *Game) push(next rules.State, m rules.Move, comment string) {
	mv := &Move{Token: g.Final().FormatMove(m)}
	if comment != "" {
		mv.After = []string{comment}
	}
	if len(g.Record.Main.Moves) == 0 {
		// Comments made before the first move stand before it.
		mv.Before, g.Record.Main.Comments = g.Record.Main.Comments, nil
	}
	g.Record.Main.Moves = append(g.Record.Main.Moves, mv)
	g.States = append(g.States, next)
	g.Moves = append(g.Moves, m)
	g.settle()
}

// Comment adds text after the last move, or before the first move when
// none has been played.
func (g *Game) Comment(text string) {
	if n := len(g.Record.Main.Moves); n > 0 {
		last := g.Record.Main.Moves[n-1]
		last.After = append(last.After, text)
		return
	}
	g.Record.Main.Comments = append(g.Record.Main.Comments, text)
}

// Undo takes back the last move with the comments after it. It fails when
// no move has been played, or when the game was ended other than by the
// rules (Reopen first).
func (g *Game) Undo() error {
	if g.Record.Result != "*" && !g.Final().Outcome().Over {
		return errors.New("the game was ended by " + g.termination() + ": reopen it first")
	}
	n := len(g.Moves)
	if n == 0 {
		return errors.New("no move has been played")
	}
	if g.Final().Outcome().Over {
		g.Record.Result = "*" // the rules ended it; settle says so again if need be
	}
	before := g.Record.Main.Moves[n-1].Before
	g.Record.Main.Moves = g.Record.Main.Moves[:n-1]
	// Comments written before the move stay: they are about the game
	// before it, not about the move.
	for _, c := range before {
		g.Comment(c)
	}
	g.States = g.States[:n]
	g.Moves = g.Moves[:n-1]
	g.settle()
	return nil
}

// End ends the game other than by the rules: termination is one of
// resignation, agreement, time forfeit or abandoned; winner is the winning
// seat, 0 for a draw. note, when not "", is a comment after the last move
// that says how it ended ("Bob resigns"); Reopen takes it away again.
func (g *Game) End(termination string, winner int, note string) error {
	if g.Over() {
		return ErrOver
	}
	if termination == "normal" || !slices.Contains(Terminations, termination) {
		return fmt.Errorf("notation: %q does not end a game: use one of %s", termination, strings.Join(Terminations[1:], ", "))
	}
	seats := g.Options.Seats
	if winner < 0 || winner > seats || (termination == "agreement" && winner != 0) {
		return fmt.Errorf("notation: seat %d cannot win a %d-seat game by %s", winner, seats, termination)
	}
	g.Record.Result = ResultString(rules.Outcome{Over: true, Winner: winner}, seats)
	g.Record.SetTag("Termination", termination)
	if note != "" {
		g.Comment(note)
		g.endNote = note
	}
	g.settle()
	return nil
}

// Reopen takes back an End: the game goes on where it stopped. It does
// nothing to a game that is not over, or that the rules ended.
func (g *Game) Reopen() {
	if g.Record.Result == "*" || g.Final().Outcome().Over {
		return
	}
	g.Record.Result = "*"
	g.Record.DeleteTag("Termination")
	if note := g.endNote; note != "" {
		c := &g.Record.Main.Comments
		if n := len(g.Record.Main.Moves); n > 0 {
			c = &g.Record.Main.Moves[n-1].After
		}
		if k := len(*c); k > 0 && (*c)[k-1] == note {
			*c = (*c)[:k-1]
		}
		g.endNote = ""
	}
	g.settle()
}

// Winner returns the winning seat, 0 for a draw or a game not over.
func (g *Game) Winner() int {
	w, _, _ := ParseResult(g.Record.Result, g.Options.Seats)
	return w
}

func (g *Game) termination() string {
	t, _ := g.Record.Tag("Termination")
	return t
}

// settle sets the tags that say how the game stands from the position and
// any End: the Result tag and marker, Termination (normal when the rules
// ended the game; none while it goes on), and Score for games with scores.
func (g *Game) settle() {
	rec := g.Record
	final := g.Final()
	switch out := final.Outcome(); {
	case out.Over:
		rec.Result = ResultString(out, g.Options.Seats)
		rec.SetTag("Termination", "normal")
	case rec.Result == "*":
		rec.DeleteTag("Termination")
	}
	rec.SetTag("Result", rec.Result)
	if sc := final.Scores(); sc != nil {
		parts := make([]string, len(sc))
		for i, v := range sc {
			parts[i] = strconv.Itoa(v)
		}
		rec.SetTag("Score", strings.Join(parts, ":"))
	}
}
