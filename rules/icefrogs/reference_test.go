package icefrogs_test

// An independent, slow model of the rules to check the package against: it
// builds the boards from RULES.md's cube-coordinate definitions (not from
// the package's row table), keeps stacks as slices in a map, and lists
// moves as tokens. Perft counts and the move lists of positions met in
// random games must agree with the package.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"icepost/rules"
	"icepost/rules/icefrogs"
)

type cube struct{ x, y, z int }

func (a cube) add(b cube) cube { return cube{a.x + b.x, a.y + b.y, a.z + b.z} }

var cubeDirs = []cube{{1, -1, 0}, {1, 0, -1}, {0, 1, -1}, {-1, 1, 0}, {-1, 0, 1}, {0, -1, 1}}

type refBoard struct {
	name   map[cube]string
	at     map[string]cube
	starts map[int][]string // by seat count
}

// newRefBoard names the cells of the set in rows by z (a at the bottom,
// z = zmin), numbered from 1 left to right by x-y.
func newRefBoard(in func(c cube) bool, starts map[int][]string) *refBoard {
	b := &refBoard{name: map[cube]string{}, at: map[string]cube{}, starts: starts}
	rows := map[int][]cube{}
	zmin := 99
	for x := -6; x <= 6; x++ {
		for y := -6; y <= 6; y++ {
			c := cube{x, y, -x - y}
			if in(c) {
				rows[c.z] = append(rows[c.z], c)
				zmin = min(zmin, c.z)
			}
		}
	}
	for z, cs := range rows {
		sort.Slice(cs, func(i, j int) bool { return cs[i].x-cs[i].y < cs[j].x-cs[j].y })
		for i, c := range cs {
			n := fmt.Sprintf("%c%d", 'a'+z-zmin, i+1)
			b.name[c], b.at[n] = n, c
		}
	}
	return b
}

var refStar = newRefBoard(func(c cube) bool {
	return max(c.x, c.y, c.z) <= 2 || min(c.x, c.y, c.z) >= -2
}, map[int][]string{2: {"a1", "i1"}, 3: {"a1", "g1", "g7"}})

var refHex = newRefBoard(func(c cube) bool {
	return max(c.x, c.y, c.z) <= 3 && min(c.x, c.y, c.z) >= -3
}, map[int][]string{2: {"a1", "g4"}, 3: {"a1", "g1", "d7"}})

type refPiece struct{ seat, size int }

type refPos struct {
	b      *refBoard
	seats  int
	stacks map[cube][]refPiece // bottom first
	supply [][3]int
	toMove int // 0 when over
	winner int
}

func newRefPos(b *refBoard, seats int) *refPos {
	r := &refPos{b: b, seats: seats, stacks: map[cube][]refPiece{}, toMove: 1}
	for range seats {
		r.supply = append(r.supply, [3]int{5, 5, 5})
	}
	return r
}

func (r *refPos) clone() *refPos {
	n := *r
	n.stacks = map[cube][]refPiece{}
	for c, s := range r.stacks {
		n.stacks[c] = slices.Clone(s)
	}
	n.supply = slices.Clone(r.supply)
	return &n
}

func (r *refPos) on(c cube) bool { _, ok := r.b.name[c]; return ok }

func (r *refPos) topSize(c cube) int {
	s := r.stacks[c]
	if len(s) == 0 {
		return 0
	}
	return s[len(s)-1].size
}

// pieceMoves lists the moves of a piece of size that stands lifted at c0.
func (r *refPos) pieceMoves(prefix string, c0 cube, size int, own cube) []string {
	var out []string
	name := func(path []cube) string {
		var parts []string
		for _, c := range path {
			parts = append(parts, r.b.name[c])
		}
		return prefix + strings.Join(parts, "-")
	}
	for _, d := range cubeDirs {
		n := c0.add(d)
		if r.on(n) && n != own && (r.topSize(n) == 0 || r.topSize(n) >= size) {
			out = append(out, name([]cube{c0, n}))
		}
	}
	var chain func(path []cube)
	chain = func(path []cube) {
		cur := path[len(path)-1]
		for _, d := range cubeDirs {
			over, land := cur.add(d), cur.add(d).add(d)
			if !r.on(over) || !r.on(land) || r.topSize(over) == 0 || r.topSize(over) > size || slices.Contains(path, land) {
				continue
			}
			if t := r.topSize(land); t != 0 && t < size {
				continue
			}
			next := append(slices.Clone(path), land)
			if land != own {
				out = append(out, name(next))
			}
			if r.topSize(land) == 0 {
				chain(next)
				for _, e := range cubeDirs {
					n := land.add(e)
					if r.on(n) && n != own && !slices.Contains(next, n) && r.topSize(n) >= size {
						out = append(out, name(append(slices.Clone(next), n)))
					}
				}
			}
		}
	}
	chain([]cube{c0})
	return out
}

