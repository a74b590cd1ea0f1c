package icesickle_test

// A deliberately slow and simple second model of IceSickle, written from
// shared/RULES.md section 1 alone, to check the package against: the board
// is a map from square names to the pips of the piece there, moves are
// tokens built by walking each line square by square, and the rounds,
// the scores and the end follow the rules' words. It shares no code with
// the package and starts only from the standard start, so a position
// reaches it only as the moves of a game played through it.

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/icesickle"
)

// refSizes spells a piece by its pips: S is 1, M is 2, L is 3.
const refSizes = "SML"

type refState struct {
	board   map[string]int // square name ("c3") to its piece's pips; an empty square is absent
	stash   map[int]int    // pips to the pieces of that size still to place
	score   [3]int         // by seat (index 0 unused): pips captured in both rounds
	round   int            // 1 or 2
	placing bool           // placing pieces, else jumping them
	toMove  int            // seat 1 or 2; 0 once the game is over
}

// newRef is the start: an empty board, the full stash of 5 of each size,
// round 1, seat 1 to place.
func newRef() *refState {
	return &refState{
		board:   map[string]int{},
		stash:   map[int]int{1: 5, 2: 5, 3: 5},
		round:   1,
		placing: true,
		toMove:  1,
	}
}

func (r *refState) clone() *refState {
	c := *r
	c.board = map[string]int{}
	for sq, pips := range r.board {
		c.board[sq] = pips
	}
	c.stash = map[int]int{}
	for pips, n := range r.stash {
		c.stash[pips] = n
	}
	return &c
}

// refSquare names the square of file f and rank k (both from 0), and says
// whether it is on the 5x5 board.
func refSquare(f, k int) (string, bool) {
	if f < 0 || f > 4 || k < 0 || k > 4 {
		return "", false
	}
	return string(rune('a'+f)) + string(rune('1'+k)), true
}

// refCoords is refSquare backwards.
func refCoords(sq string) (f, k int) { return int(sq[0] - 'a'), int(sq[1] - '1') }

// refDirections are the 8 directions of a jump: every step of -1, 0 or 1
// in file and rank but standing still.
var refDirections = func() [][2]int {
	var out [][2]int
	for df := -1; df <= 1; df++ {
		for dk := -1; dk <= 1; dk++ {
			if df != 0 || dk != 0 {
				out = append(out, [2]int{df, dk})
			}
		}
	}
	return out
}()

// jumps lists every jump: a piece, a direction and a distance k from 1 to
// its pips, the k squares passed on the board with at least one of them
// occupied, and the square k+1 steps away on the board and empty.
func (r *refState) jumps() []string {
	var out []string
	for f := range 5 {
		for k := range 5 {
			from, _ := refSquare(f, k)
			pips := r.board[from]
			for _, d := range refDirections {
				for dist := 1; dist <= pips; dist++ {
					onBoard, passesPiece := true, false
					for i := 1; i <= dist; i++ {
						sq, on := refSquare(f+i*d[0], k+i*d[1])
						if !on {
							onBoard = false
							break
						}
						if r.board[sq] > 0 {
							passesPiece = true
						}
					}
					land, on := refSquare(f+(dist+1)*d[0], k+(dist+1)*d[1])
					if onBoard && on && passesPiece && r.board[land] == 0 {
						out = append(out, from+"x"+land)
					}
				}
			}
		}
	}
	return out
}

// legal lists the moves of the seat to move as sorted tokens: while
// placing, a size with pieces left on an empty square (L@c3); then the
// jumps (a1xd4); none once the game is over.
func (r *refState) legal() []string {
	if r.toMove == 0 {
		return nil
	}
	var out []string
	if r.placing {
		for f := range 5 {
			for k := range 5 {
				sq, _ := refSquare(f, k)
				if r.board[sq] > 0 {
					continue
				}
				for pips := 1; pips <= 3; pips++ {
					if r.stash[pips] > 0 {
						out = append(out, refSizes[pips-1:pips]+"@"+sq)
					}
				}
			}
		}
	} else {
		out = r.jumps()
	}
	slices.Sort(out)
	return out
}

