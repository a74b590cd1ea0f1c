package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"icepost/archive"
	"icepost/puzzle"
	"icepost/render"
	"icepost/rules"
	"icepost/rules/games"
)

// Puzzles from the archive's games (archive.FindPuzzles, which icepost
// archive puzzles runs): /puzzles lists them, /puzzle/ID is one to
// solve by clicking moves on the board, as on the play pages (the same
// markup, the same script, the same moves.json and after.json, here
// under /puzzle/ID/at/MOVES/). The server referees every move
// (archive.Answer: any move that still forces the win in the moves left
// is right, proved by package solve) and plays the defence; the page
// carries the player's moves so far, so nothing is kept of a player.
//
// The only writes are the counts of each puzzle's row (tried, solved),
// one row a puzzle, so that no client can make a table grow; a puzzle
// counts at most maxCountsAMinute tries a minute, so that one client
// cannot make a puzzle's rating what it likes. The exact search costs
// up to a few tenths of a second a move in Pikemen: at most solveSlots
// run at once, the others wait their turn (or the request's time), and
// each is bounded by webBudget positions; past it, the stored solution
// judges (Attempt.Unproved).

// webBudget is the positions one move's check may visit on the web (a
// sixth of the exact search's default: about 0.03 s in Pikemen).
const webBudget = 2_000_000

// solveSlots is how many checks run at once.
const solveSlots = 2

// maxCountsAMinute is the most tries a puzzle counts in a minute.
const maxCountsAMinute = 30

// perPuzzles is the puzzles a page of the list shows.
const perPuzzles = 50

// puzzleGate bounds the checks at once and the counts a minute, and
// keeps the last answers refereed: a click on the board asks for the
// same position again and again (moves.json, after.json).
type puzzleGate struct {
	once   sync.Once
	slots  chan struct{}
	mu     sync.Mutex
	minute int64
	counts map[int64]int             // tries counted this minute, by puzzle
	known  map[string]puzzle.Attempt // answers refereed, by puzzle and moves; at most maxKnown
}

// maxKnown is the most answers puzzleGate keeps; when full it starts
// again empty.
const maxKnown = 512

// knownKey is the key of an answer in puzzleGate.known.
func knownKey(id int64, mine []string) string {
	return strconv.FormatInt(id, 10) + "\x00" + strings.Join(mine, " ")
}

// recall returns an answer refereed before.
func (g *puzzleGate) recall(id int64, mine []string) (puzzle.Attempt, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	at, ok := g.known[knownKey(id, mine)]
	return at, ok
}

// keep remembers an answer refereed.
func (g *puzzleGate) keep(id int64, mine []string, at puzzle.Attempt) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.known == nil || len(g.known) >= maxKnown {
		g.known = map[string]puzzle.Attempt{}
	}
	g.known[knownKey(id, mine)] = at
}

func (g *puzzleGate) init() {
	g.once.Do(func() { g.slots = make(chan struct{}, solveSlots) })
}

