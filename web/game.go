package web

import (
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"icepost/analysis"
	"icepost/archive"
	"icepost/notation"
	"icepost/notation/aprecord"
	"icepost/pbem/mailgames"
	"icepost/render"
	"icepost/rules"
)

// A game's page: its tags and players, the board at one ply with links
// (and the ← → keys) to step through the moves, the move list with its
// comments, annotations and variations, the position code, and the
// record to download. The same page shows a stored game (/game/ID) and a
// game by mail (/live/ID).

// gameView is what the game template shows.
type gameView struct {
	Title     string
	Base      string // the page's path without ?ply
	Record    string // the address of the record to download
	Live      bool   // a game by mail in progress
	MailInfo  *liveInfo
	Players   []playerView
	Tags      []notation.Tag
	Result    string
	Main      lineView
	Moves     template.HTML // Main, written out
	Ply       int
	Plies     int
	Board     template.HTML
	Status    string // whose turn, the last move, the scores
	Code      string
	Explore   string // the explorer at this position
	Reached   string // the search for games that reached it
	First     string
	Prev      string
	Next      string
	Last      string
	Text      string // the record, for the page's "record" section
	ArchiveID int64
	PlayForm  *playForm     // the play page's form, nil elsewhere
	Analysis  *analysisView // the computer analysis, nil without one
	ByMail    *byMail       // an archived game that was played by mail
	PlayedAt  *playedAt     // an archived game played on another site
	Line      *lineStep     // the engine's line on the board, nil for the game
	lineSteps int           // the moves of the engine's line at Ply, 0 for none
}

// playedAt is what the page of a game played on another site, and
// imported from its record, says of it: where it was played and a link
// to its page there (Abstract Play's, aprecord.PageURL).
type playedAt struct {
	Site string // "Abstract Play"
	ID   string // the game's id there (the GameId tag)
	Href string // its page there
}

// byMail is what the page of an archived game says of its life by mail:
// the page's title names it by its number by mail (gameTitle), and this
// line gives its number in the archive and its page by mail.
type byMail struct {
	ID   int64  // its number in the archive, the page's address
	Href string // its page by mail (/live/N), "" when the site has none
}

type playerView struct {
	Seat   int
	Name   string
	Link   string // the player's page, "" for an unknown name
	Winner bool
	ToMove bool
	Score  string
}

// lineView is a line of play: the main line or a variation.
type lineView struct {
	Moves    []moveView
	Comments []string
}

type moveView struct {
	Number     string // "12." before the move, "" when the record writes none
	Token      string
	NAGs       string
	Before     []string
	After      []string
	Ply        int    // on the main line: the ply this move makes; 0 in a variation
	Href       string // on the main line: the page at that ply
	Current    bool
	Variations []lineView
	Mark       analysis.Mark // the analysis's mark, on the main line
}

// nagText is how the six common annotations look; the others stay $n.
var nagText = map[int]string{1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}

func nags(ns []int) string {
	var b strings.Builder
	for _, n := range ns {
		if t, ok := nagText[n]; ok {
			b.WriteString(t)
		} else {
			fmt.Fprintf(&b, " $%d", n)
		}
	}
	return b.String()
}

// replay parses and replays a stored record.
func replay(text []byte) (*notation.Game, error) {
	recs, errs := notation.Parse("", text)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	if len(recs) != 1 {
		return nil, fmt.Errorf("%d records where one was expected", len(recs))
	}
	return notation.Replay(recs[0])
}

// newGameView builds the page of g at ply; base is the page's path.
func newGameView(g *notation.Game, base string, ply int) gameView {
	return newGameViewLine(g, base, ply, 0)
}

