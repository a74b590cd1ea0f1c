package aprecord

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// Sentinels of this package's own, beside notation's.
var (
	// ErrNotPlayed is a game, a variant or a seat count icepost does not
	// play as the site does.
	ErrNotPlayed = errors.New("not played by icepost")
	// ErrExport is a record the format cannot carry (Marshal).
	ErrExport = errors.New("not an APGameRecord")
)

// reader turns one record's JSON into icepost's record.
type reader struct {
	file string
}

func (r *reader) errAt(pos notation.Pos, kind error, format string, args ...any) error {
	return &notation.Error{File: r.file, Pos: pos, Err: kindErrorf(kind, format, args...)}
}

func (r *reader) moveErr(pos notation.Pos, ply int, tok string, kind error, format string, args ...any) error {
	return &notation.Error{File: r.file, Pos: pos, Ply: ply, Token: tok, Err: kindErrorf(kind, format, args...)}
}

// Parse reads one record's JSON (a RecordText's Text; line and col are
// where it starts in file) and replays its moves, in the site's notation,
// against icepost's rules. It returns icepost's record of the game: its
// moves as icepost's tokens, the header's players as Player tags in seat
// order, the result from their results, and the rest of the header as
// tags (docs/notation.md, "Abstract Play's records"). An error is a
// *notation.Error at the place in the JSON it is about; one about a move
// names its ply and the move as the record writes it.
func Parse(file string, text []byte, line, col int) (*notation.Record, error) {
	v, err := parseJSON(file, text, line, col)
	if err != nil {
		return nil, err
	}
	r := &reader{file: file}
	return r.record(v)
}

// want checks a value's type.
func (r *reader) want(v *value, k kind, what string) error {
	if v.kind != k {
		return r.errAt(v.pos, notation.ErrTag, "%s must be %s, not %s", what, k, v.kind)
	}
	return nil
}

// str reads an optional string field; "" when absent.
func (r *reader) str(obj *value, name, what string) (string, error) {
	v := obj.get(name)
	if v == nil || v.kind == jNull {
		return "", nil
	}
	if err := r.want(v, jString, what); err != nil {
		return "", err
	}
	return v.str, nil
}