// acquire waits for a slot, or for ctx.
func (g *puzzleGate) acquire(ctx context.Context) error {
	g.init()
	select {
	case g.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (g *puzzleGate) release() { <-g.slots }

// count reports whether a try at puzzle id may be counted now. The map
// holds the puzzles tried this minute: it is emptied every minute.
func (g *puzzleGate) count(id int64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if m := time.Now().Unix() / 60; m != g.minute || g.counts == nil {
		g.minute, g.counts = m, map[int64]int{}
	}
	if g.counts[id] >= maxCountsAMinute {
		return false
	}
	g.counts[id]++
	return true
}

// puzzleRow is one puzzle in the list.
type puzzleRow struct {
	ID                        int64
	Href, Game, Words, ToMove string
	From, FromHref            string
	Attempts, Solved          int
}

type puzzlesPage struct {
	Games      []string
	Game       string
	Moves      int
	Rows       []puzzleRow
	CountText  string
	Page       int
	Pages      int
	Prev, Next string
}

func (p puzzlesPage) description() string {
	return "Puzzles from real games: positions where a player missed a forced win in one to three moves, to solve on the board."
}

func (s *Site) puzzlesPage(w http.ResponseWriter, r *http.Request) error {
	p, err := readParams(r, "game", "moves", "page")
	if err != nil {
		return err
	}
	game := p.str("game")
	moves := p.num("moves", 0, 3, 0)
	page := p.num("page", 1, 1_000_000, 1)
	if err := p.err(); err != nil {
		return err
	}
	if game != "" {
		g, ok := games.Lookup(game)
		if !ok {
			return bad("game=%q: choose one of %s", clip(game), strings.Join(games.Names(), ", "))
		}
		game = g.Name()
	}
	q := archive.PuzzleQuery{Game: game, Moves: moves, Limit: perPuzzles, Offset: (page - 1) * perPuzzles}
	n, err := s.archive.CountPuzzles(r.Context(), q)
	if err != nil {
		return err
	}
	ps, err := s.archive.Puzzles(r.Context(), q)
	if err != nil {
		return err
	}
	pp := puzzlesPage{Games: games.Names(), Game: game, Moves: moves, Page: page, Pages: (n + perPuzzles - 1) / perPuzzles}
	pp.CountText = plural(n, "puzzle", "puzzles")
	for _, sp := range ps {
		pp.Rows = append(pp.Rows, puzzleRow{ID: sp.ID, Href: "/puzzle/" + strconv.FormatInt(sp.ID, 10), Game: sp.Game, Words: sp.Words(),
			ToMove: sp.Player(), From: fromWords(sp, false), FromHref: fromHref(sp), Attempts: sp.Attempts, Solved: sp.Solved})
	}
	at := func(pg int) string {
		v := url.Values{}
		if game != "" {
			v.Set("game", game)
		}
		if moves != 0 {
			v.Set("moves", strconv.Itoa(moves))
		}
		v.Set("page", strconv.Itoa(pg))
		return "/puzzles?" + v.Encode()
	}
	if page > 1 {
		pp.Prev = at(min(page-1, max(pp.Pages, 1)))
	}
	if page < pp.Pages {
		pp.Next = at(page + 1)
	}
	return s.ok(w, r, "puzzles", "Puzzles from real games", pp)
}

// fromWords names the game a puzzle comes from: "game 12, Club night,
// 2026.11.28, Ada – Bob"; without the event and date unless full (the
// list, on a phone).
func fromWords(sp *archive.StoredPuzzle, full bool) string {
	parts := []string{"game " + strconv.FormatInt(sp.GameID, 10)}
	var names []string
	for _, t := range sp.Tags {
		switch {
		case full && (t.Name == "Event" || t.Name == "Date"):
			parts = append(parts, t.Value)
		case strings.HasPrefix(t.Name, "Player"):
			names = append(names, t.Value)
		}
	}
	if len(names) > 0 {
		parts = append(parts, strings.Join(names, " – "))
	}
	return strings.Join(parts, ", ")
}

// fromHref is the game's page at the position of the puzzle.
func fromHref(sp *archive.StoredPuzzle) string {
	return fmt.Sprintf("/game/%d?ply=%d", sp.GameID, sp.Ply-1)
}

// puzzleView is the puzzle page.
type puzzleView struct {
	ID                  int64
	Title, Words        string
	Player              string
	From, FromHref      string
	Played              string // the move played in the game: said once the puzzle is over
	Message             string
	Solved, Wrong, Over bool
	Board               template.HTML
	Status              string
	Plies               []string // the moves so far
	Mine                string   // the player's moves so far, as the form carries them
	Action              string   // the page's address
	Base                string   // moves.json and after.json are under it
	Moves               []string // the player's legal moves, while the puzzle goes on
	Ply                 int      // the plies so far: the form's, as moves.json says it
	Try                 string   // the move whose board after is shown, to confirm
	Pick                string
	Attempts, SolvedN   int
	Solution            string // once solved
	Hidden              string // the solution, behind "give up"
	Record              string
}

func (v puzzleView) description() string { return v.Title + ", from a real game." }

// puzzleID reads the puzzle's number from the path.
func puzzleID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, &notFound{fmt.Sprintf("%q is not a puzzle's number", clip(r.PathValue("id")))}
	}
	return id, nil
}