func (r *refPos) turns(seat int) []string {
	own := r.b.at[r.b.starts[r.seats][seat-1]]
	var out []string
	for c, s := range r.stacks {
		if len(s) == 0 || s[len(s)-1].seat != seat {
			continue
		}
		r.stacks[c] = s[:len(s)-1]
		out = append(out, r.pieceMoves("", c, s[len(s)-1].size, own)...)
		r.stacks[c] = s
	}
	for size := 1; size <= 3; size++ {
		if r.supply[seat-1][size-1] > 0 {
			out = append(out, r.pieceMoves(rules.SizeLetter(size)+"@", own, size, own)...)
		}
	}
	return out
}

func (r *refPos) legal() []string {
	if r.toMove == 0 {
		return nil
	}
	out := r.turns(r.toMove)
	if len(out) == 0 {
		out = []string{"pass"}
	}
	sort.Strings(out)
	return out
}

func (r *refPos) play(tok string) {
	seat := r.toMove
	if tok != "pass" {
		var piece refPiece
		path := tok
		if tok[1] == '@' {
			size, _ := rules.ParseSize(tok[0])
			piece = refPiece{seat, size}
			r.supply[seat-1][size-1]--
			path = tok[2:]
		}
		cells := strings.Split(path, "-")
		from, to := r.b.at[cells[0]], r.b.at[cells[len(cells)-1]]
		if tok[1] != '@' {
			s := r.stacks[from]
			piece = s[len(s)-1]
			r.stacks[from] = s[:len(s)-1]
		}
		r.stacks[to] = append(r.stacks[to], piece)
		for s, st := range r.b.starts[r.seats] {
			if s+1 != seat && st == cells[len(cells)-1] {
				r.toMove, r.winner = 0, seat
				return
			}
		}
	}
	r.toMove = seat%r.seats + 1
	for s := 1; s <= r.seats; s++ {
		if len(r.turns(s)) > 0 {
			return
		}
	}
	r.toMove = 0
}

func (r *refPos) perft(depth int) uint64 {
	moves := r.legal()
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		c := r.clone()
		c.play(m)
		n += c.perft(depth - 1)
	}
	return n
}

func tokensOf(s rules.State) []string {
	var out []string
	for _, m := range s.Moves(nil) {
		out = append(out, s.FormatMove(m))
	}
	sort.Strings(out)
	return out
}

var refCases = []struct {
	name string
	o    rules.Options
	b    *refBoard
}{
	{"star 2 seats", rules.Options{}, refStar},
	{"star 3 seats", rules.Options{Seats: 3}, refStar},
	{"hex 2 seats", rules.Options{Board: "hex"}, refHex},
	{"hex 3 seats", rules.Options{Board: "hex", Seats: 3}, refHex},
}

// TestReferenceBoards checks that the package's row table gives the boards
// RULES.md defines: the same cell names with the same neighbours.
func TestReferenceBoards(t *testing.T) {
	for _, c := range refCases {
		t.Run(c.name, func(t *testing.T) {
			if len(c.b.name) != 37 {
				t.Fatalf("the reference board has %d cells", len(c.b.name))
			}
			// Every step the package allows from an empty board's lone
			// piece is to a neighbour in the reference, and back.
			for cell, name := range c.b.name {
				for _, d := range cubeDirs {
					n := cell.add(d)
					nn, ok := c.b.name[n]
					if !ok {
						continue
					}
					if !adjacentInPackage(t, c.o, name, nn) {
						t.Errorf("%s and %s are neighbours, but the package does not step between them", name, nn)
					}
				}
			}
		})
	}
}

// adjacentInPackage puts a lone small of the mover on a and asks whether
// a-b parses as a step.
func adjacentInPackage(t *testing.T, o rules.Options, a, b string) bool {
	t.Helper()
	starts := refStar.starts
	if o.Board == "hex" {
		starts = refHex.starts
	}
	seats := max(o.Seats, 2)
	if slices.Contains(starts[seats], a) || slices.Contains(starts[seats], b) {
		return true // start spaces are checked by the perft counts
	}
	p := setup(t, o, "1", a+"=1S")
	_, err := p.ParseMove(a + "-" + b)
	return err == nil
}

func TestReferencePerft(t *testing.T) {
	depth := 5
	if testing.Short() {
		depth = 4
	}
	for _, c := range refCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			start, err := icefrogs.Start(c.o)
			if err != nil {
				t.Fatal(err)
			}
			ref := newRefPos(c.b, max(c.o.Seats, 2))
			for d := 1; d <= depth; d++ {
				if got, want := start.Perft(d), ref.perft(d); got != want {
					t.Errorf("perft(%d) = %d, the reference counts %d", d, got, want)
				}
			}
		})
	}
}

