package notation

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"icepost/rules"
	"icepost/rules/games"
)

// Game is a record replayed against its game's rules.
type Game struct {
	Record  *Record
	Rules   rules.Game
	Options rules.Options
	// States[i] is the position after i plies of the main line; States[0]
	// is the start (or the Setup position).
	States []rules.State
	// Moves are the main line's moves, decoded.
	Moves []rules.Move
	// varMoves are the moves of the variations, decoded, with the position
	// each was played from, so that Canonicalize can write their tokens;
	// the main line's are in States and Moves. Tokens are formatted only
	// when asked for: most replays never need them.
	varMoves []varMove
	// endNote is the comment End added, for Reopen to take away.
	endNote string
}

type varMove struct {
	m    *Move
	from rules.State
	mv   rules.Move
}

// Final returns the position at the end of the main line.
func (g *Game) Final() rules.State { return g.States[len(g.States)-1] }

// Canonicalize rewrites every move token of the record in canonical form
// and the Game tag in its canonical spelling.
func (g *Game) Canonicalize() {
	for i, m := range g.Record.Main.Moves {
		m.Token = g.States[i].FormatMove(g.Moves[i])
	}
	for _, v := range g.varMoves {
		v.m.Token = v.from.FormatMove(v.mv)
	}
	g.Record.SetTag("Game", g.Rules.Name())
}

// Terminations are the values the Termination tag may take.
var Terminations = []string{"normal", "resignation", "agreement", "time forfeit", "abandoned"}

// Replay checks rec against its game's rules: the tags that carry meaning,
// every move of the main line and of every variation, the move numbers,
// the result and the score. It stops at the first problem and returns it as
// an *Error.
func Replay(rec *Record) (*Game, error) {
	r := replayer{rec: rec, keep: true}
	if err := r.run(); err != nil {
		return nil, err
	}
	return r.g, nil
}

// Validate is Replay for a caller that wants only the verdict: it keeps no
// positions, playing the main line into one rules.Mutable, so that a
// replay allocates nothing a ply.
func Validate(rec *Record) error {
	r := replayer{rec: rec}
	return r.run()
}

// Walked is what Walk learnt of a record besides its positions.
type Walked struct {
	Rules   rules.Game
	Options rules.Options
	Final   rules.State // the position at the end of the main line
}

// Walk replays rec as Validate does, playing the main line into one
// rules.Mutable, and hands visit each position of the main line in turn:
// ply 0 is the start (or the Setup position), len(rec.Main.Moves) the
// end. The position visit gets is valid only during the call (Copy it to
// keep it). With canonical, Walk also does what Canonicalize does to a
// Game: every move token of the record, variations too, is rewritten in
// canonical form, and the Game tag in its canonical spelling. It is how
// the archive's import reads a million records without keeping a
// position of any.
func Walk(rec *Record, canonical bool, visit func(ply int, s rules.State)) (Walked, error) {
	r := replayer{rec: rec, walk: true, visit: visit, canonical: canonical}
	if err := r.run(); err != nil {
		return Walked{}, err
	}
	if canonical {
		rec.SetTag("Game", r.game.Name())
	}
	return Walked{Rules: r.game, Options: r.final.Options(), Final: r.final}, nil
}

type replayer struct {
	rec   *Record
	seats int
	game  rules.Game
	keep  bool  // build g, with every position of the main line
	g     *Game // with keep
	// Without keep (Validate, Walk): visit, when set, gets each position
	// of the main line; canonical rewrites the tokens; with walk, final
	// is the end of the main line, a State of its own.
	walk      bool
	visit     func(ply int, s rules.State)
	canonical bool
	final     rules.State
}

func (r *replayer) fail(pos Pos, ply int, tok string, err error) error {
	return &Error{File: r.rec.File, Pos: pos, Ply: ply, Token: tok, Err: err}
}

func (r *replayer) tagPos(name string) Pos {
	for _, t := range r.rec.Tags {
		if t.Name == name {
			return t.Pos
		}
	}
	return r.rec.Pos
}