// answer referees mine for puzzle id, one check at a time per slot.
func (s *Site) answer(ctx context.Context, id int64, mine []string, count bool) (*archive.StoredPuzzle, puzzle.Attempt, error) {
	if len(mine) > 3 {
		return nil, puzzle.Attempt{}, bad("a puzzle is solved in at most 3 moves; %d were sent", len(mine))
	}
	if count && !s.puzzles.count(id) {
		count = false
	}
	if !count {
		if at, ok := s.puzzles.recall(id, mine); ok {
			sp, err := s.archive.Puzzle(ctx, id)
			return sp, at, err
		}
	}
	if err := s.puzzles.acquire(ctx); err != nil {
		return nil, puzzle.Attempt{}, err
	}
	defer s.puzzles.release()
	sp, at, err := s.archive.Answer(ctx, id, mine, count, webBudget)
	if errors.Is(err, puzzle.ErrAnswer) {
		return sp, at, bad("%v: start the puzzle again from its page", err)
	}
	if err == nil {
		s.puzzles.keep(id, mine, at)
	}
	return sp, at, err
}

func (s *Site) puzzlePage(w http.ResponseWriter, r *http.Request) error {
	id, err := puzzleID(r)
	if err != nil {
		return err
	}
	var mine []string
	try, sent := "", ""
	if r.Method == http.MethodPost {
		if !sameOrigin(r) {
			return &forbidden{"a move is taken only from this site's own page"}
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxForm)
		if err := r.ParseForm(); err != nil {
			return bad("the form could not be read: %v", err)
		}
		mine = puzzle.ParseMoves(r.PostFormValue("mine"))
		sent = strings.TrimSpace(r.PostFormValue("move"))
		if sent == "" {
			sp, at, err := s.answer(r.Context(), id, mine, false)
			if err != nil {
				return err
			}
			return s.showPuzzle(w, r, sp, at, mine, "Nothing was sent: choose a move.", "")
		}
		mine = append(mine, sent)
	} else {
		p, err := readParams(r, "mine", "move")
		if err != nil {
			return err
		}
		mine = puzzle.ParseMoves(p.str("mine"))
		try = p.str("move")
		if err := p.err(); err != nil {
			return err
		}
		if try == "" && r.URL.Query().Has("move") {
			sp, at, err := s.answer(r.Context(), id, mine, false)
			if err != nil {
				return err
			}
			return s.showPuzzle(w, r, sp, at, mine, "Choose a move in the list first, then see the board after it.", "")
		}
	}
	sp, at, err := s.answer(r.Context(), id, mine, r.Method == http.MethodPost)
	if err != nil {
		return err
	}
	message := ""
	switch {
	case at.Wrong != "":
		mine = mine[:len(mine)-1]
		message = fmt.Sprintf("%s does not force the win: there is a defence. Try again.", at.Wrong)
	case at.Solved:
		message = "Solved: " + sp.Player() + " wins."
	case sent != "":
		message = fmt.Sprintf("%s is right. The defence: %s. Go on.", sent, at.Plies[len(at.Plies)-1])
	}
	return s.showPuzzle(w, r, sp, at, mine, message, try)
}