// newGameViewLine builds the page of g at ply, with line moves of the
// engine's line instead of move ply on the board when line > 0 and the
// analysis has a line there (v.Line says which; nil when none).
func newGameViewLine(g *notation.Game, base string, ply, line int) gameView {
	rec := g.Record
	plies := len(g.Moves)
	if ply < 0 || ply > plies {
		ply = plies
	}
	at := func(n int) string {
		if n == plies {
			return base
		}
		return base + "?ply=" + strconv.Itoa(n)
	}
	v := gameView{Base: base, Ply: ply, Plies: plies, Result: rec.Result}
	names := rec.Players()
	winner := g.Winner()
	s := g.States[ply]
	scores := s.Scores()
	// At the end of a game that is over, no one is to move, whatever the
	// position would say (a resignation, a draw agreed).
	over := ply == plies && g.Over()
	for i, n := range names {
		name, _ := notation.SplitPlayer(n)
		pv := playerView{Seat: i + 1, Name: name, Winner: g.Over() && winner == i+1, ToMove: !over && s.ToMove() == i+1}
		if name != "" && name != "?" {
			pv.Link = "/player/" + url.PathEscape(name)
		} else {
			pv.Name = "?"
		}
		if scores != nil && i < len(scores) {
			pv.Score = strconv.Itoa(scores[i])
		}
		v.Players = append(v.Players, pv)
	}
	for _, t := range rec.Tags {
		if _, ok := seatTag(t.Name); ok {
			t.Value, _ = notation.SplitPlayer(t.Value)
		}
		v.Tags = append(v.Tags, t)
	}
	// An analysed record: the list shows the players' own comments,
	// marks and variations, and the analysis's marks apart.
	rep := readAnalysis(rec)
	own := rec.Main
	var el *engineLine // the engine's line instead of move ply
	if rep != nil {
		if l, ok := ownMain(rec); ok {
			own = l
			if el = readLine(g, ply); el != nil {
				betterFromLine(&rep.Moves[ply-1], el)
			}
		} else {
			rep = nil
		}
	}
	v.Main = mainLine(own, at, ply)
	if rep != nil {
		for i := range v.Main.Moves {
			v.Main.Moves[i].Mark = rep.Moves[i].Mark
		}
		v.Analysis = newAnalysisView(g, rep, ply, at, displayNames(names))
		if el != nil && v.Analysis.Move != nil {
			v.Analysis.Move.Line = el.lineMoves(ply, func(k int) string { return lineAt(base, ply, k) }, 0)
			v.Analysis.Move.LineStart = lineAt(base, ply, 1)
		}
	}
	var mb strings.Builder
	v.Main.write(&mb)
	v.Moves = template.HTML(mb.String())
	var prev rules.State
	var last rules.Move
	if ply > 0 {
		prev, last = g.States[ply-1], g.Moves[ply-1]
	}
	var extra []render.Option
	if o := betterArrow(g, rep, ply); o != nil {
		extra = append(extra, o)
		v.Analysis.Move.Arrow = true
	}
	if o := ended(g, ply); o != nil {
		extra = append(extra, o)
	}
	v.Board = boardHTML(s, prev, last, displayNames(names), extra...)
	v.Status = status(g, ply, displayNames(names))
	v.Code = s.Code()
	v.Explore = "/position?code=" + url.QueryEscape(v.Code)
	v.Reached = "/search?position=" + url.QueryEscape(v.Code)
	if ply > 0 {
		v.First, v.Prev = at(0), at(ply-1)
	}
	if ply < plies {
		v.Next, v.Last = at(ply+1), at(plies)
	}
	v.Text = publicRecord([]byte(rec.String()))
	if el != nil {
		v.lineSteps = len(el.moves)
	}
	if line > 0 && el != nil && line <= len(el.moves) {
		v.showLine(g, el, ply, line, displayNames(names))
	}
	return v
}

func displayNames(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		n, _ = notation.SplitPlayer(n)
		if n == "" || n == "?" {
			n = "seat " + strconv.Itoa(i+1)
		}
		out[i] = n
	}
	return out
}

// status says what the board shows in words.
func status(g *notation.Game, ply int, names []string) string {
	s := g.States[ply]
	var parts []string
	if ply == 0 {
		parts = append(parts, "Start")
	} else {
		seat := g.States[ply-1].ToMove()
		who := "seat " + strconv.Itoa(seat)
		if seat >= 1 && seat <= len(names) {
			who = names[seat-1]
		}
		parts = append(parts, fmt.Sprintf("Ply %d of %d: %s played %s", ply, len(g.Moves), who, g.Token(ply)))
	}
	if sc := s.Scores(); sc != nil {
		var b []string
		for i, n := range sc {
			b = append(b, fmt.Sprintf("%s %d", nameAt(names, i+1), n))
		}
		parts = append(parts, "score "+strings.Join(b, ", "))
	}
	switch {
	case s.ToMove() > 0 && !(ply == len(g.Moves) && g.Over()):
		parts = append(parts, nameAt(names, s.ToMove())+" to move")
	case ply == len(g.Moves):
		parts = append(parts, "game over: "+resultWords(g, names))
	}
	return strings.Join(parts, " · ")
}