func (r *replayer) run() error {
	rec := r.rec
	name, ok := rec.Tag("Game")
	if !ok {
		return r.fail(rec.Pos, 0, "", errorf(ErrTag, "the Game tag is required, like [Game \"IceSickle\"]; the games are %s", strings.Join(games.Names(), ", ")))
	}
	game, ok := games.Lookup(name)
	if !ok {
		return r.fail(r.tagPos("Game"), 0, "", errorf(ErrGame, "unknown game %s: use one of %s", quote(name), strings.Join(games.Names(), ", ")))
	}
	r.seats = rec.Seats()
	if k := missingPlayer(rec, r.seats); k > 0 {
		return r.fail(rec.Pos, 0, "", errorf(ErrTag, "Player%d is missing: seats are numbered Player1 to Player%d without gaps", k, r.seats))
	}
	// Options one at a time, so that an error points at the tag that
	// caused it.
	opts := rules.Options{Seats: r.seats}
	start, err := game.Start(opts)
	if err != nil {
		return r.fail(r.tagPos("Player"+strconv.Itoa(r.seats)), 0, "", errorf(ErrOptions, "%s", cutReason(optionsReason(err))))
	}
	for _, name := range rules.OptionNames {
		v, ok := rec.Tag(name)
		if !ok {
			continue
		}
		if err := opts.Set(name, v); err != nil {
			return r.fail(r.tagPos(name), 0, "", errorf(ErrTag, "%s", cutReason(err.Error())))
		}
		if start, err = game.Start(opts); err != nil {
			return r.fail(r.tagPos(name), 0, "", errorf(ErrOptions, "%s", cutReason(optionsReason(err))))
		}
	}
	if v, ok := rec.Tag("Setup"); ok {
		setup, err := game.ParsePosition(v)
		if err != nil {
			return r.fail(r.tagPos("Setup"), 0, "", errorf(ErrTag, "Setup: %s", cutReason(err.Error())))
		}
		if setup.Options() != start.Options() {
			return r.fail(r.tagPos("Setup"), 0, "", errorf(ErrTag, "Setup is a position with options %+v but the tags give %+v", setup.Options(), start.Options()))
		}
		start = setup
	}
	if v, ok := rec.Tag("Date"); ok && !validDate(v) {
		return r.fail(r.tagPos("Date"), 0, "", errorf(ErrTag, "Date %s: write it as YYYY.MM.DD, with ? for unknown digits", quote(v)))
	}
	term, hasTerm := rec.Tag("Termination")
	if hasTerm && !slices.Contains(Terminations, term) {
		return r.fail(r.tagPos("Termination"), 0, "", errorf(ErrTag, "Termination %s: use one of %s", quote(term), strings.Join(Terminations, ", ")))
	}
	if v, ok := rec.Tag("Result"); ok && v != rec.Result {
		return r.fail(r.tagPos("Result"), 0, "", errorf(ErrResult, "the Result tag %s differs from the result marker %s", quote(v), quote(rec.Result)))
	}

	r.game = game
	var final rules.State
	if r.keep {
		n := len(rec.Main.Moves)
		r.g = &Game{Record: rec, Rules: game, Options: start.Options(), States: make([]rules.State, 1, n+1), Moves: make([]rules.Move, 0, n)}
		r.g.States[0] = start
		if err := r.line(&rec.Main, start, 0, true); err != nil {
			return err
		}
		final = r.g.Final()
	} else {
		cur := rules.NewMutable(start)
		if err := r.check(&rec.Main, cur, 0, true); err != nil {
			return err
		}
		final = cur
		if r.visit != nil {
			r.visit(len(rec.Main.Moves), cur)
		}
		if r.walk {
			final = cur.Copy()
			r.final = final
		}
	}
	if err := r.checkResult(final, term, hasTerm); err != nil {
		return err
	}
	if v, ok := rec.Tag("Score"); ok {
		if err := r.checkScore(final, v); err != nil {
			return err
		}
	}
	return nil
}

