package tournament

import (
	"math/bits"
	"slices"
)

// Round robins at tables of three or four seats. Every pair of players
// must meet, and every player sit in every seat about equally often. The
// tables are a cyclic design: players are numbered 0..m-1 by seed, and a
// base block B (k numbers containing 0) gives m tables, table t seating
// player t+B[j] (mod m) in seat j+1. Each player then sits once in each
// seat per base block, exactly; and two players a and b meet at table t
// whenever their difference b-a (mod m) is a difference of two numbers of
// B. So the base blocks are chosen to hold every difference 1..m/2
// (either sign): one block when it can (up to 13 players at four seats,
// {0,1,3,9} for 13; up to 7 at three, {0,1,3} for 7), else greedily the
// block that holds the most differences still missing, until none is.
// Each player plays k games per block, one in each seat; with m = k,
// the one table is played k times with the seats rotated.

// maxTableSection bounds a section at tables of three or four: the
// differences fit in a 64-bit set, and the plan stays small.
const maxTableSection = 40

// tablePlan is the plan of a round robin of these players (by seed) at
// tables of k seats. Rounds: each table goes into the first round in
// which none of its players sits yet.
func tablePlan(ids []string, k int) []planned {
	m := len(ids)
	var best []planned
	for _, blocks := range baseBlockChoices(m, k) {
		p := tableRounds(ids, k, blocks)
		if best == nil || rounds(p) < rounds(best) {
			best = p
		}
	}
	return best
}

func rounds(p []planned) int {
	r := 0
	for _, g := range p {
		r = max(r, g.round)
	}
	return r
}

// tableRounds seats the tables of these base blocks and puts them in
// rounds.
func tableRounds(ids []string, k int, blocks [][]int) []planned {
	m := len(ids)
	var busy [][]bool // busy[r][p]: player p sits at a table in round r
	var out []planned
	for _, b := range blocks {
		for t := range m {
			players := make([]string, k)
			idx := make([]int, k)
			for j, d := range b {
				idx[j] = (t + d) % m
				players[j] = ids[idx[j]]
			}
			r := 0
			for ; r < len(busy); r++ {
				if !slices.ContainsFunc(idx, func(p int) bool { return busy[r][p] }) {
					break
				}
			}
			if r == len(busy) {
				busy = append(busy, make([]bool, m))
			}
			for _, p := range idx {
				busy[r][p] = true
			}
			out = append(out, planned{round: r + 1, players: players})
		}
	}
	slices.SortStableFunc(out, func(a, b planned) int { return a.round - b.round })
	return out
}

// differences is the set of difference classes (1..m/2) that block b
// holds, as bits.
func differences(b []int, m int) uint64 {
	var set uint64
	for i, x := range b {
		for _, y := range b[i+1:] {
			d := (y - x + m) % m
			set |= 1 << min(d, m-d)
		}
	}
	return set
}

// blocksOf are the k-subsets of 0..m-1 that contain 0, in increasing
// order.
func blocksOf(m, k int) [][]int {
	var out [][]int
	var rec func(b []int)
	rec = func(b []int) {
		if len(b) == k {
			out = append(out, slices.Clone(b))
			return
		}
		for x := b[len(b)-1] + 1; x < m; x++ {
			rec(append(b, x))
		}
	}
	rec([]int{0})
	return out
}

// baseBlockChoices are the sets of base blocks tablePlan may use: every
// single block that holds all the differences, when one does; else the
// greedy set.
func baseBlockChoices(m, k int) [][][]int {
	var all uint64
	for d := 1; d <= m/2; d++ {
		all |= 1 << d
	}
	cands := blocksOf(m, k)
	var singles [][][]int
	for _, b := range cands {
		if differences(b, m) == all {
			singles = append(singles, [][]int{b})
		}
	}
	if len(singles) > 0 {
		return singles
	}
	var chosen [][]int
	missing := all
	for missing != 0 {
		best, bestN := -1, 0
		for i, b := range cands {
			if n := bits.OnesCount64(differences(b, m) & missing); n > bestN {
				best, bestN = i, n
			}
		}
		chosen = append(chosen, cands[best])
		missing &^= differences(cands[best], m)
	}
	return [][][]int{chosen}
}
