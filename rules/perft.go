package rules

// Node is what the fast perft needs from a game's concrete position type:
// move generation into a buffer and an unchecked apply that returns the new
// position by value. Games implement it on their own value types so that a
// perft run allocates nothing per node.
type Node[P any] interface {
	AppendMoves(buf []Move) []Move
	Apply(m Move) P
}

// Perft counts the leaf nodes of the game tree depth plies below p. A
// position where the game is over has no moves and so counts nothing below
// it.
func Perft[P Node[P]](p P, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	bufs := make([][]Move, depth)
	for i := range bufs {
		bufs[i] = make([]Move, 0, 128)
	}
	return perft(p, depth, bufs)
}

func perft[P Node[P]](p P, depth int, bufs [][]Move) uint64 {
	moves := p.AppendMoves(bufs[depth-1][:0])
	bufs[depth-1] = moves[:0]
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		n += perft(p.Apply(m), depth-1, bufs)
	}
	return n
}

// Perfter is a State that counts its own perft fast (games that implement
// Node do it with Perft). Callers fall back to SlowPerft otherwise.
type Perfter interface {
	Perft(depth int) uint64
}

// CountPerft counts perft for any State: fast when it is a Perfter, through
// the State interface otherwise.
func CountPerft(s State, depth int) uint64 {
	if p, ok := s.(Perfter); ok {
		return p.Perft(depth)
	}
	return SlowPerft(s, depth)
}

// SlowPerft counts perft through the State interface alone. The
// conformance suite compares it with a game's fast Perft.
func SlowPerft(s State, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	moves := s.Moves(nil)
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, m := range moves {
		next, err := s.Play(m)
		if err != nil {
			panic("rules: a legal move did not play: " + err.Error())
		}
		n += SlowPerft(next, depth-1)
	}
	return n
}
