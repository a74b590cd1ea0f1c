// Package rulestest is the conformance suite every game's tests run: the
// properties that the rest of icepost relies on, checked the same way for
// each game so that a new game cannot quietly break them.
package rulestest

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"icepost/rules"
)

// Case is one set of options to check, with what is known of it.
type Case struct {
	Name    string
	Options rules.Options
	// Perft holds the golden perft counts from the start: Perft[0] is
	// depth 1.
	Perft []uint64
	// Playouts is how many random games to play out (default 20).
	Playouts int
	// MaxPlies bounds a playout; a game still going after it fails the
	// suite (default 5000).
	MaxPlies int
}

// Run checks game g under every case.
func Run(t *testing.T, g rules.Game, cases ...Case) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			start, err := g.Start(c.Options)
			if err != nil {
				t.Fatalf("Start(%+v): %v", c.Options, err)
			}
			t.Run("start", func(t *testing.T) { checkStart(t, g, start) })
			t.Run("playouts", func(t *testing.T) { checkPlayouts(t, g, start, c) })
			t.Run("perft", func(t *testing.T) { checkPerft(t, start, c.Perft) })
		})
	}
}

func checkStart(t *testing.T, g rules.Game, s rules.State) {
	if s.Game().Name() != g.Name() {
		t.Errorf("Game().Name() = %q, want %q", s.Game().Name(), g.Name())
	}
	o := s.Options()
	if o.Seats < 2 || o.Seats > 4 {
		t.Errorf("Options().Seats = %d, want the seat count filled in", o.Seats)
	}
	if s.ToMove() < 1 || s.ToMove() > o.Seats {
		t.Errorf("ToMove() = %d at the start", s.ToMove())
	}
	if !strings.HasPrefix(s.Code(), g.Name()) {
		t.Errorf("Code() = %q, want it prefixed by %q", s.Code(), g.Name())
	}
	if _, err := g.ParsePosition("nonsense"); !errors.Is(err, rules.ErrPosition) {
		t.Errorf("ParsePosition(nonsense) = %v, want an error wrapping ErrPosition", err)
	}
	if _, err := g.Start(rules.Options{Seats: 9}); !errors.Is(err, rules.ErrOptions) {
		t.Errorf("Start(9 seats) = %v, want an error wrapping ErrOptions", err)
	}
	checkInfo(t, g, s)
}

// checkInfo checks that the game's description agrees with its rules: the
// seat counts it lists are the ones Start takes, its options are filled in
// with their defaults, and a summary and a token reader are there.
func checkInfo(t *testing.T, g rules.Game, s rules.State) {
	info := g.Info()
	if info.Token == nil {
		t.Fatalf("Info().Token is nil")
	}
	if info.Summary == "" || !strings.HasSuffix(info.Summary, "\n") {
		t.Errorf("Info().Summary = %q, want a paragraph ending in a newline", info.Summary)
	}
	for n := 1; n <= 8; n++ {
		_, err := g.Start(rules.Options{Seats: n})
		if listed := slices.Contains(info.Seats, n); listed != (err == nil) {
			t.Errorf("Info().Seats = %v but Start(%d seats) = %v", info.Seats, n, err)
		}
	}
	plain, err := g.Start(rules.Options{Seats: s.Options().Seats})
	if err != nil {
		t.Fatalf("Start with no options: %v", err)
	}
	for _, opt := range info.Options {
		o := rules.Options{Seats: s.Options().Seats}
		if err := o.Set(opt.Name, opt.Default); err != nil {
			t.Errorf("option %s: default %q: %v", opt.Name, opt.Default, err)
			continue
		}
		if got := plain.Options().Get(opt.Name); got != opt.Default {
			t.Errorf("option %s: a start without options has %q, the default is %q", opt.Name, got, opt.Default)
		}
		if _, err := g.Start(o); err != nil {
			t.Errorf("option %s=%s: %v", opt.Name, opt.Default, err)
		}
		for _, c := range opt.Choices {
			o.Set(opt.Name, c)
			if _, err := g.Start(o); err != nil {
				t.Errorf("option %s=%s: %v", opt.Name, c, err)
			}
		}
	}
}

