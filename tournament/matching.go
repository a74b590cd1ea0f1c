package tournament

// A maximum-weight matching in a general graph: Edmonds' blossom
// algorithm in its primal-dual form, as Galil describes it ("Efficient
// algorithms for finding maximum matching in graphs", ACM Computing
// Surveys 18(1), 1986), in O(n³) on a dense graph. The Swiss pairing
// asks it for the best pairing of a round (swiss.go); bbpPairings and
// Lichess pair the same way.
//
// The vocabulary is Galil's. Vertices are 0..n-1; a blossom (an odd cycle
// of sub-blossoms, contracted) is numbered n..2n-1, and a vertex is a
// trivial blossom of itself. In a stage, the top-level blossoms grow
// alternating trees from the single (unmatched) vertices: an S-blossom is
// at even distance from its tree's root, a T-blossom at odd distance.
// Each vertex v has a dual u(v) and each blossom b a dual z(b) ≥ 0; an
// edge's slack u(i)+u(j)-w(i,j)+Σz(b over blossoms holding both) never
// goes below zero, and only edges of slack zero (tight, "allowed") join
// trees, form blossoms and augment. When no tight edge helps, the duals
// move by the largest step that keeps them feasible (delta), which makes
// an edge tight, empties a T-blossom's dual (it is expanded), or, when
// the single vertices' duals reach zero, proves the matching optimal.
//
// Duals are kept doubled (dual[v] = 2u(v), and blossoms' in the same
// units), so that with integer weights everything stays integer: the
// slack of an edge between two S-blossoms is then always even, and half
// of it is a whole step (delta3).

// noEdge marks "no edge" where an edge is packed as one int (i*n+j).
const noEdge = -1

// matcher is the state of one run.
type matcher struct {
	n       int
	weight  [][]int64 // weight[i][j], valid where has[i][j]
	has     [][]bool
	nbrs    [][]int // each vertex's neighbours, ascending
	maxCard bool

	mate      []int // a vertex's partner, or -1
	label     []int // of a top-level blossom: 0 free, 1 S, 2 T; bit 4 marks a scan's breadcrumb
	labelEdge []int // packed (from, to): the edge a labelled blossom was reached by, from outside; noEdge for a root
	inBlossom []int // a vertex's top-level blossom
	parent    []int // a blossom's enclosing blossom, or -1
	childs    [][]int
	edges     [][]int // edges[b][i] joins childs[b][i] (from) to childs[b][i+1] (to), wrapping
	base      []int   // a blossom's base vertex; -1 for an unused blossom number
	bestEdge  []int   // least-slack edge to an S-blossom (from a free vertex), or to another S-blossom (from an S-blossom)
	bestEdges [][]int // of a non-trivial S-blossom: its least-slack edges to neighbouring S-blossoms, or nil
	unused    []int
	dual      []int64
	allowed   [][]bool
	queue     []int
}

// maxWeightMatching returns a matching of the graph on n vertices whose
// edges are the pairs i, j with has[i][j] (symmetric), of weight
// weight[i][j] (symmetric, integer): mate[v] is v's partner, or -1. With
// maxCard, it has the most edges that any matching has, and the largest
// weight among those; without, the largest weight of all (an edge of
// weight ≤ 0 never helps). The weights' magnitudes must stay well within
// int64 (below 2^60 in all, the caller's bound).
func maxWeightMatching(n int, has [][]bool, weight [][]int64, maxCard bool) []int {
	m := &matcher{n: n, has: has, weight: weight, maxCard: maxCard}
	m.init()
	for range n {
		if !m.stage() {
			break
		}
		// Blossoms whose dual reached zero are expanded at the end of a
		// stage, so that a later stage may rearrange their insides.
		for b := n; b < 2*n; b++ {
			if m.parent[b] == -1 && m.base[b] >= 0 && m.label[b] == 1 && m.dual[b] == 0 {
				m.expand(b, true)
			}
		}
	}
	return m.mate
}