// missingPlayer returns the first seat up to seats that has no PlayerN tag
// when the record names players, and 0 when none is missing.
func missingPlayer(rec *Record, seats int) int {
	var have [100]bool // playerIndex allows two digits
	named := false
	for _, t := range rec.Tags {
		if k, ok := playerIndex(t.Name); ok {
			have[k], named = true, true
		}
	}
	if named {
		for k := 1; k <= seats; k++ {
			if !have[k] {
				return k
			}
		}
	}
	return 0
}

// optionsReason strips the sentinel's own words from a game's options
// error, which the notation error kind already says.
func optionsReason(err error) string {
	return strings.TrimPrefix(err.Error(), rules.ErrOptions.Error()+": ")
}

// line replays the moves of l from s; ply is the 0-based ply of its first
// move. main records the states of the main line.
func (r *replayer) line(l *Line, s rules.State, ply int, main bool) error {
	for i, m := range l.Moves {
		n := ply + i + 1 // 1-based ply of this move
		if err := r.checkNumber(m, n); err != nil {
			return err
		}
		// Variations replace this move: replay them from the position
		// before it.
		for _, v := range m.Variations {
			if err := r.line(v, s, n-1, false); err != nil {
				return err
			}
		}
		next, mv, err := rules.Play(s, m.Token)
		if err != nil {
			return r.fail(m.Pos, n, m.Token, moveError(err, s))
		}
		if main {
			r.g.States = append(r.g.States, next)
			r.g.Moves = append(r.g.Moves, mv)
		} else {
			r.g.varMoves = append(r.g.varMoves, varMove{m: m, from: s, mv: mv})
		}
		s = next
	}
	return nil
}

// check is line for Validate and Walk: it plays the moves of l into cur,
// keeping nothing, and replays each variation from a copy of the
// position it starts from. main says l is the main line, whose positions
// go to visit.
func (r *replayer) check(l *Line, cur rules.Mutable, ply int, main bool) error {
	for i, m := range l.Moves {
		n := ply + i + 1 // 1-based ply of this move
		if err := r.checkNumber(m, n); err != nil {
			return err
		}
		for _, v := range m.Variations {
			if err := r.check(v, rules.NewMutable(cur.Copy()), n-1, false); err != nil {
				return err
			}
		}
		if main && r.visit != nil {
			r.visit(n-1, cur)
		}
		if !r.canonical {
			if _, err := rules.PlayInto(cur, m.Token); err != nil {
				return r.fail(m.Pos, n, m.Token, moveError(err, cur))
			}
			continue
		}
		mv, err := rules.ParseLegal(cur, m.Token)
		if err != nil {
			return r.fail(m.Pos, n, m.Token, moveError(err, cur))
		}
		m.Token = cur.FormatMove(mv)
		cur.PlayLegal(mv)
	}
	return nil
}

// checkNumber checks the move number written before m, the nth ply.
func (r *replayer) checkNumber(m *Move, n int) error {
	if m.Number != 0 {
		if want := (n-1)/r.seats + 1; m.Number != want {
			return r.fail(m.NumberPos, n, m.Token, errorf(ErrMoveNumber, "move number %d where %d belongs (%d seats: each number covers %d turns); is a move missing or doubled?", m.Number, want, r.seats, r.seats))
		}
	}
	return nil
}

// moveError words a rules error for a record: the token and the reason,
// with whose turn it was. The token and the game's reason are cut
// (MaxQuote, maxReason): a token of megabytes makes an error of a line.
func moveError(err error, s rules.State) error {
	var me *rules.MoveError
	if errors.As(err, &me) {
		msg := cutReason(me.Reason) // me.Error(), cut
		if me.Token != "" {
			msg = cutToken(me.Token) + ": " + msg
		}
		if errors.Is(err, rules.ErrGameOver) {
			msg = cutToken(me.Token) + ": the game is already over (" + s.Outcome().String() + ")"
		} else if s.ToMove() > 0 {
			msg += fmt.Sprintf(" (seat %d to move)", s.ToMove())
		}
		return errorf(ErrMove, "%s", msg)
	}
	return errorf(ErrMove, "%s", cutReason(err.Error()))
}

