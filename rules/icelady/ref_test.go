package icelady_test

// A slow reference move generator for Ice Lady, written from RULES.md 3
// apart from the package's own: a naive board of stacks spelt as strings,
// moves as tokens, and every move tried as a displacement vector with the
// squares in between scanned one by one. The tests compare it with the
// package on perft counts and on the full move lists of many positions.

import (
	"fmt"
	"slices"
	"strings"
)

type refSq struct {
	owner int
	stack string // bottom first: "S", "M", "L", "LS", "LM", "LMS"; "" empty
}

type refPos struct {
	b    [8][8]refSq // [file][rank]
	res  [3]int
	turn int
}

// refParse reads a position code on its own terms.
func refParse(code string) refPos {
	var p refPos
	f := strings.Fields(code)
	rows := strings.Split(f[1], "/")
	for i, row := range rows {
		r := 7 - i
		file := 0
		for j := 0; j < len(row); j++ {
			ch := row[j]
			switch {
			case ch >= '1' && ch <= '8':
				file += int(ch - '0')
			case ch == '+':
				// the next letter stacks on the previous square
				j++
				sq := &p.b[file-1][r]
				sq.stack += strings.ToUpper(string(row[j]))
			default:
				owner := 1
				if ch >= 'a' {
					owner = 2
				}
				p.b[file][r] = refSq{owner, strings.ToUpper(string(ch))}
				file++
			}
		}
	}
	fmt.Sscan(f[2], &p.res[1])
	fmt.Sscan(f[3], &p.res[2])
	fmt.Sscan(f[4], &p.turn)
	return p
}

func refName(f, r int) string { return fmt.Sprintf("%c%d", 'a'+f, r+1) }

func onB(f, r int) bool { return f >= 0 && f < 8 && r >= 0 && r < 8 }

// vectors lists the displacements a piece may make in one step or leap.
func (p *refPos) vectors(stack string, capture bool) [][2]int {
	fwd := 1
	if p.turn == 2 {
		fwd = -1
	}
	var v [][2]int
	switch stack {
	case "S":
		if capture {
			v = [][2]int{{-2, 2 * fwd}, {2, 2 * fwd}}
		} else {
			v = [][2]int{{-1, fwd}, {1, fwd}}
		}
	case "M":
		v = [][2]int{{0, 2 * fwd}, {-2, 0}, {2, 0}}
	default:
		pips := 0
		for _, c := range stack {
			pips += map[rune]int{'S': 1, 'M': 2, 'L': 3}[c]
		}
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				if dx == 0 && dy == 0 {
					continue
				}
				for k := 1; k <= pips; k++ {
					v = append(v, [2]int{k * dx, k * dy})
				}
			}
		}
	}
	return v
}

func (p *refPos) farRank() int {
	if p.turn == 1 {
		return 7
	}
	return 0
}

// joinable: a small or medium may end on its own king (tree) on the far row
// with room on top.
func (p *refPos) joinable(stack string, f, r int) bool {
	t := p.b[f][r]
	if t.owner != p.turn || r != p.farRank() {
		return false
	}
	return (stack == "M" && t.stack == "L") || (stack == "S" && (t.stack == "L" || t.stack == "LM"))
}

func between(f, r, tf, tr int) [][2]int {
	dx, dy := sgn(tf-f), sgn(tr-r)
	var out [][2]int
	for x, y := f+dx, r+dy; x != tf || y != tr; x, y = x+dx, y+dy {
		out = append(out, [2]int{x, y})
	}
	return out
}

func sgn(x int) int {
	if x > 0 {
		return 1
	}
	if x < 0 {
		return -1
	}
	return 0
}

