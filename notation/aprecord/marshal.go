package aprecord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"
	"time"

	"icepost/notation"
	"icepost/rules"
)

// The JSON Marshal writes, field by field in the order the site's own
// records have them.
type jsonRecord struct {
	Header jsonHeader `json:"header"`
	Moves  [][]any    `json:"moves"`
}

type jsonHeader struct {
	Game          jsonGame           `json:"game"`
	Event         *string            `json:"event,omitempty"`
	Round         *string            `json:"round,omitempty"`
	Site          jsonSite           `json:"site"`
	DateStart     string             `json:"date-start"`
	DateEnd       string             `json:"date-end"`
	DateGenerated string             `json:"date-generated"`
	Unrated       bool               `json:"unrated,omitempty"`
	Players       []jsonPlayer       `json:"players"`
	Icepost       map[string]*string `json:"icepost-tags,omitempty"`
}

type jsonGame struct {
	Name     string   `json:"name"`
	Variants []string `json:"variants,omitempty"`
}

type jsonSite struct {
	Name   string `json:"name"`
	GameID string `json:"gameid,omitempty"`
}

type jsonPlayer struct {
	Name   string `json:"name"`
	UserID string `json:"userid,omitempty"`
	IsAI   *bool  `json:"is_ai,omitempty"`
	Score  *int   `json:"score,omitempty"`
	Result int    `json:"result"`
}

type jsonMove struct {
	Move   string       `json:"move"`
	Result []jsonResult `json:"result,omitempty"`
}

type jsonResult struct {
	Type   string `json:"type"`
	Delta  *int   `json:"delta,omitempty"`
	Player *int   `json:"player,omitempty"`
}

// DefaultSite is the site a record that names none was played on.
const DefaultSite = "icepost"

