package pikemen

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"icepost/rules"
)

// ply is one ply of a playout: the position and the token played there.
type ply struct {
	p   Position
	tok string
}

// playout plays random moves from the start of a game with the given
// seats (seeded, so every run replays the same game) and returns each
// position with its move's canonical token, as a record would hold it.
func playout(seats int, seed uint64, n int) []ply {
	p, err := StartPosition(rules.Options{Seats: seats})
	if err != nil {
		panic(err)
	}
	r := rand.New(rand.NewPCG(seed, 1))
	var out []ply
	var buf []rules.Move
	for len(out) < n && !p.over {
		buf = p.Moves(buf)
		// Prefer charges when there are some, as games do, so that the
		// tokens are not nearly all reorients.
		m := buf[r.IntN(len(buf))]
		for range 3 {
			if m.Kind != KindReorient {
				break
			}
			m = buf[r.IntN(len(buf))]
		}
		out = append(out, ply{p, p.FormatMove(m)})
		p = p.Apply(m)
	}
	return out
}

// benchPlies are playouts of 2, 3 and 4 seats.
func benchPlies() []ply {
	var all []ply
	for seats := 2; seats <= 4; seats++ {
		all = append(all, playout(seats, uint64(seats), 200)...)
	}
	return all
}

// BenchmarkParseMove decodes every token of a few playouts against its
// position; ns/op and allocs/op are per token (per ply of a replay).
func BenchmarkParseMove(b *testing.B) {
	plies := benchPlies()
	b.ResetTimer()
	var i int
	for b.Loop() {
		pl := &plies[i]
		if _, err := pl.p.ParseMove(pl.tok); err != nil {
			b.Fatal(err)
		}
		if i++; i == len(plies) {
			i = 0
		}
	}
}

// BenchmarkCode writes the position code of each playout position, as a
// string (Code) and into a reused buffer (AppendCode, as the archive
// hashes it).
func BenchmarkCode(b *testing.B) {
	plies := benchPlies()
	b.Run("Code", func(b *testing.B) {
		var i, n int
		for b.Loop() {
			n += len(plies[i].p.Code())
			if i++; i == len(plies) {
				i = 0
			}
		}
	})
	b.Run("AppendCode", func(b *testing.B) {
		var i, n int
		buf := make([]byte, 0, 256)
		for b.Loop() {
			buf = plies[i].p.AppendCode(buf[:0])
			n += len(buf)
			if i++; i == len(plies) {
				i = 0
			}
		}
	})
}

// spellings lists the ways a player or a record may write m in p: the
// canonical token, its lower and upper case, the bracket form, and for a
// charge the suffix that repeats the orientation it keeps.
func spellings(p Position, m rules.Move) []string {
	tok := p.FormatMove(m)
	out := []string{tok, strings.ToLower(tok), strings.ToUpper(tok)}
	base, o := tok, Orientation(m.Arg).String()
	if i := strings.IndexByte(tok, ':'); i >= 0 {
		base = tok[:i]
	} else {
		out = append(out, tok+":"+o, strings.ToLower(tok+":"+o))
	}
	return append(out, base+"("+o+")", strings.ToLower(base+"("+strings.ToLower(o)+")"))
}

// TestParseMoveFast: along playouts of every seat count, every legal move
// in every spelling is decoded by the fast path (decode and allows) to the
// very move Moves lists, and ParseMove allocates nothing for it.
func TestParseMoveFast(t *testing.T) {
	plies := benchPlies()
	if testing.Short() {
		plies = plies[:100]
	}
	var buf []rules.Move
	for _, pl := range plies {
		buf = pl.p.Moves(buf)
		for _, m := range buf {
			for _, tok := range spellings(pl.p, m) {
				kind, from, to, o, ok := pl.p.decode(tok)
				if !ok || !pl.p.allows(kind, from, to, o) || kind != m.Kind || from != int(m.Path[0]) || o != Orientation(m.Arg) || (kind != KindReorient && to != int(m.Path[1])) {
					t.Fatalf("%s: decode(%q) = %d %d %d %v %v, want %+v", pl.p.Code(), tok, kind, from, to, o, ok, m)
				}
				got, err := pl.p.ParseMove(tok)
				if err != nil || got != m {
					t.Fatalf("%s: ParseMove(%q) = %+v, %v, want %+v", pl.p.Code(), tok, got, err, m)
				}
			}
		}
	}
	p, tok := plies[7].p, plies[7].tok
	if n := testing.AllocsPerRun(100, func() { _, _ = p.ParseMove(tok) }); n != 0 {
		t.Errorf("ParseMove(%q) allocates %v times, want 0", tok, n)
	}
}

