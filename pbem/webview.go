package pbem

import (
	"context"
	"fmt"
)

// What the web site reads of the daemon's games: the games in progress
// and a value that changes when any game does, so that a page can
// update when a move lands. Both only read, in a transaction that is
// never committed.

// ActiveGames lists the games in progress, newest first, as Games lists
// them.
func (s *Server) ActiveGames(ctx context.Context) ([]GameInfo, error) {
	var out []GameInfo
	err := s.read(ctx, func(h *handling) error {
		ids, err := column[int64](ctx, h.tx, `SELECT id FROM pbem_games WHERE status = ? ORDER BY id DESC`, statusActive)
		if err != nil {
			return err
		}
		for _, id := range ids {
			gi, err := h.gameInfo(id)
			if err != nil {
				return err
			}
			out = append(out, gi)
		}
		return nil
	})
	return out, err
}

// GamesRevision returns a value that changes whenever a game changes: a
// move, an undo, a new game, a game's end. It reads one row.
func (s *Server) GamesRevision(ctx context.Context) (string, error) {
	var n, updated, plies, active int64
	err := s.DB.QueryRowContext(ctx, `SELECT count(*), coalesce(max(updated_at), 0), coalesce(sum(ply), 0),
		coalesce(sum(status = ?), 0) FROM pbem_games`, statusActive).Scan(&n, &updated, &plies, &active)
	return fmt.Sprintf("%d.%d.%d.%d", n, updated, plies, active), err
}