func (m *matcher) init() {
	n := m.n
	m.nbrs = make([][]int, n)
	var top int64
	for i := range n {
		for j := range n {
			if i != j && m.has[i][j] {
				m.nbrs[i] = append(m.nbrs[i], j)
				top = max(top, m.weight[i][j])
			}
		}
	}
	m.mate = fill(n, -1)
	m.label = make([]int, 2*n)
	m.labelEdge = fill(2*n, noEdge)
	m.inBlossom = make([]int, n)
	for v := range n {
		m.inBlossom[v] = v
	}
	m.parent = fill(2*n, -1)
	m.childs = make([][]int, 2*n)
	m.edges = make([][]int, 2*n)
	m.base = fill(2*n, -1)
	for v := range n {
		m.base[v] = v
	}
	m.bestEdge = fill(2*n, noEdge)
	m.bestEdges = make([][]int, 2*n)
	for b := 2*n - 1; b >= n; b-- {
		m.unused = append(m.unused, b)
	}
	m.dual = make([]int64, 2*n)
	for v := range n {
		m.dual[v] = top
	}
	m.allowed = make([][]bool, n)
	for i := range n {
		m.allowed[i] = make([]bool, n)
	}
}

func fill(n, v int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func (m *matcher) pack(i, j int) int     { return i*m.n + j }
func (m *matcher) ends(e int) (int, int) { return e / m.n, e % m.n }

// slack is twice the edge's slack (valid between different top-level
// blossoms, where no blossom dual counts).
func (m *matcher) slack(e int) int64 {
	i, j := m.ends(e)
	return m.dual[i] + m.dual[j] - 2*m.weight[i][j]
}

func (m *matcher) allow(e int) {
	i, j := m.ends(e)
	m.allowed[i][j], m.allowed[j][i] = true, true
}

// leaves appends the vertices of blossom b to out.
func (m *matcher) leaves(b int, out []int) []int {
	if b < m.n {
		return append(out, b)
	}
	for _, c := range m.childs[b] {
		out = m.leaves(c, out)
	}
	return out
}

// stage grows trees from every single vertex until it augments the
// matching (true) or proves that nothing can (false).
func (m *matcher) stage() bool {
	n := m.n
	clear(m.label)
	for i := range m.bestEdge {
		m.bestEdge[i] = noEdge
	}
	for b := n; b < 2*n; b++ {
		m.bestEdges[b] = nil
	}
	for i := range n {
		clear(m.allowed[i])
	}
	m.queue = m.queue[:0]
	for v := range n {
		if m.mate[v] == -1 && m.label[m.inBlossom[v]] == 0 {
			m.assign(v, 1, noEdge)
		}
	}
	for {
		for len(m.queue) > 0 {
			v := m.queue[len(m.queue)-1]
			m.queue = m.queue[:len(m.queue)-1]
			if m.scan(v) {
				return true
			}
		}
		// No tight edge helps: move the duals.
		kind, delta, edge, blossom := 0, int64(0), noEdge, -1
		if !m.maxCard {
			kind, delta = 1, m.dual[0]
			for v := 1; v < n; v++ {
				delta = min(delta, m.dual[v])
			}
		}
		for v := range n {
			if m.label[m.inBlossom[v]] == 0 && m.bestEdge[v] != noEdge {
				if d := m.slack(m.bestEdge[v]); kind == 0 || d < delta {
					kind, delta, edge = 2, d, m.bestEdge[v]
				}
			}
		}
		for b := range 2 * n {
			if m.parent[b] == -1 && m.label[b] == 1 && m.bestEdge[b] != noEdge {
				if d := m.slack(m.bestEdge[b]) / 2; kind == 0 || d < delta {
					kind, delta, edge = 3, d, m.bestEdge[b]
				}
			}
		}
		for b := n; b < 2*n; b++ {
			if m.base[b] >= 0 && m.parent[b] == -1 && m.label[b] == 2 && (kind == 0 || m.dual[b] < delta) {
				kind, delta, blossom = 4, m.dual[b], b
			}
		}
		if kind == 0 {
			// Maximum cardinality reached: one last step to optimality.
			kind, delta = 1, m.dual[0]
			for v := 1; v < n; v++ {
				delta = min(delta, m.dual[v])
			}
			delta = max(delta, 0)
		}
		for v := range n {
			switch m.label[m.inBlossom[v]] {
			case 1:
				m.dual[v] -= delta
			case 2:
				m.dual[v] += delta
			}
		}
		for b := n; b < 2*n; b++ {
			if m.base[b] >= 0 && m.parent[b] == -1 {
				switch m.label[b] {
				case 1:
					m.dual[b] += delta
				case 2:
					m.dual[b] -= delta
				}
			}
		}
		switch kind {
		case 1:
			return false
		case 2:
			m.allow(edge)
			i, j := m.ends(edge)
			if m.label[m.inBlossom[i]] == 0 {
				i = j
			}
			m.queue = append(m.queue, i)
		case 3:
			m.allow(edge)
			i, _ := m.ends(edge)
			m.queue = append(m.queue, i)
		case 4:
			m.expand(blossom, false)
		}
	}
}

// scan looks at the edges of S-vertex v; true when it augmented.
func (m *matcher) scan(v int) bool {
	for _, w := range m.nbrs[v] {
		// v's blossom may grow while its edges are scanned: look again.
		bv, bw := m.inBlossom[v], m.inBlossom[w]
		if bv == bw {
			continue
		}
		e := m.pack(v, w)
		var s int64
		if !m.allowed[v][w] {
			s = m.slack(e)
			if s <= 0 {
				m.allow(e)
			}
		}
		switch {
		case m.allowed[v][w] && m.label[bw] == 0:
			m.assign(w, 2, e)
		case m.allowed[v][w] && m.label[bw] == 1:
			if b := m.scanBlossom(v, w); b >= 0 {
				m.addBlossom(b, e)
			} else {
				m.augment(e)
				return true
			}
		case m.allowed[v][w] && m.label[w] == 0:
			// w sits in a T-blossom, reached now from outside.
			m.label[w] = 2
			m.labelEdge[w] = e
		case !m.allowed[v][w] && m.label[bw] == 1:
			if m.bestEdge[bv] == noEdge || s < m.slack(m.bestEdge[bv]) {
				m.bestEdge[bv] = e
			}
		case !m.allowed[v][w] && m.label[w] == 0:
			if m.bestEdge[w] == noEdge || s < m.slack(m.bestEdge[w]) {
				m.bestEdge[w] = e
			}
		}
	}
	return false
}

// assign labels the top-level blossom of w (1 S, 2 T), reached by edge e
// (from outside into w); a T-blossom's base's mate becomes S.
func (m *matcher) assign(w, t, e int) {
	b := m.inBlossom[w]
	m.label[w], m.label[b] = t, t
	m.labelEdge[w], m.labelEdge[b] = e, e
	m.bestEdge[w], m.bestEdge[b] = noEdge, noEdge
	if t == 1 {
		m.queue = m.leaves(b, m.queue)
		return
	}
	bs := m.base[b]
	m.assign(m.mate[bs], 1, m.pack(bs, m.mate[bs]))
}

// scanBlossom walks back from S-vertices v and w towards their roots,
// one step each in turn: where the walks meet is the base of a new
// blossom; if they reach two roots, there is an augmenting path (-1).
func (m *matcher) scanBlossom(v, w int) int {
	var path []int
	found := -1
	for v != -1 || w != -1 {
		b := m.inBlossom[v]
		if m.label[b]&4 != 0 {
			found = m.base[b]
			break
		}
		path = append(path, b)
		m.label[b] = 5
		if m.labelEdge[b] == noEdge {
			v = -1 // a root
		} else {
			from, _ := m.ends(m.labelEdge[b])
			t := m.inBlossom[from] // a T-blossom
			v, _ = m.ends(m.labelEdge[t])
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		m.label[b] = 1
	}
	return found
}

// addBlossom contracts the cycle that edge e (between two S-vertices)
// closes, with base vertex b's blossom at its start, into a new
// S-blossom.
func (m *matcher) addBlossom(baseVertex, e int) {
	v, w := m.ends(e)
	bb, bv, bw := m.inBlossom[baseVertex], m.inBlossom[v], m.inBlossom[w]
	b := m.unused[len(m.unused)-1]
	m.unused = m.unused[:len(m.unused)-1]
	m.base[b] = baseVertex
	m.parent[b] = -1
	m.parent[bb] = b
	var vs, ve []int
	for bv != bb {
		m.parent[bv] = b
		vs = append(vs, bv)
		ve = append(ve, m.labelEdge[bv])
		from, _ := m.ends(m.labelEdge[bv])
		bv = m.inBlossom[from]
	}
	childs := []int{bb}
	var edges []int
	for k := len(vs) - 1; k >= 0; k-- {
		childs = append(childs, vs[k])
		edges = append(edges, ve[k])
	}
	edges = append(edges, e)
	for bw != bb {
		m.parent[bw] = b
		childs = append(childs, bw)
		from, to := m.ends(m.labelEdge[bw])
		edges = append(edges, m.pack(to, from))
		bw = m.inBlossom[from]
	}
	m.childs[b], m.edges[b] = childs, edges
	m.label[b] = 1
	m.labelEdge[b] = m.labelEdge[bb]
	m.dual[b] = 0
	for _, x := range m.leaves(b, nil) {
		if m.label[m.inBlossom[x]] == 2 {
			// A T-vertex turns S inside an S-blossom: scan it.
			m.queue = append(m.queue, x)
		}
		m.inBlossom[x] = b
	}
	// The new blossom's least-slack edges to other S-blossoms.
	bestTo := fill(2*m.n, noEdge)
	for _, c := range childs {
		var list []int
		if m.bestEdges[c] == nil {
			for _, x := range m.leaves(c, nil) {
				for _, y := range m.nbrs[x] {
					list = append(list, m.pack(x, y))
				}
			}
		} else {
			list = m.bestEdges[c]
		}
		for _, k := range list {
			i, j := m.ends(k)
			if m.inBlossom[j] == b {
				i, j = j, i
				k = m.pack(i, j)
			}
			bj := m.inBlossom[j]
			if bj != b && m.label[bj] == 1 && (bestTo[bj] == noEdge || m.slack(k) < m.slack(bestTo[bj])) {
				bestTo[bj] = k
			}
		}
		m.bestEdges[c] = nil
		m.bestEdge[c] = noEdge
	}
	m.bestEdges[b] = []int{}
	m.bestEdge[b] = noEdge
	for _, k := range bestTo {
		if k == noEdge {
			continue
		}
		m.bestEdges[b] = append(m.bestEdges[b], k)
		if m.bestEdge[b] == noEdge || m.slack(k) < m.slack(m.bestEdge[b]) {
			m.bestEdge[b] = k
		}
	}
}

// at is childs[b][j] or edges[b][j] with j wrapped around the cycle.
func at(s []int, j int) int {
	l := len(s)
	return s[((j%l)+l)%l]
}

// walk is the direction from child index i back to the base (index 0)
// along the even side of the cycle: the start index (made negative when
// going forward) and the step.
func walk(i, l int) (j, step int) {
	if i&1 == 1 {
		return i - l, 1
	}
	return i, -1
}

// link is the edge between child j and child j+step, oriented from
// child j.
func (m *matcher) link(b, j, step int) int {
	if step == 1 {
		return at(m.edges[b], j)
	}
	from, to := m.ends(at(m.edges[b], j-1))
	return m.pack(to, from)
}

// expand undoes top-level blossom b: its children become top-level. In
// a stage (a T-blossom whose dual reached zero), the children on the
// path from where b was entered to its base are labelled again, T and S
// in turn, and the others left free unless reached from outside.
func (m *matcher) expand(b int, endStage bool) {
	for _, s := range m.childs[b] {
		m.parent[s] = -1
		switch {
		case s < m.n:
			m.inBlossom[s] = s
		case endStage && m.dual[s] == 0:
			m.expand(s, endStage)
		default:
			for _, v := range m.leaves(s, nil) {
				m.inBlossom[v] = s
			}
		}
	}
	if !endStage && m.label[b] == 2 {
		_, entered := m.ends(m.labelEdge[b])
		entry := m.inBlossom[entered]
		j, step := walk(index(m.childs[b], entry), len(m.childs[b]))
		p := m.labelEdge[b]
		for j != 0 {
			// Child j becomes T (reached by p); the child after it, which
			// holds its base's mate, becomes S through that.
			_, to := m.ends(p)
			l := m.link(b, j, step)
			_, next := m.ends(l)
			m.label[to] = 0
			m.label[next] = 0
			m.assign(to, 2, p)
			m.allow(l)
			j += step
			p = m.link(b, j, step)
			m.allow(p)
			j += step
		}
		// The base child becomes T, without relabelling its mate (already S).
		bv := at(m.childs[b], j)
		_, to := m.ends(p)
		m.label[to], m.label[bv] = 2, 2
		m.labelEdge[to], m.labelEdge[bv] = p, p
		m.bestEdge[bv] = noEdge
		// The children on the other side stay free, unless some vertex of
		// theirs was reached from outside.
		j += step
		for at(m.childs[b], j) != entry {
			bv := at(m.childs[b], j)
			j += step
			if m.label[bv] == 1 {
				continue
			}
			for _, v := range m.leaves(bv, nil) {
				if m.label[v] != 0 {
					m.label[v] = 0
					m.label[m.mate[m.base[bv]]] = 0
					m.assign(v, 2, m.labelEdge[v])
					break
				}
			}
		}
	}
	m.label[b] = 0
	m.labelEdge[b] = noEdge
	m.childs[b], m.edges[b] = nil, nil
	m.base[b] = -1
	m.bestEdges[b] = nil
	m.bestEdge[b] = noEdge
	m.unused = append(m.unused, b)
}

func index(s []int, x int) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	panic("tournament: matching: child not in its blossom")
}

// augmentBlossom swaps the matched and unmatched edges along the even
// path from vertex v's child to the base, so that v becomes b's base.
func (m *matcher) augmentBlossom(b, v int) {
	t := v
	for m.parent[t] != b {
		t = m.parent[t]
	}
	if t >= m.n {
		m.augmentBlossom(t, v)
	}
	i := index(m.childs[b], t)
	j, step := walk(i, len(m.childs[b]))
	for j != 0 {
		// Children j+step (holding x) and j+2*step (holding y) are
		// matched to each other through the edge between them.
		j += step
		x, y := m.ends(m.link(b, j, step))
		if c := at(m.childs[b], j); c >= m.n {
			m.augmentBlossom(c, x)
		}
		j += step
		if c := at(m.childs[b], j); c >= m.n {
			m.augmentBlossom(c, y)
		}
		m.mate[x], m.mate[y] = y, x
	}
	// Rotate so that t, which holds the new base, comes first.
	m.childs[b] = append(append([]int(nil), m.childs[b][i:]...), m.childs[b][:i]...)
	m.edges[b] = append(append([]int(nil), m.edges[b][i:]...), m.edges[b][:i]...)
	m.base[b] = m.base[m.childs[b][0]]
}

// augment flips the path through edge e (between two S-vertices of
// different trees) from root to root: one more matched edge.
func (m *matcher) augment(e int) {
	v, w := m.ends(e)
	for _, pair := range [2][2]int{{v, w}, {w, v}} {
		s, j := pair[0], pair[1]
		for {
			bs := m.inBlossom[s]
			if bs >= m.n {
				m.augmentBlossom(bs, s)
			}
			m.mate[s] = j
			if m.labelEdge[bs] == noEdge {
				break // reached the root
			}
			from, _ := m.ends(m.labelEdge[bs])
			bt := m.inBlossom[from]
			s, j = m.ends(m.labelEdge[bt])
			if bt >= m.n {
				m.augmentBlossom(bt, j)
			}
			m.mate[j] = s
			// s, an S-vertex, is matched to j at the top of the loop.
		}
	}
}