func checkPlayouts(t *testing.T, g rules.Game, start rules.State, c Case) {
	n := c.Playouts
	if n == 0 {
		n = 20
	}
	maxPlies := c.MaxPlies
	if maxPlies == 0 {
		maxPlies = 5000
	}
	if raceEnabled || testing.Short() {
		n = min(n, 4)
	}
	rng := rand.New(rand.NewPCG(1, uint64(len(c.Name))))
	keys := keyCheck{g: g, keyOf: map[string]string{}, codeOf: map[string]string{}}
	for game := range n {
		s := start
		mut := rules.NewMutable(start)
		for ply := 0; ; ply++ {
			if ply > maxPlies {
				t.Fatalf("playout %d: still going after %d plies at %s", game, maxPlies, s.Code())
			}
			// The first playout is checked at every ply (under -race or
			// -short, its first 40); the others at every seventh and at
			// their end, which keeps long games (thousands of plies, a
			// thousand moves a position) quick.
			var moves []rules.Move
			first := game == 0 && (ply < 40 || !(raceEnabled || testing.Short()))
			if first || ply%7 == 0 {
				moves = checkPosition(t, s, first)
			} else {
				moves = s.Moves(nil)
				if len(moves) == 0 {
					checkPosition(t, s, false)
				}
			}
			if len(moves) == 0 {
				break
			}
			m := moves[rng.IntN(len(moves))]
			next, err := s.Play(m)
			if err != nil {
				t.Fatalf("playout %d ply %d: %v", game, ply, err)
			}
			if first || ply%7 == 0 {
				checkLastMove(t, s, m, next)
			}
			checkMutable(t, s, mut, m, next, first || ply%7 == 0)
			keys.check(t, next, mut, first || ply%7 == 0)
			s = next
		}
	}
}

// keyCheck checks position keys (rules.AppendKey) against codes over
// every position of a case's playouts: one key for each code and one code
// for each key, the same key for a position played to, played into a
// Mutable, and (with parsed) parsed from its code. A key that copied a
// field the code leaves out (a piece's number, a count kept for speed)
// would give a position reached two ways two keys, and the archive's
// position search would miss one.
type keyCheck struct {
	g             rules.Game
	keyOf, codeOf map[string]string
}

func (k keyCheck) check(t *testing.T, s rules.State, mut rules.Mutable, parsed bool) {
	t.Helper()
	code := s.Code()
	key := string(rules.AppendKey(nil, s))
	if _, ok := s.(rules.KeyAppender); ok && !strings.HasPrefix(key, k.g.Name()+"\x00") {
		t.Fatalf("%s: the key %q does not start with the game's name and a 0 byte", code, key)
	}
	if got := string(rules.AppendKey(nil, mut)); got != key {
		t.Fatalf("%s: key %q, and %q played into a Mutable", code, key, got)
	}
	if parsed {
		p, err := k.g.ParsePosition(code)
		if err != nil {
			t.Fatalf("%s: %v", code, err)
		}
		if got := string(rules.AppendKey(nil, p)); got != key {
			t.Fatalf("%s: key %q played, %q parsed from the code", code, key, got)
		}
	}
	if old, ok := k.keyOf[code]; ok && old != key {
		t.Fatalf("%s: two keys, %q and %q", code, old, key)
	}
	if old, ok := k.codeOf[key]; ok && old != code {
		t.Fatalf("key %q: two positions, %s and %s", key, old, code)
	}
	k.keyOf[code], k.codeOf[key] = key, code
}