// TestReferenceGames plays random games and compares every position's
// move list, outcome and player to move with the reference.
func TestReferenceGames(t *testing.T) {
	games := 12
	if testing.Short() {
		games = 5
	}
	for _, c := range refCases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(3, uint64(len(c.name))))
			for g := range games {
				var s rules.State
				s, err := icefrogs.Game.Start(c.o)
				if err != nil {
					t.Fatal(err)
				}
				ref := newRefPos(c.b, max(c.o.Seats, 2))
				for ply := 0; ; ply++ {
					got, want := tokensOf(s), ref.legal()
					if !slices.Equal(got, want) {
						t.Fatalf("game %d ply %d at %s:\n got %v\nwant %v", g, ply, s.Code(), got, want)
					}
					if s.ToMove() != ref.toMove || s.Outcome().Winner != ref.winner {
						t.Fatalf("game %d ply %d at %s: to move %d, outcome %v; reference %d, winner %d", g, ply, s.Code(), s.ToMove(), s.Outcome(), ref.toMove, ref.winner)
					}
					if len(got) == 0 {
						break
					}
					checkParseAgrees(t, s, got, rng)
					checkEngineHints(t, s, ref)
					tok := got[rng.IntN(len(got))]
					s, _, err = rules.Play(s, tok)
					if err != nil {
						t.Fatalf("game %d ply %d: %s: %v", g, ply, tok, err)
					}
					ref.play(tok)
				}
			}
		})
	}
}

// checkEngineHints checks what the package tells the engine's playouts
// (Progress and FirstWin) against the reference: progress from distances
// found by a search of the reference board, wins by playing each move,
// one at a time and as the first of the whole list.
func checkEngineHints(t *testing.T, s rules.State, ref *refPos) {
	t.Helper()
	m := rules.NewMutable(s).(*icefrogs.Position)
	for seat := 1; seat <= ref.seats; seat++ {
		if got, want := m.Progress(seat), ref.progress(seat); got != want {
			t.Fatalf("%s: Progress(%d) = %d, the reference says %d", s.Code(), seat, got, want)
		}
	}
	moves := s.Moves(nil)
	first := -1
	for i, mv := range moves {
		c := ref.clone()
		c.play(s.FormatMove(mv))
		wins := c.winner == ref.toMove
		if wins && first < 0 {
			first = i
		}
		if got := m.FirstWin(moves[i : i+1]); (got == 0) != wins {
			t.Fatalf("%s: FirstWin([%s]) = %d, the reference's winner after it is %d", s.Code(), s.FormatMove(mv), got, c.winner)
		}
	}
	if got := m.FirstWin(moves); got != first {
		t.Fatalf("%s: FirstWin of the legal moves = %d, the reference's first winning move is %d", s.Code(), got, first)
	}
}

// progress is minus the sum of the distances of seat's pieces, in steps
// on the board, from the nearest opponent's start space; a piece in the
// supply counts one step behind seat's own start space.
func (r *refPos) progress(seat int) int {
	dist := map[cube]int{}
	var queue []cube
	for s, name := range r.b.starts[r.seats] {
		if s+1 != seat {
			dist[r.b.at[name]] = 0
			queue = append(queue, r.b.at[name])
		}
	}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		for _, d := range cubeDirs {
			n := c.add(d)
			if _, seen := dist[n]; !seen && r.on(n) {
				dist[n] = dist[c] + 1
				queue = append(queue, n)
			}
		}
	}
	sum := 0
	for c, stack := range r.stacks {
		for _, p := range stack {
			if p.seat == seat {
				sum += dist[c]
			}
		}
	}
	own := r.b.at[r.b.starts[r.seats][seat-1]]
	for _, n := range r.supply[seat-1] {
		sum += n * (dist[own] + 1)
	}
	return -sum
}

// checkParseAgrees reads tokens near the legal ones (one cell more, one
// less, the last cell changed) of a few legal ones and checks that ParseMove accepts exactly
// the legal ones.
func checkParseAgrees(t *testing.T, s rules.State, legal []string, rng *rand.Rand) {
	t.Helper()
	isLegal := map[string]bool{}
	for _, tok := range legal {
		isLegal[tok] = true
	}
	cells := refStar.name
	if s.Options().Board == "hex" {
		cells = refHex.name
	}
	for range 3 {
		tok := legal[rng.IntN(len(legal))]
		if tok == "pass" {
			continue
		}
		var cands []string
		if i := strings.LastIndexByte(tok, '-'); i > 0 {
			cands = append(cands, tok[:i])
			for _, n := range cells {
				cands = append(cands, tok[:i+1]+n, tok+"-"+n)
			}
		}
		for _, cand := range cands {
			_, err := s.ParseMove(cand)
			if (err == nil) != isLegal[cand] {
				t.Fatalf("%s: ParseMove(%q) = %v, but legal is %v", s.Code(), cand, err, isLegal[cand])
			}
		}
	}
}