func (r *reader) record(v *value) (*notation.Record, error) {
	if v.kind != jObject {
		return nil, r.errAt(v.pos, notation.ErrSyntax, "an APGameRecord is a JSON object with a header and moves, not %s", v.kind)
	}
	hv, mv := v.get("header"), v.get("moves")
	if hv == nil {
		return nil, r.errAt(v.pos, notation.ErrTag, "the record has no header: an APGameRecord is {\"header\": {...}, \"moves\": [...]}")
	}
	if mv == nil {
		return nil, r.errAt(v.pos, notation.ErrTag, "the record has no moves: an APGameRecord is {\"header\": {...}, \"moves\": [...]}")
	}
	if err := r.want(hv, jObject, "header"); err != nil {
		return nil, err
	}
	if err := r.want(mv, jArray, "moves"); err != nil {
		return nil, err
	}

	// The game and its variants.
	gv := hv.get("game")
	if gv == nil {
		return nil, r.errAt(hv.pos, notation.ErrGame, "the header has no game: give header.game.name (%s)", apNames())
	}
	if err := r.want(gv, jObject, "header.game"); err != nil {
		return nil, err
	}
	nv := gv.get("name")
	if nv == nil || nv.kind != jString {
		return nil, r.errAt(gv.pos, notation.ErrGame, "header.game.name is missing: give the game's name (%s)", apNames())
	}
	game, ap, ok := findGame(nv.str)
	if !ok {
		return nil, r.errAt(nv.pos, notation.ErrGame, "game %q: icepost plays no such game of Abstract Play's; it reads %s", cut(nv.str), apNames())
	}
	opts, err := r.variants(gv.get("variants"), ap)
	if err != nil {
		return nil, err
	}

	// The header's other fields.
	var h header
	if h.event, err = r.str(hv, "event", "header.event"); err != nil {
		return nil, err
	}
	if h.round, err = r.str(hv, "round", "header.round"); err != nil {
		return nil, err
	}
	if sv := hv.get("site"); sv != nil {
		if err := r.want(sv, jObject, "header.site"); err != nil {
			return nil, err
		}
		if h.site, err = r.str(sv, "name", "header.site.name"); err != nil {
			return nil, err
		}
		if id := sv.get("gameid"); id != nil {
			switch id.kind {
			case jString, jNumber:
				h.gameID = id.str
			case jNull:
			default:
				return nil, r.errAt(id.pos, notation.ErrTag, "header.site.gameid must be a string or a number, not %s", id.kind)
			}
		}
	}
	for _, d := range []struct {
		name string
		to   *string
	}{{"date-start", &h.dateStart}, {"date-end", &h.dateEnd}} {
		s, err := r.str(hv, d.name, "header."+d.name)
		if err != nil {
			return nil, err
		}
		if s == "" {
			continue
		}
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return nil, r.errAt(hv.get(d.name).pos, notation.ErrTag, "header.%s %q is not a date and time (like 2025-01-31T18:04:05.000Z)", d.name, cut(s))
		}
		*d.to = s
	}
	if u := hv.get("unrated"); u != nil && u.kind != jNull {
		if err := r.want(u, jBool, "header.unrated"); err != nil {
			return nil, err
		}
		h.unrated = u.b
	}
	if sp, err := r.str(hv, "startingPosition", "header.startingPosition"); err != nil {
		return nil, err
	} else if sp != "" {
		return nil, r.errAt(hv.get("startingPosition").pos, notation.ErrOptions, "header.startingPosition %q: icepost plays %s from its usual start only", cut(sp), ap.Name)
	}

	// The players, in seat order, with their results and scores.
	pv := hv.get("players")
	if pv == nil {
		return nil, r.errAt(hv.pos, notation.ErrTag, "the header has no players: list them in seat order, each with a name and a result")
	}
	if err := r.want(pv, jArray, "header.players"); err != nil {
		return nil, err
	}
	seats := len(pv.arr)
	if !slices.Contains(ap.Seats, seats) {
		return nil, r.errAt(pv.pos, ErrNotPlayed, "header.players lists %d %s: %s on Abstract Play has %s; is a player missing?", seats, plural(seats, "player", "players"), ap.Name, seatList(ap.Seats))
	}
	if !slices.Contains(game.Info().Seats, seats) {
		return nil, r.errAt(pv.pos, ErrNotPlayed, "header.players lists %d players: icepost plays %s with %s", seats, game.Name(), seatList(game.Info().Seats))
	}
	results := make([]int64, seats)
	scores := make([]*value, seats)
	for i, p := range pv.arr {
		what := fmt.Sprintf("header.players[%d]", i)
		if err := r.want(p, jObject, what); err != nil {
			return nil, err
		}
		var pl player
		nv := p.get("name")
		if nv == nil {
			return nil, r.errAt(p.pos, notation.ErrTag, "%s (seat %d) has no name", what, i+1)
		}
		if err := r.want(nv, jString, what+".name"); err != nil {
			return nil, err
		}
		pl.name = strings.TrimSpace(nv.str)
		if strings.ContainsAny(pl.name, "\r\n") {
			return nil, r.errAt(nv.pos, notation.ErrTag, "%s.name holds a line end", what)
		}
		if pl.userID, err = r.str(p, "userid", what+".userid"); err != nil {
			return nil, err
		}
		if ai := p.get("is_ai"); ai != nil && ai.kind != jNull {
			if err := r.want(ai, jBool, what+".is_ai"); err != nil {
				return nil, err
			}
			pl.ai = ai.b
		}
		rv := p.get("result")
		if rv == nil {
			return nil, r.errAt(p.pos, notation.ErrResult, "%s (seat %d, %s) has no result: give each player a result, higher for the winner (1 and 0), equal for a draw", what, i+1, cut(pl.name))
		}
		n, ok := integer(rv)
		if !ok {
			return nil, r.errAt(rv.pos, notation.ErrResult, "%s.result must be a whole number, not %s", what, cut(rv.str))
		}
		results[i] = n
		if sv := p.get("score"); sv != nil && sv.kind != jNull {
			if err := r.want(sv, jNumber, what+".score"); err != nil {
				return nil, err
			}
			scores[i] = sv
		}
		h.players = append(h.players, pl)
	}
	opts.Seats = seats
	start, err := game.Start(opts)
	if err != nil {
		return nil, r.errAt(gv.pos, notation.ErrOptions, "%s", err)
	}

	g := notation.NewGame(start, h.tags())
	g.Record.Pos = v.pos
	g.Record.ResultPos = pv.pos
	g.Record.File = r.file
	if err := r.play(g, ap, mv, results); err != nil {
		return nil, err
	}
	// Each player's score, where the record gives it, is the replay's.
	if final := g.Final().Scores(); final != nil {
		for i, sv := range scores {
			if sv == nil {
				continue
			}
			if f, err := strconv.ParseFloat(sv.str, 64); err != nil || f != float64(final[i]) {
				return nil, r.errAt(sv.pos, notation.ErrScore, "header.players[%d].score is %s, but the moves give seat %d %d (the scores are %s)", i, cut(sv.str), i+1, final[i], scoreText(final))
			}
		}
	}
	if err := r.icepostTags(g.Record, hv.get(TagIcepost)); err != nil {
		return nil, err
	}
	return g.Record, nil
}