// Marshal writes a finished game's record as an APGameRecord: JSON that
// the site's schema (gamerecord.json 1-0-0) takes and that the site's
// engine replays move by move. generated is the report's date-generated.
//
// Only what the site plays can be written: a game it has (rules.
// AbstractPlay), with a seat count and options it plays, from the usual
// start, finished by the rules, a resignation, a loss on time or an
// agreed draw. Comments, annotations and variations are left out (the
// format has no place for them); a player's mail address is never
// written. Tags the header has no field for go into its icepost-tags
// field, which the site ignores and the import reads back, so that a
// record read back is the record written.
func Marshal(rec *notation.Record, generated time.Time) ([]byte, error) {
	g, err := notation.Replay(rec)
	if err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) error {
		return &notation.Error{File: rec.File, Pos: rec.Pos, Err: kindErrorf(ErrExport, format, args...)}
	}
	a, ok := g.Rules.(rules.AbstractPlay)
	if !ok {
		return nil, fail("%s is not played on Abstract Play: an APGameRecord can hold %s", g.Rules.Name(), apNames())
	}
	ap := a.AbstractPlay()
	seats := g.Options.Seats
	if !slices.Contains(ap.Seats, seats) {
		return nil, fail("Abstract Play plays %s with %s; this game has %d seats", ap.Name, seatList(ap.Seats), seats)
	}
	if _, ok := rec.Tag("Setup"); ok {
		return nil, fail("the game starts from a Setup position: Abstract Play starts every game of %s from the usual start", ap.Name)
	}
	variant, ok := variantOf(ap, g.Options)
	if !ok {
		return nil, fail("Abstract Play plays %s as %s; this game's options (%s) are none of them", ap.Name, variantOptions(g.Rules, ap), optionText(g.Rules, g.Options))
	}
	winner, decided, err := notation.ParseResult(rec.Result, seats)
	if err != nil || !decided {
		return nil, fail("the game is not finished (%s): an APGameRecord holds finished games only", rec.Result)
	}
	final := g.Final()
	term, _ := rec.Tag("Termination")
	end := ""
	if !final.Outcome().Over {
		switch term {
		case "resignation":
			end = apResign
		case "time forfeit":
			end = apTimeout
		case "agreement":
			end = apDraw
		default:
			return nil, fail("the game ended by %q: Abstract Play's records end by the rules, a resignation, a loss on time or an agreed draw", term)
		}
	}

	// The header: what the record's tags say, then the results.
	h := header{site: DefaultSite}
	h.event, _ = rec.Tag("Event")
	h.round, _ = rec.Tag("Round")
	if s, ok := rec.Tag("Site"); ok {
		h.site = s
	}
	h.gameID, _ = rec.Tag(TagGameID)
	gen := generated.UTC().Format(apTimeLayout)
	h.dateStart, h.dateEnd = gen, gen
	if d, ok := rec.Tag("Date"); ok {
		if t, err := time.Parse(notation.DateLayout, d); err == nil {
			h.dateStart = t.Format(apTimeLayout)
			h.dateEnd = h.dateStart
		}
	}
	if d, ok := rec.Tag(TagDateStart); ok {
		if _, err := time.Parse(time.RFC3339, d); err == nil {
			h.dateStart = d
			h.dateEnd = d
		}
	}
	if d, ok := rec.Tag(TagDateEnd); ok {
		if _, err := time.Parse(time.RFC3339, d); err == nil {
			h.dateEnd = d
		}
	}
	if u, _ := rec.Tag(TagUnrated); u == "true" {
		h.unrated = true
	}
	names := rec.Players()
	for k := 1; k <= seats; k++ {
		name, _ := notation.SplitPlayer(names[k-1]) // never an address
		p := player{name: name}
		// The schema wants the players unlike each other: a name that
		// another seat has already (two "?") gets its seat, and the
		// record's own name goes in icepost-tags.
		for _, q := range h.players {
			if q.name == p.name {
				p.name = fmt.Sprintf("%s (seat %d)", name, k)
			}
		}
		p.userID, _ = rec.Tag(playerIDTag(k))
		if v, _ := rec.Tag(playerAITag(k)); v == "true" {
			p.ai = true
		}
		h.players = append(h.players, p)
	}

	out := jsonRecord{Header: jsonHeader{
		Game:          jsonGame{Name: ap.Name, Variants: []string{variant.Name}},
		Site:          jsonSite{Name: h.site, GameID: h.gameID},
		DateStart:     h.dateStart,
		DateEnd:       h.dateEnd,
		DateGenerated: gen,
		Unrated:       h.unrated,
	}}
	if h.event != "" || h.round != "" {
		// The schema asks for both or neither.
		out.Header.Event, out.Header.Round = &h.event, &h.round
	}
	scores := final.Scores()
	for k, p := range h.players {
		jp := jsonPlayer{Name: p.name, UserID: p.userID, Result: 0}
		if p.ai {
			jp.IsAI = &p.ai
		}
		if scores != nil {
			jp.Score = &scores[k]
		}
		if winner == 0 || winner == k+1 {
			jp.Result = 1 // as the site's engine gives every winner, and every player of a draw
		}
		out.Header.Players = append(out.Header.Players, jp)
	}
	out.Header.Icepost = carried(rec, &h)

	// The moves, a round of one move a seat at a time, in the site's
	// notation; a capture's points as its result.
	var flat []any
	for i, m := range g.Moves {
		s := g.States[i]
		tok := ap.FormatMove(s, m)
		before, after := s.Scores(), g.States[i+1].Scores()
		if mover := s.ToMove(); before != nil && mover > 0 {
			if d := after[mover-1] - before[mover-1]; d != 0 {
				flat = append(flat, jsonMove{Move: tok, Result: []jsonResult{{Type: "deltaScore", Delta: &d}}})
				continue
			}
		}
		flat = append(flat, tok)
	}
	switch end {
	case apResign, apTimeout:
		loser := 3 - winner // two seats: the site plays no game of more with these ends
		typ := "resigned"
		if end == apTimeout {
			typ = "timeout"
		}
		flat = append(flat, jsonMove{Move: end, Result: []jsonResult{{Type: typ, Player: &loser}}})
	case apDraw:
		flat = append(flat, jsonMove{Move: end, Result: []jsonResult{{Type: "drawagreed"}}})
	}
	out.Moves = [][]any{}
	for i := 0; i < len(flat); i += seats {
		out.Moves = append(out.Moves, flat[i:min(i+seats, len(flat))])
	}

	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// carried is the header's icepost-tags: the record's tags that the
