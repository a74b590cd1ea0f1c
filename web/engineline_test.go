package web

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"icepost/rules"
)

// lineKind is the analysed game of pikemenKind with an engine's line of
// four moves at its mistake, as the analysis writes the engine's
// principal variation.
var lineKind = func() gameKind {
	k := pikemenKind
	k.name, k.line = "pikemen-line", 4
	return k
}()

// The engine's line of several moves on the page: named under the board
// at the mistake, each move a link to the board after it; ?line=K shows
// that board (the line's position, its K-th move as the last move, the
// next as the green arrow), with step links through the line and back
// to the game; the move list never shows the line. A line that is not
// there is refused with a 400 that says why.
func TestGameEngineLine(t *testing.T) {
	ts, _, a := newTestSite(t, 1, nil)
	ag := addGame(t, a, lineKind, true)
	base := fmt.Sprintf("/game/%d", ag.ID)
	const green = `="#5aa00a"` // an arrow's fill, a ring's stroke
	m := ag.Report.Moves[ag.Mistake-1]
	// The line's positions, replayed here.
	states := []rules.State{ag.Game.States[ag.Mistake-1]}
	var tokens []string
	s := states[0]
	for i := range 4 {
		var mv rules.Move
		if i == 0 {
			var err error
			if s, mv, err = rules.Play(s, m.Better); err != nil {
				t.Fatal(err)
			}
			tokens = append(tokens, states[0].FormatMove(mv))
		} else {
			mv = s.Moves(nil)[0]
			tokens = append(tokens, s.FormatMove(mv))
			s, _ = s.Play(mv)
		}
		states = append(states, s)
	}

	p := page(t, ts.URL, fmt.Sprintf("%s?ply=%d", base, ag.Mistake))
	note := section(t, p, "analysis", "div")
	if !strings.Contains(note, "Better: "+m.Better+" (0.47)") {
		t.Errorf("the note lacks the better move: %s", note)
	}
	for i, tok := range tokens {
		// Numbered as the move list numbers them: the mistake is the
		// first seat's move 19, the line's second move the second's.
		num := fmt.Sprintf("%d.", (ag.Mistake+i+1)/2)
		if (ag.Mistake+i)%2 == 0 {
			num = fmt.Sprintf("%d…", (ag.Mistake+i)/2)
		}
		want := fmt.Sprintf(`<span class="num">%s</span>&nbsp;<a class="line-mv" href="%s?ply=%d&amp;line=%d" data-line="%d">%s</a>`, num, base, ag.Mistake, i+1, i+1, tok)
		if !strings.Contains(note, want) {
			t.Errorf("the note lacks the line's move %d: %s\nin %s", i+1, want, note)
		}
	}
	if want := fmt.Sprintf(`<a class="line-go" href="%s?ply=%d&amp;line=1">Step through it on the board ›</a>`, base, ag.Mistake); !strings.Contains(note, want) {
		t.Errorf("no link to step through the line: %s", note)
	}
	if moves := section(t, p, `<p class="moves">`, "p"); strings.Contains(moves, `class="var"`) {
		t.Errorf("the move list shows a variation: %s", moves)
	}
	for k := 1; k <= 4; k++ {
		t.Run(fmt.Sprintf("line-%d", k), func(t *testing.T) {
			p := page(t, ts.URL, fmt.Sprintf("%s?ply=%d&line=%d", base, ag.Mistake, k))
			play := section(t, p, "play", "section")
			if !strings.Contains(play, fmt.Sprintf(`data-ply="%d" data-plies="%d" data-line="%d"`, ag.Mistake, ag.Plies, k)) {
				t.Errorf("the board's section does not say its place: %.200s", play)
			}
			if code := section(t, p, `<code id="code">`, "code"); !strings.HasSuffix(code, ">"+htmlText(states[k].Code())) {
				t.Errorf("the position code %s, want the line's after %d moves, %s", code, k, states[k].Code())
			}
			status := section(t, p, "status", "p")
			if want := fmt.Sprintf("The engine&#39;s line instead of %d. %s, %d of 4: ", (ag.Mistake+1)/2, htmlText(ag.Game.Token(ag.Mistake)), k); !strings.Contains(status, want) || !strings.Contains(status, "plays "+htmlText(tokens[k-1])) {
				t.Errorf("the status: %s", status)
			}
			board := section(t, p, "play", "svg")
			if got := strings.Contains(board, green); got != (k < 4) {
				t.Errorf("the line's next move drawn on the board: %v, want %v", got, k < 4)
			}
			nav := section(t, p, `<nav class="step line"`, "nav")
			game := fmt.Sprintf("%s?ply=%d", base, ag.Mistake)
			prev := game
			if k > 1 {
				prev = fmt.Sprintf("%s&amp;line=%d", game, k-1)
			}
			for _, want := range []string{
				`<a href="` + game + `" rel="first"`,
				`<a href="` + prev + `" rel="prev"`,
				fmt.Sprintf(`line </span>%d / 4</span>`, k),
			} {
				if !strings.Contains(nav, want) {
					t.Errorf("the step links lack %s: %s", want, nav)
				}
			}
			if next := fmt.Sprintf(`<a href="%s&amp;line=%d" rel="next"`, game, k+1); strings.Contains(nav, next) != (k < 4) {
				t.Errorf("the step links at %d of 4: %s", k, nav)
			}
			note := section(t, p, "analysis", "div")
			if !strings.Contains(note, fmt.Sprintf(`data-line="%d" aria-current="step"`, k)) || strings.Count(note, "aria-current") != 1 {
				t.Errorf("the note does not mark move %d of the line: %s", k, note)
			}
			if !strings.Contains(note, `<a class="line-back" href="`+game+`">Back to the game, move`) {
				t.Errorf("no way back to the game: %s", note)
			}
			// The graph stays at the mistake.
			if graph := section(t, p, "moves", "svg"); !strings.Contains(graph, fmt.Sprintf(`aria-label="%s, mistake, %s" aria-current="step"`, ag.graphName(ag.Mistake), prob(m.After))) ||
				strings.Count(graph, `aria-current="step"`) != 1 {
				t.Error("the graph lost its current move")
			}
		})
	}
	for _, c := range []struct{ query, want string }{
		{fmt.Sprintf("?ply=%d&line=5", ag.Mistake), "has 4 moves"},
		{fmt.Sprintf("?ply=%d&line=1", ag.Mistake+1), "has no engine"},
		{fmt.Sprintf("?ply=%d&line=x", ag.Mistake), "give a whole number"},
		{"?line=1", "has no engine"},
	} {
		code, body, _ := get(t, ts.URL, base+c.query)
		if code != http.StatusBadRequest || !strings.Contains(body, c.want) {
			t.Errorf("%s: %d, want 400 saying %q\n%.300s", c.query, code, c.want, body)
		}
	}
}