// checkPosition checks everything the suite knows about one position and
// returns its legal moves. With all, it plays every legal move.
func checkPosition(t *testing.T, s rules.State, all bool) []rules.Move {
	t.Helper()
	code := s.Code()
	moves := s.Moves(nil)
	out := s.Outcome()
	seats := s.Options().Seats
	if len(moves) == 0 {
		if !out.Over || s.ToMove() != 0 {
			t.Fatalf("%s: no legal moves but Outcome %v, ToMove %d", code, out, s.ToMove())
		}
		if out.Winner < 0 || out.Winner > seats {
			t.Fatalf("%s: winner %d", code, out.Winner)
		}
		if _, err := s.ParseMove("a1"); err == nil {
			t.Fatalf("%s: ParseMove accepted a move after the end", code)
		}
	} else if out.Over || s.ToMove() < 1 || s.ToMove() > seats {
		t.Fatalf("%s: %d legal moves but Outcome %v, ToMove %d", code, len(moves), out, s.ToMove())
	}
	if sc := s.Scores(); sc != nil && len(sc) != seats {
		t.Fatalf("%s: %d scores for %d seats", code, len(sc), seats)
	}
	for v := 0; v <= seats; v++ {
		b := s.Board(v)
		if b == "" || !strings.HasSuffix(b, "\n") {
			t.Fatalf("%s: Board(%d) = %q, want text ending in a newline", code, v, b)
		}
	}

	checkDiagram(t, s)

	if a, ok := s.(rules.CodeAppender); ok {
		if got := string(a.AppendCode([]byte("x"))); got != "x"+code {
			t.Fatalf("AppendCode gives %q after the prefix, Code %q", got[1:], code)
		}
	}

	// The position code round-trips.
	back, err := s.Game().ParsePosition(code)
	if err != nil {
		t.Fatalf("ParsePosition(%q): %v", code, err)
	}
	if back.Code() != code || back.ToMove() != s.ToMove() || back.Outcome() != out {
		t.Fatalf("position code does not round-trip:\n%s\n%s", code, back.Code())
	}
	if got := back.Moves(nil); !slices.Equal(got, moves) {
		t.Fatalf("%s: the parsed position has %d moves, the original %d", code, len(got), len(moves))
	}

	// Every token is canonical, unique, and reads back to its move.
	seen := make(map[string]bool, len(moves))
	for _, m := range moves {
		tok := s.FormatMove(m)
		if tok == "" || strings.ContainsAny(tok, " \t\n{}();%") {
			t.Fatalf("%s: bad token %q", code, tok)
		}
		if seen[tok] {
			t.Fatalf("%s: two legal moves share the token %q", code, tok)
		}
		seen[tok] = true
		// Without a position, the token has a move's shape, in any case.
		for _, spelling := range []string{tok, strings.ToUpper(tok), strings.ToLower(tok)} {
			if c, ok := s.Game().Info().Token(spelling); !ok || c != tok {
				t.Fatalf("%s: Info().Token(%q) = %q, %v; want %q", code, spelling, c, ok, tok)
			}
		}
		for _, spelling := range []string{tok, strings.ToUpper(tok)} {
			got, err := s.ParseMove(spelling)
			if err != nil {
				t.Fatalf("%s: ParseMove(%q): %v", code, spelling, err)
			}
			if got != m {
				t.Fatalf("%s: ParseMove(%q) = %+v, want %+v", code, spelling, got, m)
			}
		}
	}
	// Tokens longer than any move (hostile input in a record) are refused,
	// never a panic.
	for _, long := range []string{strings.Repeat("a1-", 60) + "a1", strings.Repeat("c3x", 60) + "e5", strings.Repeat("M@a1-", 2) + strings.Repeat("b2-", 60) + "c3"} {
		if _, err := s.ParseMove(long); err == nil {
			t.Fatalf("%s: ParseMove accepted a token of %d characters", code, len(long))
		}
	}
	if _, err := s.Play(rules.Move{Kind: 0xff, N: 1, Path: [rules.MaxPath]uint8{0xfe}}); err == nil {
		t.Fatalf("%s: Play accepted a move that is not legal", code)
	}

	if all {
		board := s.Board(0)
		for _, m := range moves {
			next, err := s.Play(m)
			if err != nil {
				t.Fatalf("%s: legal move %s did not play: %v", code, s.FormatMove(m), err)
			}
			if next == nil {
				t.Fatalf("%s: Play(%s) returned nil", code, s.FormatMove(m))
			}
			if s.Code() != code || s.Board(0) != board {
				t.Fatalf("%s: Play(%s) changed the position it was called on", code, s.FormatMove(m))
			}
			if a, ok := s.(rules.LegalApplier); ok {
				if got := a.ApplyLegal(m); got.Code() != next.Code() {
					t.Fatalf("%s: ApplyLegal(%s) gives %s, Play gives %s", code, s.FormatMove(m), got.Code(), next.Code())
				}
			}
			next.Code()
		}
	}
	return moves
}