// header as written does not give back (with their values), and the tags
// it gives that the record had not (null). Tags the replay sets and the
// seats' names are never in it.
func carried(rec *notation.Record, h *header) map[string]*string {
	derived := map[string]string{}
	for _, t := range h.tags() {
		if !gameTag(t.Name) {
			derived[t.Name] = t.Value
		}
	}
	out := map[string]*string{}
	have := map[string]bool{}
	for _, t := range rec.Tags {
		if gameTag(t.Name) {
			continue
		}
		if _, ok := seatOf(t.Name); ok {
			// A seat's name, without its address: the address is never
			// written, and so not carried either.
			have[t.Name] = true
			if name, _ := notation.SplitPlayer(t.Value); name != derived[t.Name] {
				out[t.Name] = &name
			}
			continue
		}
		have[t.Name] = true
		if v, ok := derived[t.Name]; !ok || v != t.Value {
			out[t.Name] = &t.Value
		}
	}
	for name := range derived {
		if !have[name] {
			out[name] = nil
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// variantOf finds the site's variant that plays with o's options.
func variantOf(ap rules.APGame, o rules.Options) (rules.APVariant, bool) {
	for _, v := range ap.Variants {
		want := v.Options
		want.Seats = o.Seats
		if want == o {
			return v, true
		}
	}
	return rules.APVariant{}, false
}

// variantOptions lists the site's variants with their options.
func variantOptions(g rules.Game, ap rules.APGame) string {
	var out []string
	for _, v := range ap.Variants {
		out = append(out, fmt.Sprintf("%q (%s)", v.Name, optionText(g, v.Options)))
	}
	return strings.Join(out, " or ")
}

func optionText(g rules.Game, o rules.Options) string {
	var out []string
	for _, t := range rules.OptionTags(g, o) {
		out = append(out, t[0]+" "+t[1])
	}
	if len(out) == 0 {
		return "the defaults"
	}
	return strings.Join(out, ", ")
}

// A Writer writes records that Marshal made as one JSON document: a
// single record as it is, several as an array, none as [].
type Writer struct {
	w     io.Writer
	first []byte
	n     int
	err   error
}

// NewWriter writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write adds one record (Marshal's output).
func (w *Writer) Write(rec []byte) error {
	if w.err != nil {
		return w.err
	}
	w.n++
	switch w.n {
	case 1:
		w.first = append([]byte(nil), rec...)
		return nil
	case 2:
		w.put([]byte("[\n"))
		w.item(w.first)
		w.first = nil
	}
	w.put([]byte(",\n"))
	w.item(rec)
	return w.err
}

// Close ends the document.
func (w *Writer) Close() error {
	switch w.n {
	case 0:
		w.put([]byte("[]\n"))
	case 1:
		w.put(w.first)
	default:
		w.put([]byte("\n]\n"))
	}
	return w.err
}

func (w *Writer) item(rec []byte) {
	var b bytes.Buffer
	b.WriteByte(' ')
	if err := json.Indent(&b, bytes.TrimRight(rec, "\n"), " ", " "); err != nil && w.err == nil {
		w.err = err
	}
	w.put(b.Bytes())
}

func (w *Writer) put(b []byte) {
	if w.err == nil {
		_, w.err = w.w.Write(b)
	}
}

// PageURL is the address of a game's page on Abstract Play, for a record
// whose Site is the site and whose GameId names the game there:
// https://play.abstractplay.com/move/pikemen/0/ID, the address the
// site's game pages give as their own (their og:url).
func PageURL(rec *notation.Record) (string, bool) {
	site, _ := rec.Tag("Site")
	id, ok := rec.Tag(TagGameID)
	name, _ := rec.Tag("Game")
	if !ok || id == "" || !strings.EqualFold(strings.TrimSpace(site), "Abstract Play") {
		return "", false
	}
	for _, g := range gamesWithAP() {
		if strings.EqualFold(g.Name(), name) {
			ap := g.(rules.AbstractPlay).AbstractPlay()
			return "https://play.abstractplay.com/move/" + ap.UID + "/0/" + url.PathEscape(id), true
		}
	}
	return "", false
}
