package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"icepost/render"
	"icepost/rules"
)

// The play page's board answers a click: its script asks these two
// addresses, on the same capability as the page, what to draw. Every
// move, cell and word comes from here, computed by the rules packages;
// the script only marks cells and swaps pictures.
//
//	GET /play/CAP/moves.json          the seat's legal moves by the cell each starts from
//	GET /play/CAP/after.json?move=TOK the board after one of them, to confirm

// movesJSON is /play/CAP/moves.json.
type movesJSON struct {
	Game   string `json:"game"`
	ID     int64  `json:"id"`
	Seat   int    `json:"seat"`
	Ply    int    `json:"ply"`    // the moves played: the play form's ply
	ToMove bool   `json:"toMove"` // the seat has a move to make now
	// Message says why there is nothing to play, when ToMove is false.
	Message string `json:"message,omitempty"`
	// Groups are the moves by the cell they start from, in the cells'
	// order on the board.
	Groups []cellGroup `json:"groups"`
	// Other are the moves that go through no cell (a pass), to choose
	// in the list.
	Other []string `json:"other,omitempty"`
}

// cellGroup is the moves that start from one cell: a piece's moves, a
// placement onto an empty cell (which starts and ends there), the
// pieces that enter at a start space.
type cellGroup struct {
	From  string `json:"from"`
	Label string `json:"label"` // the cell's handle's name: "c3, Bob's medium: 2 moves"
	// Targets are the cells the moves end on, each with its moves: the
	// marks to draw when the cell is picked. A move that ends where it
	// starts (a turn, a placement) has From among them.
	Targets []cellTarget `json:"targets"`
	Moves   []cellMove   `json:"moves"`
}

type cellTarget struct {
	Cell  string   `json:"cell"`
	Label string   `json:"label"` // "b4, empty: play c3-b4", "d1, Bob's large: 8 moves, choose in the list"
	Moves []string `json:"moves"` // their tokens, sorted as the list has them
}

type cellMove struct {
	Token  string   `json:"token"`
	From   string   `json:"from"`
	To     string   `json:"to"`
	Path   []string `json:"path"` // the start, then every landing cell
	Placed bool     `json:"placed,omitempty"`
}

// afterJSON is /play/CAP/after.json: the board after a move, to confirm.
type afterJSON struct {
	Move   string `json:"move"`   // the move, in its canonical token
	Status string `json:"status"` // what the page says under the board
	Board  string `json:"board"`  // the picture, as the page has it (inline SVG)
}

// seatGameOf is the game and seat a request's capability names, as the
// play page loads them.
func (s *Site) seatGameOf(r *http.Request) (*seatGame, error) {
	_, id, seat, err := s.playSeat(r)
	if err != nil {
		return nil, err
	}
	return s.loadSeatGame(r.Context(), id, seat)
}

func (s *Site) playMoves(w http.ResponseWriter, r *http.Request) error {
	sg, err := s.seatGameOf(r)
	if err != nil {
		return err
	}
	id := sg.info.ID
	out := movesJSON{Game: sg.g.Rules.Name(), ID: id, Seat: sg.seat, Ply: len(sg.g.Moves), Groups: []cellGroup{}}
	st := sg.toMove()
	switch {
	case sg.info.Status != "active":
		out.Message = fmt.Sprintf("game %d is %s: there is nothing to play.", id, sg.info.Status)
	case st == nil:
		out.Message = fmt.Sprintf("It is not %s's move.", sg.name())
	default:
		out.ToMove = true
		out.Groups, out.Other = groupByCell(st, sg.names)
	}
	return writeJSON(w, out)
}

// groupByCell groups the legal moves of st by the cell each starts from,
// and within a group by the cell it ends on, in the order of the board's
// cells; the moves that go through no cell come apart.
func groupByCell(st rules.State, names []string) (groups []cellGroup, other []string) {
	moves, _ := rules.CellMoves(st)
	d, _ := rules.DiagramOf(st, 0, nil, rules.Move{})
	order := map[string]int{}
	for i, c := range d.Cells {
		order[c.Name] = i
	}
	byCell := func(a, b string) int { return order[a] - order[b] }
	at := map[string]int{} // a group's index by its start
	for _, m := range moves {
		if m.From() == "" {
			other = append(other, m.Token)
			continue
		}
		i, ok := at[m.From()]
		if !ok {
			i = len(groups)
			at[m.From()] = i
			groups = append(groups, cellGroup{From: m.From()})
		}
		groups[i].Moves = append(groups[i].Moves, cellMove{Token: m.Token, From: m.From(), To: m.To(), Path: m.Path, Placed: m.Placed})
	}
	slices.SortFunc(groups, func(a, b cellGroup) int { return byCell(a.From, b.From) })
	opt := render.Names(names...)
	for gi := range groups {
		g := &groups[gi]
		slices.SortFunc(g.Moves, func(a, b cellMove) int { return strings.Compare(a.Token, b.Token) })
		tat := map[string]int{}
		for _, m := range g.Moves {
			i, ok := tat[m.To]
			if !ok {
				i = len(g.Targets)
				tat[m.To] = i
				g.Targets = append(g.Targets, cellTarget{Cell: m.To})
			}
			g.Targets[i].Moves = append(g.Targets[i].Moves, m.Token)
		}
		slices.SortFunc(g.Targets, func(a, b cellTarget) int { return byCell(a.Cell, b.Cell) })
		for ti := range g.Targets {
			t := &g.Targets[ti]
			what := "play " + t.Moves[0]
			if len(t.Moves) > 1 {
				what = fmt.Sprintf("%d moves, choose one in the list", len(t.Moves))
			}
			t.Label = render.DescribeCell(d, t.Cell, opt) + ": " + what
		}
		g.Label = render.DescribeCell(d, g.From, opt) + ": " + plural(len(g.Moves), "move", "moves")
	}
	slices.Sort(other)
	return groups, other
}

func (s *Site) playAfter(w http.ResponseWriter, r *http.Request) error {
	sg, err := s.seatGameOf(r)
	if err != nil {
		return err
	}
	st := sg.toMove()
	if st == nil {
		return bad("there is no move of %s's to play in game %d now", sg.name(), sg.info.ID)
	}
	tok := strings.TrimSpace(r.URL.Query().Get("move"))
	if tok == "" {
		return bad("move: name the move whose board to draw (move=TOKEN)")
	}
	move, board, status, err := sg.after(st, tok)
	if err != nil {
		return bad("%s: %v", tok, err)
	}
	return writeJSON(w, afterJSON{Move: move, Status: status, Board: string(board)})
}

// writeJSON answers v as JSON, never stored: the moves change with the
// game.
func writeJSON(w http.ResponseWriter, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, err = w.Write(b)
	return err
}
