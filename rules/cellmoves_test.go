package rules_test

import (
	"testing"

	"icepost/rules"
	"icepost/rules/games"
)

// CellMoves names, for every game and board, the cells of each legal
// move as the diagram has them: a start and a landing cell the board
// draws, one cell for a move that stays (a placement, a turn), the same
// names from every side of the board.
func TestCellMoves(t *testing.T) {
	for _, tc := range []struct{ game, board string }{
		{"IceSickle", ""}, {"IceLady", ""}, {"Pikemen", ""}, {"IceFrogs", "star"}, {"IceFrogs", "hex"},
	} {
		t.Run(tc.game+tc.board, func(t *testing.T) {
			g, ok := games.Lookup(tc.game)
			if !ok {
				t.Fatalf("no game %s", tc.game)
			}
			var o rules.Options
			if tc.board != "" {
				if err := o.Set(rules.OptionBoard, tc.board); err != nil {
					t.Fatal(err)
				}
			}
			s, err := g.Start(o)
			if err != nil {
				t.Fatal(err)
			}
			// Play the first move each time, to see more than the start.
			for ply := 0; ply < 40 && s.ToMove() != 0; ply++ {
				moves, ok := rules.CellMoves(s)
				if !ok || len(moves) == 0 {
					t.Fatalf("ply %d: %d moves, drawable %v", ply, len(moves), ok)
				}
				names := map[string]bool{}
				for _, c := range s.(rules.Drawable).Diagram(s.ToMove()).Cells {
					names[c.Name] = true
				}
				legal := s.Moves(nil)
				for i, m := range moves {
					if m.Move != legal[i] || m.Token != s.FormatMove(legal[i]) {
						t.Fatalf("ply %d: move %d is %s, not the game's %s", ply, i, m.Token, s.FormatMove(legal[i]))
					}
					if len(m.Path) == 0 || m.From() == "" || m.To() == "" {
						t.Fatalf("ply %d: %s goes through no cell", ply, m.Token)
					}
					for _, c := range m.Path {
						if !names[c] {
							t.Fatalf("ply %d: %s goes through %q, which the diagram seen by seat %d has not", ply, m.Token, c, s.ToMove())
						}
					}
				}
				s, err = s.Play(legal[(ply*7)%len(legal)])
				if err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
