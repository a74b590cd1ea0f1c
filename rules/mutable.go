package rules

// Mutable is a position that changes in place. A State is a value: every
// Play makes a new one, which costs an allocation once it is boxed in the
// interface. That is nothing for a person's move and most of the cost of
// the two loops that play millions of plies: replaying records
// (validate, the archive's import) and the engine's playouts. They play
// into a Mutable instead, and take a State of their own with Copy when
// they need to keep a position.
//
// A Mutable is also a State (its methods read the position as it is now),
// but it is not a value: do not keep it where a State is kept, and do not
// share it between goroutines.
type Mutable interface {
	State
	// PlayLegal plays m, a legal move of this position (one its Moves or
	// ParseMove returned), in place. It does not check m.
	PlayLegal(m Move)
	// Set makes this position a copy of src, a Mutable that NewMutable
	// made for the same game.
	Set(src Mutable)
	// Copy returns the position as it is now, as a State of its own.
	Copy() State
	// Score returns seat's score (seats count from 1), 0 in a game
	// without scores; unlike Scores it allocates nothing.
	Score(seat int) int
}

// MutableMaker is a State that offers a Mutable of its own kind. A game
// that does not gets the boxed one of NewMutable, which works the same
// and allocates a State a ply. A game that offers one promises, as for
// LegalApplier, that its ParseMove returns only legal moves.
type MutableMaker interface {
	NewMutable() Mutable
}

// NewMutable returns a Mutable that starts at s, through MutableMaker
// when s offers it.
func NewMutable(s State) Mutable {
	if mm, ok := s.(MutableMaker); ok {
		return mm.NewMutable()
	}
	return &boxed{State: s}
}

// PlayInto decodes tok against m's position and plays it into m: Play
// for a Mutable. On an error m is unchanged.
func PlayInto(m Mutable, tok string) (Move, error) {
	if b, ok := m.(*boxed); ok {
		next, mv, err := Play(b.State, tok)
		if err != nil {
			return Move{}, err
		}
		b.State = next
		return mv, nil
	}
	mv, err := m.ParseMove(tok)
	if err != nil {
		return Move{}, err
	}
	m.PlayLegal(mv)
	return mv, nil
}

// ParseLegal decodes tok against m's position into a legal move,
// without playing it: PlayInto's first half, for a caller that needs the
// position before the move (to write the move's canonical token).
func ParseLegal(m Mutable, tok string) (Move, error) {
	if b, ok := m.(*boxed); ok {
		_, mv, err := Play(b.State, tok)
		return mv, err
	}
	return m.ParseMove(tok)
}

// boxed is the Mutable of a game that offers none: it keeps a State and
// replaces it at every move.
type boxed struct{ State }

func (b *boxed) PlayLegal(m Move) {
	if a, ok := b.State.(LegalApplier); ok {
		b.State = a.ApplyLegal(m)
		return
	}
	next, err := b.State.Play(m)
	if err != nil {
		panic("rules: PlayLegal of a move that is not legal: " + err.Error())
	}
	b.State = next
}

func (b *boxed) Set(src Mutable) { b.State = src.(*boxed).State }

func (b *boxed) Copy() State { return b.State }

func (b *boxed) Score(seat int) int {
	if sc := b.State.Scores(); sc != nil {
		return sc[seat-1]
	}
	return 0
}