// A one-move line, as the analysis wrote before it wrote the engine's
// principal variation: "See it on the board", and the board after it
// with no next move.
func TestGameEngineLineOfOne(t *testing.T) {
	ts, _, a := newTestSite(t, 1, nil)
	ag := addAnalysedGame(t, a)
	base := fmt.Sprintf("/game/%d", ag.ID)
	p := page(t, ts.URL, fmt.Sprintf("%s?ply=%d", base, ag.Mistake))
	if note := section(t, p, "analysis", "div"); !strings.Contains(note, "See it on the board ›") || strings.Count(note, `class="line-mv"`) != 1 {
		t.Errorf("the note of a one-move line: %s", note)
	}
	p = page(t, ts.URL, fmt.Sprintf("%s?ply=%d&line=1", base, ag.Mistake))
	if nav := section(t, p, `<nav class="step line"`, "nav"); strings.Contains(nav, `" rel="next"`) || !strings.Contains(nav, "1 / 1") {
		t.Errorf("the step links of a one-move line: %s", nav)
	}
	if strings.Contains(section(t, p, "play", "svg"), `="#5aa00a"`) {
		t.Error("a green arrow after the line's only move")
	}
}

// htmlText is s as html/template writes it in text.
func htmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "+", "&#43;").Replace(s)
}
