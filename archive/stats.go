package archive

import (
	"context"
	"database/sql"
	"fmt"
	"slices"

	"icepost/rules"
)

// SeatStats is how one kind of game (game and seat count) turned out.
type SeatStats struct {
	Game       string
	Seats      int
	Games      int
	Wins       []int // wins by seat, index 0 is seat 1
	Draws      int
	Undecided  int
	TotalPlies int
}

// AvgPlies is the average length in plies.
func (s SeatStats) AvgPlies() float64 {
	if s.Games == 0 {
		return 0
	}
	return float64(s.TotalPlies) / float64(s.Games)
}

// PlayerStats is one player's results.
type PlayerStats struct {
	Name                       string
	Games, Wins, Losses, Draws int
	// Analysis is the computer analysis of their moves in the analysed
	// games among those counted (archive analyze).
	Analysis AnalysisSummary
}

// Score is wins plus half the draws.
func (p PlayerStats) Score() float64 { return float64(p.Wins) + float64(p.Draws)/2 }

// Stats is the summary of the games a query selects.
type Stats struct {
	Kinds   []SeatStats
	Players []PlayerStats // most games first
}

// Stats counts results over the games q selects (Limit and Offset are
// ignored): how often each seat wins per game and seat count, the average
// length, and up to maxPlayers players' results.
func (a *Archive) Stats(ctx context.Context, q Query, maxPlayers int) (*Stats, error) {
	q.Limit, q.Offset = 0, 0
	b, err := a.where(ctx, q)
	if err != nil {
		return nil, err
	}
	rows, err := a.db.QueryContext(ctx, `SELECT g.game, g.seats, g.winner, count(*), sum(g.plies) FROM games g`+b.where()+
		` GROUP BY g.game, g.seats, g.winner ORDER BY g.game, g.seats`, b.args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	st := &Stats{}
	for rows.Next() {
		var game string
		var seats, n, plies int
		var winner sql.NullInt64
		if err := rows.Scan(&game, &seats, &winner, &n, &plies); err != nil {
			return nil, err
		}
		k := len(st.Kinds) - 1
		if k < 0 || st.Kinds[k].Game != game || st.Kinds[k].Seats != seats {
			st.Kinds = append(st.Kinds, SeatStats{Game: game, Seats: seats, Wins: make([]int, seats)})
			k++
		}
		ks := &st.Kinds[k]
		ks.Games += n
		ks.TotalPlies += plies
		switch {
		case !winner.Valid:
			ks.Undecided += n
		case winner.Int64 == 0:
			ks.Draws += n
		case int(winner.Int64) <= seats:
			ks.Wins[winner.Int64-1] += n
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if maxPlayers <= 0 {
		return st, nil
	}
	prows, err := a.db.QueryContext(ctx, `SELECT p.name, count(*), coalesce(sum(s.outcome = 2), 0), coalesce(sum(s.outcome = 0), 0), coalesce(sum(s.outcome = 1), 0),
		`+analysisCols+`
		FROM seats s JOIN players p ON p.id = s.player_id
		LEFT JOIN analysis_seats an ON an.game_id = s.game_id AND an.seat = s.seat
		WHERE s.game_id IN (SELECT g.id FROM games g`+b.where()+`)
		GROUP BY s.player_id ORDER BY count(*) DESC, p.name LIMIT ?`, append(b.args, maxPlayers)...)
	if err != nil {
		return nil, err
	}
	defer prows.Close()
	for prows.Next() {
		var p PlayerStats
		if p.Analysis, err = scanAnalysis(prows, &p.Name, &p.Games, &p.Wins, &p.Losses, &p.Draws); err != nil {
			return nil, err
		}
		st.Players = append(st.Players, p)
	}
	return st, prows.Err()
}

// NextMove is one move played from a position, with how it did for the
// seat that played it.
type NextMove struct {
	Move                               string
	Games, Wins, Draws, Losses, Undone int
}

// Score is the mover's points per decided game (a win 1, a draw 1/2).
func (m NextMove) Score() float64 {
	d := m.Wins + m.Draws + m.Losses
	if d == 0 {
		return 0
	}
	return (float64(m.Wins) + float64(m.Draws)/2) / float64(d)
}

// Explore lists every move played from pos in the games q selects, most
// played first: the opening explorer. It reads the position index alone
// (each entry holds the move played next and how the game went for the
// mover); filters other than the game narrow the games counted through
// one query for their ids.
func (a *Archive) Explore(ctx context.Context, q Query, pos rules.State) ([]NextMove, error) {
	q.Limit, q.Offset = 0, 0
	var allowed map[int64]bool
	if len(q.Tags) == 0 && q.Player == "" && q.Opponent == "" && q.Seat == 0 && q.Result == "" &&
		q.Since == "" && q.Until == "" && q.Event == "" && q.Plies == nil && q.Text == "" && q.Position == "" && q.Moves == "" &&
		q.Blunder == "" {
		// No filter, or the game alone: the position's hash names the game.
		c, err := check(q)
		if err != nil {
			return nil, err
		}
		if c.game != nil && c.game.Name() != pos.Game().Name() {
			return []NextMove{}, nil
		}
	} else {
		b, err := a.where(ctx, q)
		if err != nil {
			return nil, err
		}
		rows, err := a.db.QueryContext(ctx, `SELECT g.id FROM games g`+b.where(), b.args...)
		if err != nil {
			return nil, err
		}
		allowed = map[int64]bool{}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			allowed[id] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	byCode := map[uint32]*NextMove{}
	err := lookup(ctx, a.db, uint64(PositionHash(pos)), func(e entry) {
		if e.code>>2 == 0 {
			return // the game ended here
		}
		if allowed != nil && !allowed[e.game] {
			return
		}
		m := byCode[e.code>>2]
		if m == nil {
			m = &NextMove{}
			byCode[e.code>>2] = m
		}
		m.Games++
		switch e.code & 3 {
		case outcomeUndecided:
			m.Undone++
		case outcomeDraw:
			m.Draws++
		case outcomeWin:
			m.Wins++
		default:
			m.Losses++
		}
	})
	if err != nil {
		return nil, err
	}
	out := make([]NextMove, 0, len(byCode))
	tok := map[uint32]string{}
	if len(byCode) > 0 {
		ids := make([]int64, 0, len(byCode))
		for id := range byCode {
			ids = append(ids, int64(id))
		}
		rows, err := a.db.QueryContext(ctx, `SELECT id, token FROM move_tokens WHERE id IN (SELECT value FROM json_each(?))`, idList(ids))
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id uint32
			var t string
			if err := rows.Scan(&id, &t); err != nil {
				rows.Close()
				return nil, err
			}
			tok[id] = t
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	for id, m := range byCode {
		t, ok := tok[id]
		if !ok {
			return nil, fmt.Errorf("position index: move %d is not numbered", id)
		}
		m.Move = t
		out = append(out, *m)
	}
	slices.SortFunc(out, func(x, y NextMove) int {
		if x.Games != y.Games {
			return y.Games - x.Games
		}
		if x.Move < y.Move {
			return -1
		}
		return 1
	})
	return out, nil
}