// ended tells the board at ply that the game ended there off the board
// (a resignation, a draw agreed, a loss on time): the picture then says
// how, as the status does, and not whose move it would be. Nil when the
// game goes on, at an earlier ply, or when the rules ended it (the
// position says so itself).
func ended(g *notation.Game, ply int) render.Option {
	if ply != len(g.Moves) || !g.Over() || g.States[ply].Outcome().Over {
		return nil
	}
	how, _ := g.Record.Tag("Termination")
	if how == "normal" {
		how = ""
	}
	return render.Ended(g.Winner(), how)
}

func nameAt(names []string, seat int) string {
	if seat >= 1 && seat <= len(names) {
		return names[seat-1]
	}
	return "seat " + strconv.Itoa(seat)
}

func resultWords(g *notation.Game, names []string) string {
	res := g.Record.Result
	if res == "*" {
		return "no result"
	}
	w := g.Winner()
	how := ""
	if t, ok := g.Record.Tag("Termination"); ok && t != "normal" {
		how = " (" + t + ")"
	}
	if w == 0 {
		return "a draw" + how
	}
	return nameAt(names, w) + " wins" + how
}

func mainLine(l notation.Line, at func(int) string, cur int) lineView {
	lv := lineView{Comments: l.Comments}
	last := 0
	for i, m := range l.Moves {
		mv := moveItem(m, &last)
		mv.Ply, mv.Href, mv.Current = i+1, at(i+1), i+1 == cur
		lv.Moves = append(lv.Moves, mv)
	}
	return lv
}

// moveItem is one move as the list shows it. A number the record writes
// again after a comment (the same round going on) is shown as "12…".
func moveItem(m *notation.Move, last *int) moveView {
	mv := moveView{Token: m.Token, NAGs: nags(m.NAGs), Before: m.Before, After: m.After}
	if m.Number > 0 {
		mv.Number = strconv.Itoa(m.Number) + "."
		if m.Number == *last {
			mv.Number = strconv.Itoa(m.Number) + "…"
		}
		*last = m.Number
	}
	for _, v := range m.Variations {
		mv.Variations = append(mv.Variations, variation(v))
	}
	return mv
}

func variation(l *notation.Line) lineView {
	lv := lineView{Comments: l.Comments}
	last := 0
	for _, m := range l.Moves {
		lv.Moves = append(lv.Moves, moveItem(m, &last))
	}
	return lv
}

// write writes the line as the move list shows it: each main-line move
// a link to its ply (data-ply for the script), the current one marked,
// comments, annotations and variations in brackets. It is written here
// rather than by a template because a long game's list is most of its
// page's work: this is several times faster than a recursive template.
func (l lineView) write(b *strings.Builder) {
	esc := template.HTMLEscapeString
	comment := func(c string) {
		b.WriteString(` <span class="comment">`)
		b.WriteString(esc(c))
		b.WriteString(`</span>`)
	}
	for _, m := range l.Moves {
		for _, c := range m.Before {
			comment(c)
		}
		if m.Number != "" {
			// A no-break space: the number stays with its move.
			b.WriteString(` <span class="num">` + esc(m.Number) + "</span>\u00a0")
		} else {
			b.WriteString(" ")
		}
		if m.Href != "" {
			b.WriteString(`<a class="mv`)
			if m.Current {
				b.WriteString(` cur`)
			}
			b.WriteString(`" href="` + esc(m.Href) + `" data-ply="` + strconv.Itoa(m.Ply) + `"`)
			if m.Current {
				b.WriteString(` aria-current="step"`)
			}
			b.WriteString(`>` + esc(m.Token) + `</a>`)
		} else {
			b.WriteString(`<span class="mv">` + esc(m.Token) + `</span>`)
		}
		if m.NAGs != "" {
			b.WriteString(`<span class="nag">` + esc(m.NAGs) + `</span>`)
		}
		if m.Mark != analysis.Good {
			// The engine's mark, apart from the record's own NAGs: its
			// symbol for the eye, its name for screen readers and on hover.
			name := m.Mark.String()
			b.WriteString(`<span class="mark ` + name + `" title="` + name + `"><span aria-hidden="true">` +
				esc(m.Mark.Symbol()) + `</span><span class="sr-only"> ` + name + `</span></span>`)
		}
		for _, c := range m.After {
			comment(c)
		}
		for _, v := range m.Variations {
			b.WriteString(` <span class="var">(`)
			v.write(b)
			b.WriteString(` )</span>`)
		}
	}
	for _, c := range l.Comments {
		comment(c)
	}
}

// seatTag reports whether a tag names a seat's player (Player1..).
func seatTag(name string) (int, bool) {
	n, ok := strings.CutPrefix(name, "Player")
	if !ok {
		return 0, false
	}
	k, err := strconv.Atoi(n)
	return k, err == nil && k >= 1
}