// ResultString is the result marker for an outcome with seats seats: "1-0",
// "0-1", "1/2-1/2", or each seat's points joined by '-'; "*" when the game
// is not over.
func ResultString(o rules.Outcome, seats int) string {
	if !o.Over {
		return "*"
	}
	parts := make([]string, seats)
	for i := range parts {
		switch {
		case o.Winner == 0:
			parts[i] = "1/2"
		case o.Winner == i+1:
			parts[i] = "1"
		default:
			parts[i] = "0"
		}
	}
	return strings.Join(parts, "-")
}

// ParseResult reads a result marker for seats seats: the winning seat (0 for
// a draw) and whether the game is decided (false for "*").
func ParseResult(marker string, seats int) (winner int, decided bool, err error) {
	if marker == "*" {
		return 0, false, nil
	}
	for w := 0; w <= seats; w++ {
		if ResultString(rules.Outcome{Over: true, Winner: w}, seats) == marker {
			return w, true, nil
		}
	}
	return 0, false, errorf(ErrResult, "%s is not a result for %d seats: one winner scores 1 and the others 0 (%s), or a draw gives each 1/2 (%s), or * while not finished",
		quote(marker), seats, ResultString(rules.Outcome{Over: true, Winner: 1}, seats), ResultString(rules.Outcome{Over: true}, seats))
}

func (r *replayer) checkResult(final rules.State, term string, hasTerm bool) error {
	rec := r.rec
	n := len(rec.Main.Moves)
	winner, decided, err := ParseResult(rec.Result, r.seats)
	if err != nil {
		return r.fail(rec.ResultPos, 0, "", err)
	}
	out := final.Outcome()
	if out.Over {
		want := ResultString(out, r.seats)
		if rec.Result != want {
			return r.fail(rec.ResultPos, n, "", errorf(ErrResult, "the game ended by the rules after ply %d (%s): the result is %s, not %s", n, out, want, rec.Result))
		}
		if hasTerm && term != "normal" {
			return r.fail(r.tagPos("Termination"), n, "", errorf(ErrResult, "the game ended by the rules after ply %d: Termination is normal, not %s", n, quote(term)))
		}
		return nil
	}
	if decided {
		if !hasTerm || term == "normal" {
			return r.fail(rec.ResultPos, n, "", errorf(ErrResult, "the game is not over after ply %d (seat %d to move): write * or say how it ended with a Termination tag (resignation, agreement, time forfeit, abandoned)", n, final.ToMove()))
		}
		if term == "agreement" && winner != 0 {
			return r.fail(rec.ResultPos, n, "", errorf(ErrResult, "a game ended by agreement is a draw: %s", ResultString(rules.Outcome{Over: true}, r.seats)))
		}
	} else if hasTerm && term == "normal" {
		return r.fail(r.tagPos("Termination"), n, "", errorf(ErrResult, "Termination normal but the game is not over after ply %d", n))
	}
	return nil
}

func (r *replayer) checkScore(final rules.State, v string) error {
	pos := r.tagPos("Score")
	scores := final.Scores()
	if scores == nil {
		return r.fail(pos, 0, "", errorf(ErrScore, "%s has no scores: remove the Score tag", r.game.Name()))
	}
	if strings.Count(v, ":")+1 != r.seats {
		return r.fail(pos, 0, "", errorf(ErrScore, "Score %s: give %d seats' points joined by ':'", quote(v), r.seats))
	}
	var buf [64]byte
	want := buf[:0]
	for i, s := range scores {
		if i > 0 {
			want = append(want, ':')
		}
		want = strconv.AppendInt(want, int64(s), 10)
	}
	if v != string(want) {
		return r.fail(pos, 0, "", errorf(ErrScore, "Score %s, but the moves give %s", quote(v), want))
	}
	return nil
}