func checkPerft(t *testing.T, start rules.State, golden []uint64) {
	for i, want := range golden {
		depth := i + 1
		if got := rules.CountPerft(start, depth); got != want {
			t.Errorf("perft(%d) = %d, want %d", depth, got, want)
		}
		slowDepth := 3
		if raceEnabled {
			slowDepth = 2
		}
		if depth <= slowDepth {
			if got := rules.SlowPerft(start, depth); got != want {
				t.Errorf("perft(%d) through the State interface = %d, want %d", depth, got, want)
			}
		}
	}
}

// checkDiagram checks that the game describes the position for a picture
// from every seat's side, in agreement with the position itself.
func checkDiagram(t *testing.T, s rules.State) {
	t.Helper()
	ds, ok := s.(rules.Drawable)
	if !ok {
		t.Fatalf("%s does not describe its positions for pictures (rules.Drawable)", s.Game().Name())
	}
	code := s.Code()
	seats := s.Options().Seats
	out := s.Outcome()
	scores := s.Scores()
	var cells int
	for v := 0; v <= seats; v++ {
		d := ds.Diagram(v)
		if v == 0 {
			cells = len(d.Cells)
			if d.Turned {
				t.Fatalf("%s: Diagram(0) is turned; the usual view is seat 1's", code)
			}
		} else if len(d.Cells) != cells {
			t.Fatalf("%s: Diagram(%d) has %d cells, Diagram(0) %d", code, v, len(d.Cells), cells)
		}
		if d.Game != s.Game().Name() {
			t.Fatalf("%s: Diagram(%d).Game = %q", code, v, d.Game)
		}
		if len(d.Seats) != seats {
			t.Fatalf("%s: Diagram(%d) has %d seats, the game %d", code, v, len(d.Seats), seats)
		}
		if d.ToMove != s.ToMove() || d.Over != out.Over || d.Winner != out.Winner {
			t.Fatalf("%s: Diagram(%d) says to move %d, over %v, winner %d; the position %d, %v", code, v, d.ToMove, d.Over, d.Winner, s.ToMove(), out)
		}
		for i, si := range d.Seats {
			if si.HasScore != (scores != nil) || (scores != nil && si.Score != scores[i]) {
				t.Fatalf("%s: Diagram(%d) gives seat %d score %d (%v); Scores() = %v", code, v, i+1, si.Score, si.HasScore, scores)
			}
		}
		if len(d.Cells) == 0 && len(d.Notes) == 0 {
			t.Fatalf("%s: Diagram(%d) has neither cells nor notes: a picture would be empty", code, v)
		}
		names := make(map[string]bool, len(d.Cells))
		at := make(map[[2]int]bool, len(d.Cells))
		for _, c := range d.Cells {
			if c.Name == "" || names[c.Name] {
				t.Fatalf("%s: Diagram(%d) has a cell named %q twice or not at all", code, v, c.Name)
			}
			names[c.Name] = true
			if at[[2]int{c.X, c.Y}] {
				t.Fatalf("%s: Diagram(%d) has two cells at (%d, %d)", code, v, c.X, c.Y)
			}
			at[[2]int{c.X, c.Y}] = true
			if c.Start < 0 || c.Start > seats {
				t.Fatalf("%s: cell %s is the start of seat %d", code, c.Name, c.Start)
			}
			for _, p := range c.Pieces {
				if p.Owner < 0 || p.Owner > seats || p.Size < rules.Small || p.Size > rules.Large || p.Points > rules.NorthWest {
					t.Fatalf("%s: cell %s holds %+v", code, c.Name, p)
				}
			}
		}
		for _, sp := range d.Supplies {
			if sp.Owner < 0 || sp.Owner > seats || sp.Label == "" || sp.Count[0] < 0 || sp.Count[1] < 0 || sp.Count[2] < 0 {
				t.Fatalf("%s: Diagram(%d) has the supply %+v", code, v, sp)
			}
		}
	}
}

