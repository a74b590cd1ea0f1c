package pikemen

// A deliberately slow and simple second implementation of the rules, used
// only to check the fast move generator and the puzzles found in Pikemen
// games (puzzle_ref_test.go): a map from square names to pieces, moves as
// canonical token strings, nothing shared with the package's code except
// the position code reader (to build the starting map).

import (
	"fmt"
	"sort"
	"strings"
)

type refPiece struct {
	seat, size int
	dir        string // N NE E SE S SW W NW U
}

type refPos struct {
	board  map[string]refPiece
	scores []int
	seats  int
	target int
	toMove int // 0 when over
}

var refDirs = []struct {
	name   string
	df, dr int
}{
	{"N", 0, 1}, {"NE", 1, 1}, {"E", 1, 0}, {"SE", 1, -1},
	{"S", 0, -1}, {"SW", -1, -1}, {"W", -1, 0}, {"NW", -1, 1},
}

var refOrients = []string{"N", "NE", "E", "SE", "S", "SW", "W", "NW", "U"}

func refSquare(f, r int) string { return fmt.Sprintf("%c%d", 'a'+f, r+1) }

// refFrom builds the reference position from the fast one by reading the
// board cell by cell through PieceAt.
func refFrom(p Position) *refPos {
	rp := &refPos{board: map[string]refPiece{}, seats: int(p.seats), target: int(p.target), toMove: p.ToMove()}
	for f := range 8 {
		for r := range 8 {
			owner, size, o := p.pieceAt(r*8 + f)
			if owner != 0 {
				rp.board[refSquare(f, r)] = refPiece{owner, size, o.String()}
			}
		}
	}
	rp.scores = append(rp.scores, p.Scores()...)
	return rp
}

func (rp *refPos) moves() []string {
	var out []string
	if rp.toMove == 0 {
		return nil
	}
	for f := range 8 {
		for r := range 8 {
			sq := refSquare(f, r)
			pc, ok := rp.board[sq]
			if !ok || pc.seat != rp.toMove {
				continue
			}
			for _, o := range refOrients {
				if o != pc.dir {
					out = append(out, sq+":"+o)
				}
			}
			if pc.dir == "U" {
				continue
			}
			var df, dr int
			for _, d := range refDirs {
				if d.name == pc.dir {
					df, dr = d.df, d.dr
				}
			}
			for k := 1; ; k++ {
				tf, tr := f+k*df, r+k*dr
				if tf < 0 || tf > 7 || tr < 0 || tr > 7 {
					break
				}
				to := refSquare(tf, tr)
				sep := "-"
				if v, ok := rp.board[to]; ok {
					if v.seat == pc.seat {
						break
					}
					if v.dir == "U" && v.size >= pc.size {
						break
					}
					sep = "x"
				}
				for _, o := range refOrients {
					tok := sq + sep + to
					if o != pc.dir {
						tok += ":" + o
					}
					out = append(out, tok)
				}
				if sep == "x" {
					break
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

func (rp *refPos) play(tok string) *refPos {
	n := &refPos{board: map[string]refPiece{}, seats: rp.seats, target: rp.target}
	for k, v := range rp.board {
		n.board[k] = v
	}
	n.scores = append([]int(nil), rp.scores...)
	me := rp.toMove
	from := tok[:2]
	pc := n.board[from]
	if tok[2] == ':' {
		pc.dir = tok[3:]
		n.board[from] = pc
	} else {
		to := tok[3:5]
		if v, ok := n.board[to]; ok {
			n.scores[me-1] += v.size
		}
		if i := strings.IndexByte(tok, ':'); i >= 0 {
			pc.dir = tok[i+1:]
		}
		delete(n.board, from)
		n.board[to] = pc
	}
	if n.scores[me-1] >= n.target {
		return n // over: toMove 0
	}
	has := map[int]bool{}
	for _, v := range n.board {
		has[v.seat] = true
	}
	if len(has) <= 1 {
		return n
	}
	next := me
	for {
		next = next%n.seats + 1
		if has[next] {
			break
		}
	}
	n.toMove = next
	return n
}

// winner is the game's winner by RULES.md's end, once it is over (toMove
// 0): the seat that reached the target, else, when one seat alone has
// pieces left, the highest score (0 when it is shared: a draw).
func (rp *refPos) winner() int {
	w, top, shared := 0, -1, false
	for i, sc := range rp.scores {
		if sc >= rp.target {
			return i + 1
		}
		switch {
		case sc > top:
			w, top, shared = i+1, sc, false
		case sc == top:
			shared = true
		}
	}
	if shared {
		return 0
	}
	return w
}

func (rp *refPos) perft(depth int) uint64 {
	ms := rp.moves()
	if depth == 1 {
		return uint64(len(ms))
	}
	var n uint64
	for _, m := range ms {
		n += rp.play(m).perft(depth - 1)
	}
	return n
}
