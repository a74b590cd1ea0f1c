package web

import (
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"icepost/archive"
	"icepost/rules"
	"icepost/rules/games"
)

// The positions page: a position (a code, or a game's start and the
// moves played from it), the explorer's table of every move played from
// it in the archive with how often and how it went, each move a link one
// step down the tree, and the games that reached it.

type explorerRow struct {
	archive.NextMove
	Href  string
	Score string
}

type crumb struct {
	Label, Href string
}

type positionPage struct {
	Games     []string
	Game      string
	Code      string
	ToMove    int
	Pic       template.HTML
	Moves     []explorerRow
	Total     int // games that went on from here
	Trail     []crumb
	Reached   []gameRow
	Count     int
	CountText string
	All       string // the search for every game that reached it
}

// perPosition is how many of the games that reached a position the page
// lists.
const perPosition = 20

func (s *Site) position(w http.ResponseWriter, r *http.Request) error {
	p, err := readParams(r, "code", "game", "seats", "board", "target", "moves")
	if err != nil {
		return err
	}
	code := p.str("code")
	gameName := p.str("game")
	seats := p.num("seats", 1, 4, 0)
	board := p.str("board")
	target := p.num("target", 0, 1000, 0)
	moves := strings.Fields(p.str("moves"))
	if err := p.err(); err != nil {
		return err
	}
	pp := positionPage{Games: games.Names()}
	var pos rules.State
	var next func(tok string) string
	switch {
	case code != "":
		if gameName != "" || len(moves) > 0 {
			return bad("give either code (a position) or game and moves, not both")
		}
		pos, err = archive.ParsePosition(code)
		if err != nil {
			return err
		}
		next = func(tok string) string {
			m, err := pos.ParseMove(tok)
			if err != nil {
				return ""
			}
			n, err := pos.Play(m)
			if err != nil {
				return ""
			}
			return "/position?code=" + url.QueryEscape(n.Code())
		}
		pp.Trail = []crumb{{"this position", ""}}
	case gameName != "":
		g, ok := games.Lookup(gameName)
		if !ok {
			return bad("game=%q: the games are %s", clip(gameName), strings.Join(games.Names(), ", "))
		}
		opts := rules.Options{Seats: seats, Board: board, Target: target}
		pos, err = g.Start(opts)
		if err != nil {
			return bad("%v", err)
		}
		o := pos.Options()
		base := url.Values{"game": {g.Name()}}
		if seats != 0 {
			base.Set("seats", strconv.Itoa(o.Seats))
		}
		if board != "" {
			base.Set("board", o.Board)
		}
		if target != 0 {
			base.Set("target", strconv.Itoa(o.Target))
		}
		link := func(toks []string) string {
			v := url.Values{}
			for k, vs := range base {
				v[k] = vs
			}
			if len(toks) > 0 {
				v.Set("moves", strings.Join(toks, " "))
			}
			return "/position?" + v.Encode()
		}
		pp.Trail = append(pp.Trail, crumb{"start", link(nil)})
		if len(moves) > 200 {
			return bad("moves: at most 200")
		}
		var canon []string
		for i, tok := range moves {
			m, err := pos.ParseMove(tok)
			if err != nil {
				return bad("moves: move %d (%s): %v", i+1, clip(tok), err)
			}
			canon = append(canon, pos.FormatMove(m))
			if pos, err = pos.Play(m); err != nil {
				return bad("moves: move %d: %v", i+1, err)
			}
			pp.Trail = append(pp.Trail, crumb{canon[i], link(canon)})
		}
		pp.Trail[len(pp.Trail)-1].Href = ""
		next = func(tok string) string { return link(append(canon[:len(canon):len(canon)], tok)) }
	default:
		return s.ok(w, r, "position", "Positions", pp)
	}
	pp.Code = pos.Code()
	pp.Game = pos.Game().Name()
	pp.ToMove = pos.ToMove()
	pp.Pic = boardHTML(pos, nil, rules.Move{}, nil)
	ctx := r.Context()
	nm, err := s.archive.Explore(ctx, archive.Query{}, pos)
	if err != nil {
		return err
	}
	for _, m := range nm {
		pp.Moves = append(pp.Moves, explorerRow{NextMove: m, Href: next(m.Move), Score: strconv.FormatFloat(100*m.Score(), 'f', 0, 64) + "%"})
		pp.Total += m.Games
	}
	q := archive.Query{Position: pp.Code, Limit: perPosition}
	pp.Count, err = s.archive.Count(ctx, archive.Query{Position: pp.Code})
	if err != nil {
		return err
	}
	pp.CountText = plural(pp.Count, "game", "games")
	rows, err := s.archive.SearchOrdered(ctx, q, archive.DateNewest)
	if err != nil {
		return err
	}
	pp.Reached = gameRows(rows)
	pp.All = "/search?position=" + url.QueryEscape(pp.Code)
	return s.ok(w, r, "position", "Position: "+pp.Game, pp)
}

func (p positionPage) description() string {
	if p.Code == "" {
		return "The opening explorer: every move played from a position in the archive, how often and how it went."
	}
	return "A position of " + p.Game + ": every move played from it in the archive, how often and how it went, and the games that reached it."
}
