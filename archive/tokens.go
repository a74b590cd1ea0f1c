package archive

import (
	"context"
	"fmt"
	"sync"
)

// tokenCache holds move tokens by number (move_tokens), for reading
// format 2 records. Numbers never change and are never reused, so a
// token once read stays right for the life of the process.
type tokenCache struct {
	mu sync.Mutex
	m  map[uint32]string
}

// tokens returns a function that gives the tokens of move numbers,
// reading the ones not yet known from the database (safe for concurrent
// use).
func (a *Archive) tokens(ctx context.Context) func(ids []uint32) ([]string, error) {
	return tokensFrom(ctx, a.db, &a.toks)
}

// tokensFrom is tokens reading through q (a transaction) into c.
func tokensFrom(ctx context.Context, q dbtx, c *tokenCache) func(ids []uint32) ([]string, error) {
	return func(ids []uint32) ([]string, error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.m == nil {
			c.m = map[uint32]string{}
		}
		var missing []int64
		for _, id := range ids {
			if _, ok := c.m[id]; !ok {
				missing = append(missing, int64(id))
			}
		}
		if len(missing) > 0 {
			if err := c.read(ctx, q, `SELECT id, token FROM move_tokens WHERE id IN (SELECT value FROM json_each(?))`, idList(missing)); err != nil {
				return nil, err
			}
		}
		out := make([]string, len(ids))
		for i, id := range ids {
			t, ok := c.m[id]
			if !ok {
				return nil, fmt.Errorf("move %d is not numbered", id)
			}
			out[i] = t
		}
		return out, nil
	}
}

// loadAllTokens reads every token at once, for commands that read many
// records (verify, export).
func (a *Archive) loadAllTokens(ctx context.Context) error {
	c := &a.toks
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[uint32]string{}
	}
	return c.read(ctx, a.db, `SELECT id, token FROM move_tokens`)
}

func (c *tokenCache) read(ctx context.Context, q dbtx, query string, args ...any) error {
	return readTokens(ctx, q, func(id uint32, tok string) { c.m[id] = tok }, query, args...)
}

// readTokens runs a query of move_tokens rows (id, token) and hands each
// to fn.
func readTokens(ctx context.Context, q dbtx, fn func(id uint32, tok string), query string, args ...any) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id uint32
		var tok string
		if err := rows.Scan(&id, &tok); err != nil {
			return err
		}
		fn(id, tok)
	}
	return rows.Err()
}
