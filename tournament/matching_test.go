package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// bruteMatching is the best matching by trying every one: the largest
// weight (with maxCard, the largest weight among those with the most
// edges), as (edges, weight).
func bruteMatching(n int, has [][]bool, weight [][]int64, maxCard bool) (int, int64) {
	used := make([]bool, n)
	bestCard, bestWeight, first := 0, int64(0), true
	var rec func(i, card int, w int64)
	rec = func(i, card int, w int64) {
		for i < n && used[i] {
			i++
		}
		if i == n {
			better := first
			switch {
			case first:
			case maxCard && card != bestCard:
				better = card > bestCard
			default:
				better = w > bestWeight
			}
			if better {
				bestCard, bestWeight, first = card, w, false
			}
			return
		}
		used[i] = true
		rec(i+1, card, w)
		for j := i + 1; j < n; j++ {
			if !used[j] && has[i][j] {
				used[j] = true
				rec(i+1, card+1, w+weight[i][j])
				used[j] = false
			}
		}
		used[i] = false
	}
	rec(0, 0, 0)
	return bestCard, bestWeight
}

// checkMatching says whether mate is a matching of the graph, and gives
// its edges and weight.
func checkMatching(n int, has [][]bool, weight [][]int64, mate []int) (int, int64, error) {
	if len(mate) != n {
		return 0, 0, fmt.Errorf("%d mates for %d vertices", len(mate), n)
	}
	card, w := 0, int64(0)
	for v, u := range mate {
		if u == -1 {
			continue
		}
		if u < 0 || u >= n || u == v || mate[u] != v || !has[v][u] {
			return 0, 0, fmt.Errorf("mate[%d] = %d is not an edge of a matching (%v)", v, u, mate)
		}
		if v < u {
			card++
			w += weight[v][u]
		}
	}
	return card, w, nil
}

func randomGraph(r *rand.Rand, n int, density float64, lo, hi int64) ([][]bool, [][]int64) {
	has := make([][]bool, n)
	weight := make([][]int64, n)
	for i := range n {
		has[i] = make([]bool, n)
		weight[i] = make([]int64, n)
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if r.Float64() < density {
				w := lo + r.Int64N(hi-lo+1)
				has[i][j], has[j][i] = true, true
				weight[i][j], weight[j][i] = w, w
			}
		}
	}
	return has, weight
}

// TestMatchingAgainstBruteForce: on thousands of random graphs of up to
// 10 vertices (dense and sparse, weights with many ties and without,
// negative ones too), the blossom algorithm's matching is as good as the
// best of all matchings, with and without maximum cardinality.
func TestMatchingAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(40, 1))
	kinds := []struct {
		name    string
		density float64
		lo, hi  int64
	}{
		{"dense ties", 1, 0, 3},
		{"dense spread", 0.9, 1, 1000},
		{"sparse", 0.35, 1, 20},
		{"negative", 0.7, -10, 10},
		{"large", 0.8, 1 << 40, 1<<40 + 1<<20},
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			for trial := range 600 {
				n := trial%11 + 0
				has, weight := randomGraph(r, n, k.density, k.lo, k.hi)
				for _, maxCard := range []bool{false, true} {
					mate := maxWeightMatching(n, has, weight, maxCard)
					card, w, err := checkMatching(n, has, weight, mate)
					if err != nil {
						t.Fatalf("trial %d (n=%d, maxCard=%v): %v", trial, n, maxCard, err)
					}
					wantCard, wantW := bruteMatching(n, has, weight, maxCard)
					if w != wantW || (maxCard && card != wantCard) {
						t.Fatalf("trial %d (n=%d, maxCard=%v): %d edges of weight %d, the best is %d of %d\nweights %v\nmate %v",
							trial, n, maxCard, card, w, wantCard, wantW, weight, mate)
					}
				}
			}
		})
	}
}

// TestMatchingLarger: on graphs too large for brute force, the matching
// with maximum cardinality is perfect on a complete graph of even order,
// and the algorithm is deterministic.
func TestMatchingLarger(t *testing.T) {
	r := rand.New(rand.NewPCG(40, 2))
	for _, n := range []int{20, 64, 101} {
		has, weight := randomGraph(r, n, 1, 0, 1e6)
		a := maxWeightMatching(n, has, weight, true)
		b := maxWeightMatching(n, has, weight, true)
		card, _, err := checkMatching(n, has, weight, a)
		if err != nil {
			t.Fatal(err)
		}
		if card != n/2 {
			t.Errorf("n=%d: %d edges, want %d", n, card, n/2)
		}
		for v := range a {
			if a[v] != b[v] {
				t.Fatalf("n=%d: two runs differ at %d", n, v)
			}
		}
	}
}
