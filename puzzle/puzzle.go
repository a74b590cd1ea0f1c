// Package puzzle makes puzzles of real games: every position of a game
// of two seats where the player to move had a forced win in one to three
// moves, which package solve proves, and played a move that did not keep
// it. Such a position is a puzzle no anchor of these games has, and it
// comes from a game someone played. The package finds them in a replayed
// record (Find), writes each as a record of its own (Puzzle.Record: the
// position as Setup, the solution as the main line), and referees a
// player's answer (Play: any move that still forces the win in the moves
// left is right, checked by solve, not compared with the stored line).
// The archive stores them and the web site and the mail serve them.
package puzzle

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
	"icepost/solve"
)

// Puzzle is one position of a game where the player to move missed a
// forced win.
type Puzzle struct {
	Game     string   // the game's name, as records spell it
	Setup    string   // the position code before the move played
	Seat     int      // the seat to move, who had the win
	In       int      // the win is in this many own moves (1..solve.MaxMoves)
	Solution []string // the line: the winning move, the longest defence, ... (tokens)
	Played   string   // the move played in the game instead
	Ply      int      // that move's ply in the game (1 for the first move)
	// Tags are the game's tags a puzzle keeps: Event, Site, Date, Round
	// and the players' names (Player1, Player2, never an address).
	Tags []notation.Tag
}

// Options tune Find. The zero value is fine.
type Options struct {
	// Budget bounds each search (solve.Win's budget; 0: its default). A
	// position whose search runs out gives no puzzle.
	Budget int
	// Moves is the longest win looked for, 1 to solve.MaxMoves (0: the
	// longest).
	Moves int
}

// kept is the tags a puzzle keeps of its game.
var kept = []string{"Event", "Site", "Date", "Round"}

// Find returns the puzzles of g, a replayed record, in the order of its
// plies: each position of the main line where the seat to move had a
// forced win within opt.Moves own moves (solve.Win) and the move played
// does not keep a forced win as short (solve.WinWith: every reply then
// still loses within In-1 more moves of the mover's). A move that wins
// later, by force, still misses the win it had: a puzzle, as the issue
// says.
//
// Nothing is skipped for being lost already: a seat with a forced win
// is not lost. What gives no puzzle: a game of more than two seats (no
// error, no puzzles), and a position whose search runs out of budget
// (nothing proved either way). It ends with ctx's error when ctx ends.
func Find(ctx context.Context, g *notation.Game, opt Options) ([]Puzzle, error) {
	if g.Options.Seats != 2 {
		return nil, nil
	}
	n := opt.Moves
	if n <= 0 || n > solve.MaxMoves {
		n = solve.MaxMoves
	}
	var tags []notation.Tag
	for _, name := range kept {
		if v, ok := g.Record.Tag(name); ok && v != "" && v != "?" {
			tags = append(tags, notation.Tag{Name: name, Value: v})
		}
	}
	for k, p := range g.Record.Players() {
		name, _ := notation.SplitPlayer(p)
		if name == "" {
			name = "?"
		}
		tags = append(tags, notation.Tag{Name: "Player" + strconv.Itoa(k+1), Value: name})
	}
	var out []Puzzle
	for k, m := range g.Moves {
		s := g.States[k]
		if s.Outcome().Over {
			break
		}
		r, err := solve.Win(ctx, s, n, opt.Budget)
		if err != nil {
			return out, err
		}
		if r.In == 0 {
			continue
		}
		keeps, err := solve.WinWith(ctx, s, m, r.In, opt.Budget)
		if err != nil {
			return out, err
		}
		if keeps.In > 0 || keeps.Exhausted {
			continue // the move keeps the win, or nothing is proved
		}
		p := Puzzle{Game: g.Rules.Name(), Setup: s.Code(), Seat: s.ToMove(), In: r.In, Played: s.FormatMove(m), Ply: k + 1, Tags: tags}
		p.Solution = tokens(s, r.Line)
		out = append(out, p)
	}
	return out, nil
}

// tokens writes a line of moves from s.
func tokens(s rules.State, line []rules.Move) []string {
	out := make([]string, 0, len(line))
	for _, m := range line {
		out = append(out, s.FormatMove(m))
		next, err := s.Play(m)
		if err != nil {
			break
		}
		s = next
	}
	return out
}

// Title is the puzzle's name in words: "Pikemen: seat 1 to move wins in 2".
func (p Puzzle) Title() string {
	return fmt.Sprintf("%s: %s to move wins in %d", p.Game, p.Player(), p.In)
}

// Player is the name of the seat to move, or "seat N" when the game does
// not say.
func (p Puzzle) Player() string {
	for _, t := range p.Tags {
		if t.Name == "Player"+strconv.Itoa(p.Seat) && t.Value != "?" && t.Value != "" {
			return t.Value
		}
	}
	return "seat " + strconv.Itoa(p.Seat)
}

// Words says how long the win is: "wins in 2" (the Puzzle tag's value).
func (p Puzzle) Words() string { return "wins in " + strconv.Itoa(p.In) }

// Start is the puzzle's position.
func (p Puzzle) Start() (rules.State, error) {
	g, ok := games.Lookup(p.Game)
	if !ok {
		return nil, fmt.Errorf("puzzle: no game called %q", p.Game)
	}
	return g.ParsePosition(p.Setup)
}