// play plays tok, a legal move, for the seat to move.
func (r *refState) play(tok string) {
	seat := r.toMove
	if tok[1] == '@' {
		pips := strings.IndexByte(refSizes, tok[0]) + 1
		r.board[tok[2:]] = pips
		r.stash[pips]--
		r.toMove = 3 - seat
		if r.stash[1]+r.stash[2]+r.stash[3] == 0 {
			// All 15 are placed: seat 2 jumps first in round 1, seat 1
			// in round 2, whoever placed last.
			r.placing = false
			r.toMove = 3 - r.round
		}
	} else {
		from, to := tok[:2], tok[3:]
		f0, k0 := refCoords(from)
		f1, k1 := refCoords(to)
		df, dk := refSign(f1-f0), refSign(k1-k0)
		// Every piece passed over is captured; the mover scores its pips.
		for f, k := f0+df, k0+dk; f != f1 || k != k1; f, k = f+df, k+dk {
			sq, _ := refSquare(f, k)
			r.score[seat] += r.board[sq]
			delete(r.board, sq)
		}
		r.board[to] = r.board[from]
		delete(r.board, from)
		r.toMove = 3 - seat
	}
	// A round ends when the player to move has no jump, also right after
	// the last placement. Round 2 starts on a cleared board with a full
	// stash and seat 2 placing, whoever moved last; after it the game is
	// over.
	if !r.placing && len(r.jumps()) == 0 {
		if r.round == 1 {
			r.board = map[string]int{}
			r.stash = map[int]int{1: 5, 2: 5, 3: 5}
			r.round, r.placing, r.toMove = 2, true, 2
		} else {
			r.toMove = 0
		}
	}
}

// after is the position after tok, r unchanged.
func (r *refState) after(tok string) *refState {
	c := r.clone()
	c.play(tok)
	return c
}

// winner is the seat with the higher total once the game is over; 0 for
// equal totals (a draw) or a game still going.
func (r *refState) winner() int {
	switch {
	case r.toMove != 0:
		return 0
	case r.score[1] > r.score[2]:
		return 1
	case r.score[2] > r.score[1]:
		return 2
	}
	return 0
}

func refSign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// TestReferenceGames plays random games with the package and the same
// moves through the reference, and compares at every position, the end
// included: the sorted legal tokens, the seat to move, the scores, and
// whether the game is over and who won. It also makes sure the games
// passed through the change of round with the same seat moving twice,
// the rules' one surprise, and through wins of both seats and draws.
func TestReferenceGames(t *testing.T) {
	games := 1000
	if testing.Short() || raceEnabled {
		games = 200
	}
	rng := rand.New(rand.NewPCG(7, 11))
	start, err := icesickle.Game.Start(rules.Options{})
	if err != nil {
		t.Fatal(err)
	}
	twice, wins := 0, [3]int{}
	for g := range games {
		moves := notation.RandomGame(start, rng, 1000)
		s, ref := start, newRef()
		for ply := 0; ; ply++ {
			got, want := tokens(s), ref.legal()
			if !slices.Equal(got, want) {
				t.Fatalf("game %d ply %d at %s:\n got %v\nwant %v", g, ply, s.Code(), got, want)
			}
			o := s.Outcome()
			if s.ToMove() != ref.toMove || o.Over != (ref.toMove == 0) || o.Winner != ref.winner() {
				t.Fatalf("game %d ply %d at %s: to move %d, outcome %v; the reference: to move %d, winner %d", g, ply, s.Code(), s.ToMove(), o, ref.toMove, ref.winner())
			}
			if sc := s.Scores(); sc[0] != ref.score[1] || sc[1] != ref.score[2] {
				t.Fatalf("game %d ply %d at %s: scores %v, the reference %v", g, ply, s.Code(), sc, ref.score[1:])
			}
			if ply == len(moves) {
				if !o.Over {
					t.Fatalf("game %d: the random game stopped at %s before the end", g, s.Code())
				}
				wins[o.Winner]++
				break
			}
			tok := s.FormatMove(moves[ply])
			mover, round := ref.toMove, ref.round
			if s, err = s.Play(moves[ply]); err != nil {
				t.Fatalf("game %d ply %d: %s: %v", g, ply, tok, err)
			}
			ref.play(tok)
			if ref.round != round && ref.toMove == mover {
				twice++
			}
		}
	}
	if twice == 0 || wins[0] == 0 || wins[1] == 0 || wins[2] == 0 {
		t.Fatalf("%d random games: the same seat moved twice across the change of round %d times, draws, wins of seat 1, 2: %v; change the seed", games, twice, wins)
	}
	t.Logf("%d random games agree; the same seat moved twice across the change of round in %d; draws, wins of seat 1, 2: %v", games, twice, wins)
}