// integer reads a JSON number that is a whole number.
func integer(v *value) (int64, bool) {
	if v.kind != jNumber {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.str, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

// variants reads header.game.variants into the options they stand for.
func (r *reader) variants(v *value, ap rules.APGame) (rules.Options, error) {
	var opts rules.Options
	for _, vr := range ap.Variants {
		if vr.Default {
			opts = vr.Options
		}
	}
	if v == nil || v.kind == jNull {
		return opts, nil
	}
	if err := r.want(v, jArray, "header.game.variants"); err != nil {
		return opts, err
	}
	var set *rules.APVariant
	for _, e := range v.arr {
		if err := r.want(e, jString, "a variant"); err != nil {
			return opts, err
		}
		vr, ok := findVariant(ap, e.str)
		if !ok {
			return opts, r.errAt(e.pos, ErrNotPlayed, "Abstract Play's variant %q of %s is not one icepost plays: it plays %s", cut(e.str), ap.Name, variantList(ap))
		}
		if set != nil && set.Options != vr.Options {
			return opts, r.errAt(e.pos, ErrNotPlayed, "the variants %q and %q of %s cannot be played together", set.Name, vr.Name, ap.Name)
		}
		set = vr
	}
	if set != nil {
		opts = set.Options
	}
	return opts, nil
}

// findVariant finds a variant by its uid or its name, in any case.
func findVariant(ap rules.APGame, s string) (*rules.APVariant, bool) {
	s = strings.TrimSpace(s)
	for i, vr := range ap.Variants {
		if strings.EqualFold(s, vr.Name) || vr.UID != "" && strings.EqualFold(s, vr.UID) {
			return &ap.Variants[i], true
		}
	}
	return nil, false
}

func variantList(ap rules.APGame) string {
	var out []string
	for _, vr := range ap.Variants {
		s := strconv.Quote(vr.Name)
		if vr.UID != "" {
			s += " (" + vr.UID + ")"
		}
		out = append(out, s)
	}
	return strings.Join(out, " and ")
}

// gamesWithAP are the games of icepost that the site plays too.
func gamesWithAP() []rules.Game {
	var out []rules.Game
	for _, g := range games.All() {
		if _, ok := g.(rules.AbstractPlay); ok {
			out = append(out, g)
		}
	}
	return out
}

// findGame finds the game of icepost that the site calls name.
func findGame(name string) (rules.Game, rules.APGame, bool) {
	for _, g := range gamesWithAP() {
		if a, ok := g.(rules.AbstractPlay); ok {
			ap := a.AbstractPlay()
			if strings.EqualFold(strings.TrimSpace(name), ap.Name) || strings.EqualFold(strings.TrimSpace(name), ap.UID) {
				return g, ap, true
			}
		}
	}
	return nil, rules.APGame{}, false
}

// apNames lists the games icepost reads from the site.
func apNames() string {
	var out []string
	for _, g := range games.All() {
		if a, ok := g.(rules.AbstractPlay); ok {
			out = append(out, strconv.Quote(a.AbstractPlay().Name))
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// Ends of a game that the site writes as a move (its GameBase's eog).
const (
	apResign  = "resign"
	apTimeout = "timeout"
	apDraw    = "draw"
)

// entry is one move of the record, in order.
type entry struct {
	tok    string
	pos    notation.Pos
	result *value // the move's result annotations, nil when none
}

// play replays the moves and ends the game as they and the results say.
func (r *reader) play(g *notation.Game, ap rules.APGame, mv *value, results []int64) error {
	var moves []entry
	for i, round := range mv.arr {
		if err := r.want(round, jArray, fmt.Sprintf("moves[%d] (a round: one move a seat)", i)); err != nil {
			return err
		}
		for j, e := range round.arr {
			switch e.kind {
			case jNull: // a seat that did not play
			case jString:
				moves = append(moves, entry{tok: e.str, pos: e.pos})
			case jObject:
				m := e.get("move")
				if m == nil || m.kind != jString {
					return r.errAt(e.pos, notation.ErrSyntax, "moves[%d][%d] has no \"move\" string", i, j)
				}
				moves = append(moves, entry{tok: m.str, pos: m.pos, result: e.get("result")})
			default:
				return r.errAt(e.pos, notation.ErrSyntax, "moves[%d][%d] is %s: a move is a string, an object with a \"move\", or null", i, j, e.kind)
			}
		}
	}
	seats := g.Options.Seats
	winner, err := r.outcome(g.Record.ResultPos, results)
	if err != nil {
		return err
	}
	for i, e := range moves {
		ply := i + 1
		s := g.Final()
		if end := strings.ToLower(strings.TrimSpace(e.tok)); end == apResign || end == apTimeout || end == apDraw {
			if i != len(moves)-1 {
				return r.moveErr(e.pos, ply, e.tok, notation.ErrMove, "%s ends the game, but %d more %s follow", e.tok, len(moves)-1-i, plural(len(moves)-1-i, "move", "moves"))
			}
			if s.Outcome().Over {
				return r.moveErr(e.pos, ply, e.tok, notation.ErrMove, "the game is already over (%s)", s.Outcome())
			}
			return r.end(g, e, ply, end, winner, seats)
		}
		if s.Outcome().Over {
			return r.moveErr(e.pos, ply, e.tok, notation.ErrMove, "%s: the game is already over (%s after ply %d), yet the record goes on", cut(e.tok), s.Outcome(), i)
		}
		m, err := ap.ParseMove(s, e.tok)
		if err != nil {
			return r.moveErr(e.pos, ply, e.tok, notation.ErrMove, "%s", moveReason(err, e.tok, s))
		}
		before := s.Scores()
		if err := g.Play(m, ""); err != nil {
			return r.moveErr(e.pos, ply, e.tok, notation.ErrMove, "%s: %v", cut(e.tok), err)
		}
		g.Record.Main.Moves[i].Pos = e.pos
		if err := r.checkDelta(e, ply, s.ToMove(), before, g.Final().Scores()); err != nil {
			return err
		}
	}
	final := g.Final()
	n := len(moves)
	out := final.Outcome()
	if !out.Over {
		return r.errAt(g.Record.ResultPos, notation.ErrResult, "the moves stop after ply %d with the game not over (seat %d to move) and no resign, timeout or draw to end it: Abstract Play records finished games", n, final.ToMove())
	}
	if out.Winner != winner {
		return r.errAt(g.Record.ResultPos, notation.ErrResult, "header.players' results say %s, but the moves end the game after ply %d with %s%s", whoWon(winner, g), n, whoWon(out.Winner, g), scoresOf(final))
	}
	return nil
}

// outcome reads the players' results: the one seat with the highest
// wins; a draw when all are equal.
func (r *reader) outcome(pos notation.Pos, results []int64) (int, error) {
	best := slices.Max(results)
	var top []int
	for i, v := range results {
		if v == best {
			top = append(top, i+1)
		}
	}
	switch {
	case len(top) == len(results):
		return 0, nil
	case len(top) == 1:
		return top[0], nil
	}
	return 0, r.errAt(pos, notation.ErrResult, "header.players' results put seats %v first together: icepost's records have one winner, or a draw of every seat", top)
}

// end ends the game by the site's resign, timeout or draw.
func (r *reader) end(g *notation.Game, e entry, ply int, word string, winner, seats int) error {
	if word == apDraw {
		if winner != 0 {
			return r.moveErr(e.pos, ply, e.tok, notation.ErrResult, "the game ends in an agreed draw, but header.players' results say %s: give every player the same result", whoWon(winner, g))
		}
		return g.End("agreement", 0, "")
	}
	term := "resignation"
	if word == apTimeout {
		term = "time forfeit"
	}
	// Who resigned or ran out of time: the result's player, or the
	// one who lost.
	loser := 0
	if p := playerOf(e.result); p > 0 {
		if p > seats {
			return r.moveErr(e.pos, ply, e.tok, notation.ErrResult, "%s by player %d of %d", word, p, seats)
		}
		loser = p
	}
	if seats != 2 {
		return r.moveErr(e.pos, ply, e.tok, notation.ErrResult, "with %d seats a %s leaves several winners, which icepost's records do not hold", seats, word)
	}
	if winner == 0 {
		return r.moveErr(e.pos, ply, e.tok, notation.ErrResult, "the game ends by %s, but header.players' results are equal (a draw): give the winner the higher result", term)
	}
	if loser != 0 && loser == winner {
		return r.moveErr(e.pos, ply, e.tok, notation.ErrResult, "seat %d %s, yet header.players' results say it won", loser, map[string]string{apResign: "resigned", apTimeout: "ran out of time"}[word])
	}
	return g.End(term, winner, "")
}

// playerOf reads the player of a resigned or timeout result.
func playerOf(res *value) int {
	if res == nil || res.kind != jArray {
		return 0
	}
	for _, o := range res.arr {
		if o.kind != jObject {
			continue
		}
		if t := o.get("type"); t != nil && t.kind == jString && (t.str == "resigned" || t.str == "timeout") {
			if p := o.get("player"); p != nil {
				if n, ok := integer(p); ok && n > 0 && n < 100 {
					return int(n)
				}
			}
		}
	}
	return 0
}

// checkDelta compares a move's deltaScore results with the points the
// replay gave the mover.
func (r *reader) checkDelta(e entry, ply, mover int, before, after []int) error {
	if e.result == nil || e.result.kind != jArray || before == nil || mover < 1 {
		return nil
	}
	var sum int64
	seen := false
	for _, o := range e.result.arr {
		if o.kind != jObject {
			continue
		}
		if t := o.get("type"); t == nil || t.kind != jString || t.str != "deltaScore" {
			continue
		}
		d := o.get("delta")
		n, ok := int64(0), false
		if d != nil {
			n, ok = integer(d)
		}
		if !ok {
			return r.moveErr(o.pos, ply, e.tok, notation.ErrScore, "%s: a deltaScore result needs a whole number delta", cut(e.tok))
		}
		sum += n
		seen = true
	}
	if got := after[mover-1] - before[mover-1]; seen && sum != int64(got) {
		return r.moveErr(e.pos, ply, e.tok, notation.ErrScore, "%s: the record says it scores %d, but it scores %d (seat %d)", cut(e.tok), sum, got, mover)
	}
	return nil
}

// icepostTags applies the header's icepost-tags: the tags of an icepost
// record that the header has no field for (a name and its value), and
// those the header would give that the record had not (a name and null).
func (r *reader) icepostTags(rec *notation.Record, v *value) error {
	if v == nil || v.kind == jNull {
		return nil
	}
	if err := r.want(v, jObject, "header."+TagIcepost); err != nil {
		return err
	}
	for _, f := range v.fields {
		if !validTagName(f.name) || gameTag(f.name) {
			return r.errAt(f.pos, notation.ErrTag, "header.%s: %q is not a tag it may set", TagIcepost, cut(f.name))
		}
		switch f.val.kind {
		case jNull:
			rec.DeleteTag(f.name)
		case jString:
			if strings.ContainsAny(f.val.str, "\r\n") {
				return r.errAt(f.val.pos, notation.ErrTag, "header.%s.%s holds a line end", TagIcepost, f.name)
			}
			rec.SetTag(f.name, f.val.str)
		default:
			return r.errAt(f.val.pos, notation.ErrTag, "header.%s.%s must be a string or null", TagIcepost, f.name)
		}
	}
	return nil
}

// validTagName is a tag name of the notation: letters, digits and '_'.
func validTagName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// moveReason words a rules error about AP's move for a player.
func moveReason(err error, tok string, s rules.State) string {
	var me *rules.MoveError
	msg := err.Error()
	if errors.As(err, &me) {
		msg = me.Reason
	}
	msg = cut(tok) + ": " + msg
	if s.ToMove() > 0 {
		msg += fmt.Sprintf(" (seat %d to move)", s.ToMove())
	}
	return msg
}

func whoWon(w int, g *notation.Game) string {
	if w == 0 {
		return "a draw"
	}
	name := g.Record.Players()[w-1]
	return fmt.Sprintf("seat %d (%s) won", w, name)
}

func scoresOf(s rules.State) string {
	if sc := s.Scores(); sc != nil {
		return " (" + scoreText(sc) + ")"
	}
	return ""
}

func scoreText(sc []int) string {
	parts := make([]string, len(sc))
	for i, v := range sc {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, ":")
}

func seatList(seats []int) string {
	parts := make([]string, len(seats))
	for i, v := range seats {
		parts[i] = strconv.Itoa(v)
	}
	s := strings.Join(parts, " or ")
	if len(seats) == 1 && seats[0] == 1 {
		return s + " player"
	}
	return s + " players"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