// Record is the puzzle as a record: the game's tags it keeps, the
// position as Setup, [Puzzle "wins in N"], where it comes from
// (PuzzleGame, the archive's game id when from is not 0; PuzzlePly and
// PuzzlePlayed, the move played there), and the solution as the main
// line, which ends the game (the Result is the mover's win).
func (p Puzzle) Record(from int64) (*notation.Record, error) {
	s, err := p.Start()
	if err != nil {
		return nil, err
	}
	g := notation.NewGame(s, p.Tags)
	g.Record.SetTag("Setup", p.Setup)
	g.Record.SetTag("Puzzle", p.Words())
	if from != 0 {
		g.Record.SetTag("PuzzleGame", strconv.FormatInt(from, 10))
	}
	g.Record.SetTag("PuzzlePly", strconv.Itoa(p.Ply))
	g.Record.SetTag("PuzzlePlayed", p.Played)
	for i, tok := range p.Solution {
		if _, err := g.PlayToken(tok, ""); err != nil {
			return nil, fmt.Errorf("puzzle: the solution's move %d, %s: %w", i+1, tok, err)
		}
	}
	return g.Record, nil
}

// Attempt is where a player's answer to a puzzle stands.
type Attempt struct {
	// Plies are the moves so far, the player's and the defence's, as
	// canonical tokens.
	Plies []string
	// Position is the position after them; Before the one before the
	// last (nil at the start), for a picture that shows the last move.
	Position, Before rules.State
	Last             rules.Move
	// Left is the own moves the player has left to win in.
	Left int
	// Solved: the player's moves won the game. Wrong: the last move
	// sent does not force the win in the moves left (it is not played:
	// Plies and Position are as before it).
	Solved bool
	Wrong  string
	// Unproved: the last move's search ran out of budget; it was judged
	// by the stored solution (right only if it is the solution's move).
	Unproved bool
}

// ErrAnswer: the moves given are not an answer to the puzzle that can
// be replayed (an illegal move, a move after the end, a move where the
// puzzle's defence was due).
var ErrAnswer = errors.New("not an answer to this puzzle")

// Play replays a player's answer: mine are the player's own moves in
// order (the defence's replies come from the puzzle, not the player).
// Each must force the win in the own moves left (solve.WinWith within
// budget; 0: solve's default), and is answered by the longest defence
// (the reply of the line WinWith finds). Every move before the last must
// be right (ErrAnswer otherwise: a page sends only moves it accepted);
// the last one sent may be wrong, which the Attempt says. With no moves
// it is the puzzle's start.
func Play(ctx context.Context, p Puzzle, mine []string, budget int) (Attempt, error) {
	s, err := p.Start()
	if err != nil {
		return Attempt{}, err
	}
	a := Attempt{Position: s, Left: p.In}
	onLine := true // the plies so far are the stored solution's
	for i, tok := range mine {
		if a.Solved {
			return a, fmt.Errorf("%w: %s comes after the win", ErrAnswer, tok)
		}
		if s.ToMove() != p.Seat {
			return a, fmt.Errorf("%w: it is not %s's move", ErrAnswer, p.Player())
		}
		if a.Left < 1 {
			return a, fmt.Errorf("%w: no moves are left", ErrAnswer)
		}
		next, m, err := rules.Play(s, tok)
		if err != nil {
			return a, fmt.Errorf("%w: %s: %v", ErrAnswer, tok, err)
		}
		canon := s.FormatMove(m)
		r, err := solve.WinWith(ctx, s, m, a.Left, budget)
		if err != nil {
			return a, err
		}
		right := r.In > 0
		var line []string
		if right {
			line = tokens(s, r.Line)
		}
		if r.Exhausted {
			a.Unproved = true
			n := len(a.Plies)
			right = onLine && n < len(p.Solution) && p.Solution[n] == canon
			if right {
				line = p.Solution[n:]
			}
		}
		if !right {
			if i < len(mine)-1 {
				return a, fmt.Errorf("%w: %s does not force the win", ErrAnswer, canon)
			}
			a.Wrong = canon
			return a, nil
		}
		onLine = onLine && len(a.Plies) < len(p.Solution) && p.Solution[len(a.Plies)] == canon
		a.Plies = append(a.Plies, canon)
		a.Before, a.Last, a.Position, s = s, m, next, next
		a.Left--
		if wins(s, p.Seat) {
			a.Solved = true
			continue
		}
		// The defence: the line's reply (the one that holds out longest),
		// while the other seat is to move (a seat may move twice in a row).
		for len(line) > 1 && !s.Outcome().Over && s.ToMove() != p.Seat {
			line = line[1:]
			next, m, err := rules.Play(s, line[0])
			if err != nil {
				return a, fmt.Errorf("puzzle: the defence %s: %w", line[0], err)
			}
			onLine = onLine && len(a.Plies) < len(p.Solution) && p.Solution[len(a.Plies)] == line[0]
			a.Plies = append(a.Plies, s.FormatMove(m))
			a.Before, a.Last, a.Position, s = s, m, next, next
		}
		if wins(s, p.Seat) {
			a.Solved = true // the defence's reply ended the game
		}
	}
	return a, nil
}

// wins reports whether s is over with seat the winner.
func wins(s rules.State, seat int) bool {
	o := s.Outcome()
	return o.Over && o.Winner == seat
}

// ParseMoves reads a player's moves as a page or a mail carries them:
// tokens separated by spaces or commas.
func ParseMoves(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' })
}