// showPuzzle renders the puzzle page for the attempt at.
func (s *Site) showPuzzle(w http.ResponseWriter, r *http.Request, sp *archive.StoredPuzzle, at puzzle.Attempt, mine []string, message, try string) error {
	base := "/puzzle/" + strconv.FormatInt(sp.ID, 10)
	v := puzzleView{ID: sp.ID, Title: fmt.Sprintf("Puzzle %d: %s", sp.ID, sp.Title()), Words: sp.Words(), Player: sp.Player(),
		From: fromWords(sp, true), FromHref: fromHref(sp), Message: message, Solved: at.Solved, Wrong: at.Wrong != "",
		Plies: at.Plies, Mine: strings.Join(mine, " "), Action: base, Ply: len(at.Plies),
		Attempts: sp.Attempts, SolvedN: sp.Solved, Record: base + "/record"}
	v.Base = base + "/at/" + atSegment(mine)
	names := puzzleNames(sp)
	st := at.Position
	v.Over = at.Solved || st.Outcome().Over
	if v.Over {
		v.Played = sp.Played
		v.Solution = strings.Join(sp.Solution, " ")
	}
	v.Hidden = strings.Join(sp.Solution, " ") + fmt.Sprintf(" (in the game, %s played %s)", sp.Player(), sp.Played)
	v.Board = boardHTML(st, at.Before, at.Last, names)
	v.Status = fmt.Sprintf("%s to move wins in %d: %s left.", sp.Player(), sp.In, plural(at.Left, "move", "moves"))
	if v.Over {
		v.Status = "Solved."
	}
	if !v.Over && st.ToMove() == sp.Seat {
		for _, m := range st.Moves(nil) {
			v.Moves = append(v.Moves, st.FormatMove(m))
		}
		slices.Sort(v.Moves)
		if try != "" {
			next, m, err := rules.Play(st, try)
			if err != nil {
				v.Message = fmt.Sprintf("%s: %v.", try, err)
			} else {
				v.Try = st.FormatMove(m)
				v.Board = boardHTML(next, st, m, names)
				v.Status = fmt.Sprintf("The board after %s, if you play it: nothing is played until you confirm.", v.Try)
			}
		}
		if v.Try == "" {
			v.Board = boardHTML(st, at.Before, at.Last, names, render.Cells())
			v.Pick = "Pick a piece on the board to see where it can go, then pick where; or choose from the list."
			if moves, _ := rules.CellMoves(st); slices.ContainsFunc(moves, func(m rules.CellMove) bool { return m.Placed }) {
				v.Pick = "Pick a cell on the board to see the moves from it (a piece, or where a piece comes on), then pick where it goes; or choose from the list."
			}
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	return s.ok(w, r, "puzzle", v.Title, v)
}

// puzzleNames are the players' names of the puzzle's game, by seat.
func puzzleNames(sp *archive.StoredPuzzle) []string {
	var names []string
	for _, t := range sp.Tags {
		if strings.HasPrefix(t.Name, "Player") {
			names = append(names, t.Value)
		}
	}
	return displayNames(names)
}

// atSegment is the player's moves as one segment of a path ("start" for
// none): moves.json and after.json answer for the position after them.
func atSegment(mine []string) string {
	if len(mine) == 0 {
		return "start"
	}
	return url.PathEscape(strings.Join(mine, ","))
}

// fromSegment reads atSegment's segment back.
func fromSegment(seg string) []string {
	if seg == "start" {
		return nil
	}
	return puzzle.ParseMoves(seg)
}

// puzzleAt is the position of a puzzle after the player's moves in the
// path (/puzzle/ID/at/MOVES/...), for moves.json and after.json.
func (s *Site) puzzleAt(r *http.Request) (*archive.StoredPuzzle, puzzle.Attempt, error) {
	id, err := puzzleID(r)
	if err != nil {
		return nil, puzzle.Attempt{}, err
	}
	mine := fromSegment(r.PathValue("mine"))
	sp, at, err := s.answer(r.Context(), id, mine, false)
	if err == nil && at.Wrong != "" {
		err = bad("%s does not force the win: start from the puzzle's page", at.Wrong)
	}
	return sp, at, err
}

func (s *Site) puzzleMoves(w http.ResponseWriter, r *http.Request) error {
	sp, at, err := s.puzzleAt(r)
	if err != nil {
		return err
	}
	st := at.Position
	out := movesJSON{Game: sp.Game, ID: sp.ID, Seat: sp.Seat, Ply: len(at.Plies), Groups: []cellGroup{}}
	if at.Solved || st.Outcome().Over || st.ToMove() != sp.Seat {
		out.Message = "The puzzle is solved."
	} else {
		out.ToMove = true
		out.Groups, out.Other = groupByCell(st, puzzleNames(sp))
	}
	return writeJSON(w, out)
}

func (s *Site) puzzleAfter(w http.ResponseWriter, r *http.Request) error {
	sp, at, err := s.puzzleAt(r)
	if err != nil {
		return err
	}
	st := at.Position
	if at.Solved || st.Outcome().Over || st.ToMove() != sp.Seat {
		return bad("the puzzle is solved: there is no move to play")
	}
	tok := strings.TrimSpace(r.URL.Query().Get("move"))
	if tok == "" {
		return bad("move: name the move whose board to draw (move=TOKEN)")
	}
	next, m, err := rules.Play(st, tok)
	if err != nil {
		return bad("%s: %v", clip(tok), err)
	}
	move := st.FormatMove(m)
	return writeJSON(w, afterJSON{Move: move, Board: string(boardHTML(next, st, m, puzzleNames(sp))),
		Status: fmt.Sprintf("The board after %s, if you play it: nothing is played until you confirm.", move)})
}

// puzzleRecord is the puzzle as a record, to download.
func (s *Site) puzzleRecord(w http.ResponseWriter, r *http.Request) error {
	id, err := puzzleID(r)
	if err != nil {
		return err
	}
	sp, err := s.archive.Puzzle(r.Context(), id)
	if err != nil {
		return err
	}
	rec, err := sp.Record()
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="puzzle-%d.txt"`, id))
	_, err = w.Write([]byte(rec.String()))
	return err
}