// checkLastMove checks the description of move m, played from prev to
// next, for the picture of next.
func checkLastMove(t *testing.T, prev rules.State, m rules.Move, next rules.State) {
	t.Helper()
	d, ok := rules.DiagramOf(next, 0, prev, m)
	if !ok || d.Last == nil {
		t.Fatalf("%s: no diagram with the last move", prev.Code())
	}
	l := d.Last
	tok := prev.FormatMove(m)
	if l.Seat != prev.ToMove() || l.Token != tok {
		t.Fatalf("%s: LastMove(%s) says seat %d played %q", prev.Code(), tok, l.Seat, l.Token)
	}
	for _, i := range append(slices.Clone(l.Path), l.Captured...) {
		if i < 0 || i >= len(d.Cells) {
			t.Fatalf("%s: LastMove(%s) names cell %d of %d", prev.Code(), tok, i, len(d.Cells))
		}
	}
	// Each capture names the piece it took: the top of its cell before the
	// move, or, for a second capture from one cell, the piece beneath.
	if len(l.Taken) != len(l.Captured) {
		t.Fatalf("%s: LastMove(%s) captures on %d cells and names %d pieces taken", prev.Code(), tok, len(l.Captured), len(l.Taken))
	}
	before := prev.(rules.Drawable).Diagram(0).Cells
	stacks := make(map[int][]rules.Piece, len(l.Captured))
	for k, i := range l.Captured {
		st, seen := stacks[i]
		if !seen {
			st = before[i].Pieces
		}
		if len(st) == 0 {
			t.Fatalf("%s: LastMove(%s) captures on %s, where no piece is left to take", prev.Code(), tok, before[i].Name)
		}
		if top := st[len(st)-1]; l.Taken[k] != top {
			t.Fatalf("%s: LastMove(%s) says it took %+v on %s, where %+v stood", prev.Code(), tok, l.Taken[k], before[i].Name, top)
		}
		stacks[i] = st[:len(st)-1]
	}
	if len(d.Cells) > 0 && len(l.Path) == 0 {
		// A pass may name no cell; anything else on a board names one.
		if !strings.EqualFold(tok, "pass") {
			t.Fatalf("%s: LastMove(%s) names no cell", prev.Code(), tok)
		}
	}
}

// checkMutable plays m into mut, which stands at s, and checks that it
// agrees with next, what Play gave. With full it also checks Copy, Set and
// Score.
func checkMutable(t *testing.T, s rules.State, mut rules.Mutable, m rules.Move, next rules.State, full bool) {
	t.Helper()
	var before rules.State
	if full {
		before = mut.Copy()
	}
	mut.PlayLegal(m)
	if !full {
		if mut.ToMove() != next.ToMove() || mut.Outcome() != next.Outcome() {
			t.Fatalf("%s: Mutable.PlayLegal(%s) disagrees with Play", s.Code(), s.FormatMove(m))
		}
		return
	}
	if got, want := mut.Code(), next.Code(); got != want {
		t.Fatalf("%s: Mutable.PlayLegal(%s) gives %s, Play gives %s", s.Code(), s.FormatMove(m), got, want)
	}
	if before.Code() != s.Code() {
		t.Fatalf("%s: a Mutable's Copy changed when the Mutable played (now %s)", s.Code(), before.Code())
	}
	scores := next.Scores()
	for seat := 1; seat <= next.Options().Seats; seat++ {
		want := 0
		if scores != nil {
			want = scores[seat-1]
		}
		if got := mut.Score(seat); got != want {
			t.Fatalf("%s: Mutable.Score(%d) = %d, Scores says %d", next.Code(), seat, got, want)
		}
	}
	other := rules.NewMutable(s)
	other.Set(mut)
	if other.Code() != next.Code() {
		t.Fatalf("%s: Mutable.Set gives %s, want %s", s.Code(), other.Code(), next.Code())
	}
	if moves := other.Moves(nil); len(moves) > 0 {
		other.PlayLegal(moves[0])
		if mut.Code() != next.Code() {
			t.Fatalf("%s: playing into a Mutable changed the one it was Set from", next.Code())
		}
	}
}