// TestParseMoveSameAsExplain: the fast path and the step-by-step one
// (explain, the whole of ParseMove before the fast path) agree on every
// token of the shapes ParseMove reads, legal or not, in a few positions:
// the same move, or the same error.
func TestParseMoveSameAsExplain(t *testing.T) {
	plies := benchPlies()
	picks := []int{31, 260, 520}
	if testing.Short() {
		picks = picks[:1]
	}
	var suffixes []string
	for _, name := range append(orientNames[:], "", "nW", "x", "NNW", "(", ")", "ſ") {
		suffixes = append(suffixes, ":"+name, "("+name+")", name)
	}
	for _, i := range picks {
		p := plies[i%len(plies)].p
		accepted := 0
		for from := range 64 {
			heads := []string{squareName(from)}
			for to := range 64 {
				for _, sep := range []string{"-", "x", "X"} {
					heads = append(heads, squareName(from)+sep+squareName(to))
				}
			}
			heads = append(heads, squareName(from)+"-", squareName(from)+"x9")
			for _, head := range heads {
				for _, suf := range suffixes {
					tok := head + suf
					got, err := p.ParseMove(tok)
					want, werr := p.explain(tok)
					if got != want || (err == nil) != (werr == nil) || (err != nil && err.Error() != werr.Error()) {
						t.Fatalf("%s: ParseMove(%q) = %+v, %v; explain gives %+v, %v", p.Code(), tok, got, err, want, werr)
					}
					if err == nil {
						accepted++
					}
				}
			}
		}
		if legal := len(p.Moves(nil)); accepted < legal {
			t.Errorf("%s: %d tokens accepted, fewer than the %d legal moves", p.Code(), accepted, legal)
		}
	}
}

// TestAppendCode: AppendCode appends Code's bytes after what dst holds,
// in positions of every seat count and at the end of games, and
// allocates nothing when dst has room; Code allocates its string only.
func TestAppendCode(t *testing.T) {
	var positions []Position
	for _, pl := range benchPlies() {
		positions = append(positions, pl.p)
	}
	for seats := 2; seats <= 4; seats++ {
		p := playout(seats, 99, 1<<20) // to the end
		last := p[len(p)-1]
		end := last.p.Apply(must(last.p.ParseMove(last.tok)))
		if !end.over {
			t.Fatalf("%d seats: the playout did not end", seats)
		}
		positions = append(positions, end)
	}
	over := pos(t, "Pikemen 4 255 "+board("a1 L1NW, h8 S3SE")+" 254:0:254:255 -")
	positions = append(positions, over, pos(t, midGame))
	prefix := []byte("hash input: ")
	for _, p := range positions {
		code := p.Code()
		got := p.AppendCode(bytes.Clone(prefix))
		if string(got) != string(prefix)+code {
			t.Fatalf("AppendCode gives %q, want %q", got, string(prefix)+code)
		}
		if back, err := ParsePosition(code); err != nil || back != p {
			t.Fatalf("%q reads back as %v", code, err)
		}
	}
	p := positions[len(positions)-1]
	buf := make([]byte, 0, 512)
	if n := testing.AllocsPerRun(100, func() { buf = p.AppendCode(buf[:0]) }); n != 0 {
		t.Errorf("AppendCode allocates %v times into a buffer with room, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = p.Code() }); n != 1 {
		t.Errorf("Code allocates %v times, want 1 (its string)", n)
	}
}

func must(m rules.Move, err error) rules.Move {
	if err != nil {
		panic(err)
	}
	return m
}

var _ rules.CodeAppender = Position{}

// TestMoveAt: along playouts of every seat count, to the end, IndexMoves
// counts the moves Moves lists and MoveAt gives each at its index; Moves
// into a nil buffer allocates its list once, of the exact size.
func TestMoveAt(t *testing.T) {
	var positions []Position
	for _, pl := range benchPlies() {
		positions = append(positions, pl.p)
	}
	for seats := 2; seats <= 4; seats++ {
		for _, pl := range playout(seats, 7, 1<<20) {
			positions = append(positions, pl.p)
		}
	}
	positions = append(positions, pos(t, midGame))
	var buf []rules.Move
	m := &Mutable{}
	for _, p := range positions {
		buf = p.Moves(buf)
		m.Set(&p)
		if n := m.IndexMoves(); n != len(buf) {
			t.Fatalf("%s: IndexMoves = %d, Moves lists %d", p.Code(), n, len(buf))
		}
		for i, want := range buf {
			if got := m.MoveAt(i); got != want {
				t.Fatalf("%s: MoveAt(%d) = %+v, Moves has %+v", p.Code(), i, got, want)
			}
		}
		if fresh := p.Moves(nil); len(fresh) != cap(fresh) || len(fresh) != len(buf) {
			t.Fatalf("%s: Moves(nil) has length %d, capacity %d, want %d", p.Code(), len(fresh), cap(fresh), len(buf))
		}
	}
	p := positions[3]
	m.Set(&p)
	if n := testing.AllocsPerRun(100, func() { _ = m.MoveAt(m.IndexMoves() - 1) }); n != 0 {
		t.Errorf("IndexMoves and MoveAt allocate %v times, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = p.Moves(nil) }); n != 1 {
		t.Errorf("Moves(nil) allocates %v times, want 1", n)
	}
}

// TestReachIn: the first piece on a ray found from the occupied squares
// is the one the walk along the ray finds, for every piece on every ray
// of playouts of every seat count.
func TestReachIn(t *testing.T) {
	for _, pl := range benchPlies() {
		p := pl.p
		occ := occupied(&p.cell)
		for sq := range 64 {
			if (occ>>sq&1 == 1) != (p.cell[sq] != 0) {
				t.Fatalf("%s: occupied has square %d wrong", p.Code(), sq)
			}
			if p.cell[sq] == 0 {
				continue
			}
			for d := N; d < U; d++ {
				me := p.cell[sq] >> 2
				n, c := p.reach(sq, d, me)
				if n2, c2 := p.reachIn(occ, sq, d, me); n != n2 || c != c2 {
					t.Fatalf("%s: square %d, %v: reachIn %d %v, reach %d %v", p.Code(), sq, d, n2, c2, n, c)
				}
			}
		}
	}
}