// publicRecord is a canonical record without the players' mail
// addresses: the site never shows an address, in a page or a download.
// Only the tag lines at the top are read (a comment may hold anything).
func publicRecord(text []byte) string {
	lines := strings.SplitAfter(string(text), "\n")
	for i, l := range lines {
		if !strings.HasPrefix(l, "[") {
			break
		}
		if !strings.HasPrefix(l, "[Player") {
			continue
		}
		body := strings.TrimRight(l, "\n")
		if !strings.HasSuffix(body, `>"]`) {
			continue
		}
		j := strings.LastIndex(body, " <")
		if j < 0 || !strings.Contains(body[j:], "@") {
			continue
		}
		lines[i] = body[:j] + `"]` + l[len(body):]
	}
	return strings.Join(lines, "")
}

// plyParam reads ?ply=N for a game of plies plies; absent: the end.
func plyParam(r *http.Request) (int, error) {
	p, err := readParams(r, "ply")
	if err != nil {
		return 0, err
	}
	ply := p.num("ply", 0, 100000, -1)
	return ply, p.err()
}

func gameID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, &notFound{fmt.Sprintf("%q is not a game's number", clip(r.PathValue("id")))}
	}
	return id, nil
}

func (s *Site) game(w http.ResponseWriter, r *http.Request) error {
	id, err := gameID(r)
	if err != nil {
		return err
	}
	ply, err := plyParam(r)
	if err != nil {
		return err
	}
	line, err := lineParam(r)
	if err != nil {
		return err
	}
	st, err := s.archive.Get(r.Context(), id)
	if err != nil {
		return err
	}
	g, err := replay(st.Record)
	if err != nil {
		return fmt.Errorf("game %d: %w", id, err)
	}
	if ply > len(g.Moves) {
		return bad("ply=%d: game %d has %d plies", ply, id, len(g.Moves))
	}
	v := newGameViewLine(g, "/game/"+strconv.FormatInt(id, 10), ply, line)
	if err := v.checkLine(ply, line); err != nil {
		return err
	}
	v.Title = gameTitle(st.Summary)
	if n := mailNumber(st.Summary); n > 0 {
		v.ByMail = &byMail{ID: id}
		// Its page by mail, where the site shows that daemon's games and
		// the game there is this one, over.
		if s.mail != nil {
			if gi, err := s.mail.Game(r.Context(), n); err == nil && gi.Game == st.Game && gi.Status == mailgames.Finished {
				v.ByMail.Href = "/live/" + strconv.FormatInt(n, 10)
			}
		}
	}
	if href, ok := aprecord.PageURL(g.Record); ok {
		site, _ := g.Record.Tag("Site")
		gid, _ := g.Record.Tag(aprecord.TagGameID)
		v.PlayedAt = &playedAt{Site: site, ID: gid, Href: href}
	}
	v.Record = v.Base + "/record"
	v.ArchiveID = id
	return s.ok(w, r, "game", v.Title, v)
}

// gameTitle names an archived game: "IceSickle #12: Ada – Bob, Spring
// Open"; one the mail daemon archived by its number by mail, as its
// mails did: "IceSickle #3 by mail: ada – bob".
func gameTitle(s archive.Summary) string {
	if n := mailNumber(s); n > 0 {
		return mailName(s.Game, n) + ": " + strings.Join(s.Players, " – ")
	}
	t := fmt.Sprintf("%s #%d: %s", s.Game, s.ID, strings.Join(s.Players, " – "))
	if s.Event != "" && s.Event != "?" {
		t += ", " + s.Event
	}
	return t
}

// gameRecord sends a stored game's record, without mail addresses.
func (s *Site) gameRecord(w http.ResponseWriter, r *http.Request) error {
	id, err := gameID(r)
	if err != nil {
		return err
	}
	p, err := readParams(r)
	if err != nil {
		return err
	}
	if err := p.err(); err != nil {
		return err
	}
	st, err := s.archive.Get(r.Context(), id)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="icepost-%d.rec"`, id))
	_, err = w.Write([]byte(publicRecord(st.Record)))
	return err
}

func (v gameView) description() string {
	d := v.Title + ": " + strconv.Itoa(v.Plies) + " plies, " + v.Result + ". Step through the moves on the board, with the comments and the record."
	if v.MailInfo != nil {
		d = v.Title + ", a game by mail " + v.MailInfo.Status + ": the board, the moves and the time left."
	}
	return d
}