// refMoves returns the legal moves' tokens, sorted.
func (p *refPos) refMoves() []string {
	var caps, steps []string
	for f := 0; f < 8; f++ {
		for r := 0; r < 8; r++ {
			sq := p.b[f][r]
			if sq.owner != p.turn {
				continue
			}
			p.b[f][r] = refSq{}
			var captured [8][8]bool
			p.chains(sq.stack, f, r, refName(f, r), captured, &caps)
			p.b[f][r] = sq
			for _, v := range p.vectors(sq.stack, false) {
				tf, tr := f+v[0], r+v[1]
				if !onB(tf, tr) {
					continue
				}
				clear := true
				for _, s := range between(f, r, tf, tr) {
					if p.b[s[0]][s[1]].owner != 0 {
						clear = false
					}
				}
				if !clear {
					continue
				}
				tok := refName(f, r) + "-" + refName(tf, tr)
				switch {
				case p.b[tf][tr].owner == 0:
					steps = append(steps, tok)
					if (sq.stack == "S" || sq.stack == "M") && tr == p.farRank() && p.res[p.turn] > 0 {
						steps = append(steps, tok+"=K")
					}
				case (sq.stack == "S" || sq.stack == "M") && p.joinable(sq.stack, tf, tr):
					steps = append(steps, tok)
				}
			}
		}
	}
	out := caps
	if len(caps) == 0 {
		out = steps
	}
	slices.Sort(out)
	return out
}

// chains adds every capture chain of the lifted piece stack standing on
// (f, r), the token so far being tok.
func (p *refPos) chains(stack string, f, r int, tok string, captured [8][8]bool, out *[]string) {
	any := false
	for _, v := range p.vectors(stack, true) {
		tf, tr := f+v[0], r+v[1]
		if !onB(tf, tr) {
			continue
		}
		var hits [][2]int
		ok := true
		for _, s := range between(f, r, tf, tr) {
			q := p.b[s[0]][s[1]]
			if q.owner == 0 {
				continue
			}
			if q.owner == p.turn || captured[s[0]][s[1]] {
				ok = false
			}
			hits = append(hits, s)
		}
		if !ok || len(hits) != 1 {
			continue
		}
		join := false
		if p.b[tf][tr].owner != 0 {
			if !(stack == "S" || stack == "M") || !p.joinable(stack, tf, tr) {
				continue
			}
			join = true
		}
		any = true
		h := hits[0]
		old := p.b[h[0]][h[1]]
		rest := old.stack[:len(old.stack)-1]
		if rest == "" {
			p.b[h[0]][h[1]] = refSq{}
		} else {
			p.b[h[0]][h[1]] = refSq{old.owner, rest}
		}
		c2 := captured
		c2[h[0]][h[1]] = true
		next := tok + "x" + refName(tf, tr)
		if join {
			*out = append(*out, next)
		} else {
			p.chains(stack, tf, tr, next, c2, out)
		}
		p.b[h[0]][h[1]] = old
	}
	if !any && strings.Contains(tok, "x") {
		*out = append(*out, tok)
		if (stack == "S" || stack == "M") && r == p.farRank() && p.res[p.turn] > 0 {
			*out = append(*out, tok+"=K")
		}
	}
}

// refPlay plays a token from refMoves.
func (p refPos) refPlay(tok string) refPos {
	promote := strings.HasSuffix(tok, "=K")
	tok = strings.TrimSuffix(tok, "=K")
	var sqs [][2]int
	for _, s := range strings.FieldsFunc(tok, func(r rune) bool { return r == '-' || r == 'x' }) {
		sqs = append(sqs, [2]int{int(s[0] - 'a'), int(s[1] - '1')})
	}
	a := sqs[0]
	piece := p.b[a[0]][a[1]]
	p.b[a[0]][a[1]] = refSq{}
	if strings.Contains(tok, "x") {
		for i := 1; i < len(sqs); i++ {
			for _, s := range between(sqs[i-1][0], sqs[i-1][1], sqs[i][0], sqs[i][1]) {
				q := p.b[s[0]][s[1]]
				if q.owner != 0 {
					q.stack = q.stack[:len(q.stack)-1]
					if q.stack == "" {
						q = refSq{}
					}
					p.b[s[0]][s[1]] = q
				}
			}
		}
	}
	z := sqs[len(sqs)-1]
	switch {
	case p.b[z[0]][z[1]].owner != 0:
		t := p.b[z[0]][z[1]]
		t.stack += piece.stack
		if t.stack == "LSM" {
			panic("bad stack")
		}
		p.b[z[0]][z[1]] = t
	case promote:
		p.b[z[0]][z[1]] = refSq{p.turn, "L"}
		p.res[p.turn]--
	default:
		p.b[z[0]][z[1]] = piece
	}
	p.turn = 3 - p.turn
	return p
}

func (p refPos) refPerft(depth int) uint64 {
	moves := p.refMoves()
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		n += p.refPlay(m).refPerft(depth - 1)
	}
	return n
}
