package archive

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// What a browser asks of the archive beyond Search: games in another
// order than oldest first, the list of players, and one player's
// results by game and by opponent. Every value reaches SQL as a bound
// parameter; the orders are a fixed list.

// Order is the order of a search's games.
type Order int

// The orders a search can have.
const (
	OldestFirst   Order = iota // by the order they were added
	NewestFirst                // the last added first
	DateOldest                 // by the Date tag, undated games last, then the order they were added
	DateNewest                 // by the Date tag, latest first, undated games last, then the last added first
	LongestFirst               // most plies first
	ShortestFirst              // fewest plies first
)

// dateKey is the Date tag as the orders by date read it: NULL when the
// year is not known. Unknown digits later in a date ("2021.??.??") sort
// after the known ones of the same year. It is written exactly as the
// index games_date (migration 0006) is, so that SQLite reads DateNewest
// from that index instead of sorting.
const dateKey = "CASE WHEN substr(g.date, 1, 1) <> '?' THEN g.date END"

// orderBy is each order's ORDER BY clause.
var orderBy = map[Order]string{
	OldestFirst:   "g.id",
	NewestFirst:   "g.id DESC",
	DateOldest:    dateKey + " IS NULL, " + dateKey + ", g.id",
	DateNewest:    dateKey + " DESC, g.id DESC", // NULL is the least: undated last
	LongestFirst:  "g.plies DESC, g.id",
	ShortestFirst: "g.plies, g.id",
}

// SearchOrdered is Search with the games in order o. It picks the ids
// first and reads the summaries of those only: with an order that needs
// a sort, SQLite would otherwise work out every selected game's players
// before sorting (100 ms for 25,000 games instead of 4).
func (a *Archive) SearchOrdered(ctx context.Context, q Query, o Order) ([]Summary, error) {
	by, ok := orderBy[o]
	if !ok {
		return nil, queryErr("order %d: no such order", o)
	}
	b, err := a.where(ctx, q)
	if err != nil {
		return nil, err
	}
	from := "games g"
	if o == DateNewest && q.Limit > 0 && b.listed > 0 {
		// The games of a position reached by many (a game's start: a
		// quarter of the archive) are better found by reading the date
		// index backwards until a page is full than by sorting all of
		// them, which reads every one's row; SQLite, blind to the list's
		// length, sorts. The backward read takes about (page × games /
		// listed) entries, the sort listed rows: read the index when
		// that is the fewer.
		var total int
		if err := a.db.QueryRowContext(ctx, "SELECT coalesce(max(id), 0) FROM games").Scan(&total); err != nil {
			return nil, err
		}
		if page := q.Limit + q.Offset; b.listed*b.listed > 4*page*total {
			from = "games g INDEXED BY games_date"
		}
	}
	var ids []int64
	byPlayer := false
	if o == DateNewest && q.Limit > 0 && b.seats != nil {
		if ids, byPlayer, err = a.playerDateIDs(ctx, b, q.Limit, q.Offset); err != nil {
			return nil, err
		}
	}
	byText := false
	if !byPlayer && o == DateNewest && q.Limit > 0 && b.text != nil {
		text, args := textSQL(b, q.Limit, q.Offset)
		if ids, err = a.queryIDs(ctx, text, args); err != nil {
			return nil, err
		}
		for i := range ids {
			ids[i] &= textIDMask // docids (textKey)
		}
		byText = true
	}
	if byPlayer || byText {
		// ids are the page, read from seats_player_date or game_text.
	} else if o == DateOldest && q.Limit > 0 {
		// Oldest first with the undated games last: no index gives that
		// order (NULL comes first going up), so SQLite would sort every
		// game. Read the dated games going up the date index, then, when
		// the page goes past them, the undated ones.
		dated, undated := *b, *b
		dated.conds = append(slices.Clip(b.conds), dateKey+" IS NOT NULL")
		undated.conds = append(slices.Clip(b.conds), dateKey+" IS NULL")
		if ids, err = a.ids(ctx, from, &dated, dateKey+", g.id", q.Limit, q.Offset); err != nil {
			return nil, err
		}
		if len(ids) < q.Limit {
			offset := 0
			if len(ids) == 0 {
				// The page starts among the undated games: after how many?
				text, args := countSQL(&dated, 0, 0)
				var n int
				if err := a.db.QueryRowContext(ctx, text, args...).Scan(&n); err != nil {
					return nil, err
				}
				offset = max(0, q.Offset-n)
			}
			more, err := a.ids(ctx, from, &undated, "g.id", q.Limit-len(ids), offset)
			if err != nil {
				return nil, err
			}
			ids = append(ids, more...)
		}
	} else if ids, err = a.ids(ctx, from, b, by, q.Limit, q.Offset); err != nil {
		return nil, err
	}
	out := make([]Summary, 0, len(ids))
	at := make(map[int64]int, len(ids))
	for i, id := range ids {
		at[id] = i
	}
	// Read in chunks, within SQLite's limit on bound parameters.
	const chunk = 500
	byID := make([]Summary, len(ids))
	for from := 0; from < len(ids); from += chunk {
		part := ids[from:min(from+chunk, len(ids))]
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		marks := strings.TrimSuffix(strings.Repeat("?,", len(part)), ",")
		rows, err := a.db.QueryContext(ctx, "SELECT "+summaryCols+" FROM games g WHERE g.id IN ("+marks+")", args...)
		if err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		for rows.Next() {
			s, err := scanSummary(rows)
			if err != nil {
				rows.Close()
				return nil, err
			}
			byID[at[s.ID]] = s
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	for i, s := range byID {
		if s.ID == ids[i] {
			out = append(out, s) // a game deleted in between is left out
		}
	}
	return out, nil
}

// playerPlan reads the games b selects from the player's entries of
// seats_player_date rather than from games: a player of a million-game
// archive has thousands of games, and finding them through the seats
// first read every one's row (to sort them by date, or to count them).
// The games' other conditions are checked on each game met. from and
// where select sp.game_id; once must be added for each game once (a
// player may sit in two seats of a game). ok is false when the search
// is not one player's (a seat or an opponent alone, or a name that
// means more than one stored player): the caller then reads games as
// for any search.
func (a *Archive) playerPlan(ctx context.Context, b *builder) (from, where string, args []any, once string, onceArgs []any, ok bool, err error) {
	c := b.seats.c
	anchor, opponent := c.player, c.opponent
	if anchor == "" && c.seat == 0 {
		anchor, opponent = c.opponent, ""
	}
	if anchor == "" {
		return "", "", nil, "", nil, false, nil
	}
	var pids []int64
	rows, err := a.db.QueryContext(ctx, `SELECT * FROM `+playerIDs, anchor, anchor)
	if err != nil {
		return "", "", nil, "", nil, false, err
	}
	for rows.Next() {
		var id sql.NullInt64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return "", "", nil, "", nil, false, err
		}
		if id.Valid {
			pids = append(pids, id.Int64)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(pids) != 1 {
		return "", "", nil, "", nil, false, err
	}
	// seat is the conditions on one seat x of the player's, with their
	// arguments.
	seat := func(x string) (string, []any) {
		cond, args := x+".player_id = ?", []any{pids[0]}
		if c.seat != 0 {
			cond += " AND " + x + ".seat = ?"
			args = append(args, c.seat)
		}
		if c.outcome >= 0 {
			cond += " AND " + x + ".outcome = ?"
			args = append(args, c.outcome)
		}
		if opponent != "" {
			cond += " AND EXISTS (SELECT 1 FROM seats so WHERE so.game_id = " + x + ".game_id AND so.seat <> " + x + ".seat AND so.player_id IN " + playerIDs + ")"
			args = append(args, opponent, opponent)
		}
		return cond, args
	}
	where, args = seat("sp")
	if c.seat == 0 {
		// A player in two seats of a game that both match: the game once,
		// at its first such seat.
		w2, a2 := seat("s2")
		once, onceArgs = " AND NOT EXISTS (SELECT 1 FROM seats s2 WHERE s2.game_id = sp.game_id AND s2.seat < sp.seat AND "+w2+")", a2
	}
	from = "seats sp INDEXED BY seats_player_date"
	if rest := b.withoutSeats(); len(rest.conds) > 0 {
		from += " CROSS JOIN games g ON g.id = sp.game_id"
		where += " AND " + rest.and()
		args = append(args, rest.args...)
	}
	return from, where, args, once, onceArgs, true, nil
}

// playerDateIDs lists the games b selects newest first (DateNewest) by
// playerPlan, reading the player's entries of seats_player_date
// backwards until the page is full.
func (a *Archive) playerDateIDs(ctx context.Context, b *builder, limit, offset int) (ids []int64, ok bool, err error) {
	from, where, args, once, onceArgs, ok, err := a.playerPlan(ctx, b)
	if !ok || err != nil {
		return nil, false, err
	}
	lim, largs := limitClause(limit, offset)
	rows, err := a.db.QueryContext(ctx, "SELECT sp.game_id FROM "+from+" WHERE "+where+once+
		" ORDER BY sp.sort_date DESC, sp.game_id DESC"+lim, joinArgs(joinArgs(args, onceArgs), largs)...)
	if err != nil {
		return nil, false, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, false, err
		}
		ids = append(ids, id)
	}
	return ids, true, rows.Err()
}

// ids lists the ids of the games b selects from from, in order by, with
// the limit and offset.
func (a *Archive) ids(ctx context.Context, from string, b *builder, by string, limit, offset int) ([]int64, error) {
	lim, largs := limitClause(limit, offset)
	return a.queryIDs(ctx, "SELECT g.id FROM "+from+b.where()+" ORDER BY "+by+lim, joinArgs(b.args, largs))
}

// queryIDs runs a query of one integer column and lists its values.
func (a *Archive) queryIDs(ctx context.Context, text string, args []any) ([]int64, error) {
	rows, err := a.db.QueryContext(ctx, text, args...)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// textSQL lists the docids (textKey) of the games b selects, newest
// first (DateNewest), from the full-text index (text.go), with the limit
// and offset: the games with the words come out of each language's part
// of the index newest first, read as they are needed, the search's other
// conditions are checked on each game met, and the parts are merged. A
// page of the newest games with common words then reads about a page of
// the index, where a set of every game with the words took 49 ms at a
// million games (docs/web.md, "Speed").
func textSQL(b *builder, limit, offset int) (string, []any) {
	m, rest := b.text.match, b.withoutText()
	var arms []string
	var args []any
	for _, l := range m.langs {
		if len(rest.conds) == 0 {
			arms = append(arms, "SELECT docid FROM game_text WHERE game_text MATCH ? AND lang = ?")
		} else {
			arms = append(arms, "SELECT t.docid FROM game_text t CROSS JOIN games g ON g.id = t.docid & "+
				strconv.Itoa(textIDMask)+" WHERE game_text MATCH ? AND t.lang = ? AND "+rest.and())
		}
		args = append(append(args, m.query, l), rest.args...)
	}
	lim, largs := limitClause(limit, offset)
	return strings.Join(arms, " UNION ALL ") + " ORDER BY 1 DESC" + lim, joinArgs(args, largs)
}

// Results counts games by how they ended for one player.
type Results struct {
	Games, Wins, Draws, Losses, Undecided int
}

// PlayerSummary is one player in the list of players.
type PlayerSummary struct {
	Name string
	Results
}

// Players lists the players whose name contains the words of match (any
// case, any accents: "garcia" finds García, as a word search does; ""
// for all), most games first, and how many there are in all.
func (a *Archive) Players(ctx context.Context, match string, limit, offset int) ([]PlayerSummary, int, error) {
	if len(match) > maxFilter {
		return nil, 0, queryErr("a search value is %d bytes long; the most is %d", len(match), maxFilter)
	}
	if limit < 0 || offset < 0 {
		return nil, 0, queryErr("limit and offset are 0 or more")
	}
	cond, args := "", []any{}
	if key := normalizeName(match); key != "" {
		ids, err := a.playersMatching(ctx, foldAccents(key))
		if err != nil {
			return nil, 0, err
		}
		cond = ` AND p.id IN (SELECT value FROM json_each(?))`
		args = append(args, idList(ids))
	}
	var total int
	if err := a.db.QueryRowContext(ctx, `SELECT count(*) FROM players p
		WHERE EXISTS (SELECT 1 FROM seats s WHERE s.player_id = p.id)`+cond, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	lim, largs := limitClause(limit, offset)
	rows, err := a.db.QueryContext(ctx, `SELECT p.name, count(*), coalesce(sum(s.outcome = 2), 0), coalesce(sum(s.outcome = 1), 0),
		coalesce(sum(s.outcome = 0), 0), coalesce(sum(s.outcome IS NULL), 0)
		FROM seats s JOIN players p ON p.id = s.player_id WHERE 1`+cond+`
		GROUP BY s.player_id ORDER BY count(*) DESC, p.name`+lim, joinArgs(args, largs)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []PlayerSummary
	for rows.Next() {
		var p PlayerSummary
		if err := rows.Scan(&p.Name, &p.Games, &p.Wins, &p.Draws, &p.Losses, &p.Undecided); err != nil {
			return nil, 0, err
		}
		out = append(out, p)
	}
	return out, total, rows.Err()
}

// playersMatching lists the players whose key, its accents taken off,
// contains folded (a key with its accents taken off). SQLite has no
// function that takes accents off, so it hands over the keys that hold
// folded as they are (LIKE) and every key with a letter outside ASCII,
// and those are folded and compared here: one pass over the players, as
// the LIKE alone was.
func (a *Archive) playersMatching(ctx context.Context, folded string) ([]int64, error) {
	rows, err := a.db.QueryContext(ctx, `SELECT id, key FROM players WHERE key LIKE ? ESCAPE '\' OR key GLOB '*[^ -~]*' ORDER BY id`,
		"%"+escapeLike(folded)+"%")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		var key string
		if err := rows.Scan(&id, &key); err != nil {
			return nil, err
		}
		if strings.Contains(foldAccents(key), folded) {
			ids = append(ids, id)
		}
	}
	return ids, rows.Err()
}

// HasPlayer says whether a game of the archive has a player called name
// (any case and spacing, or an alias): what Player finds, without
// counting the player's results (thousands of games at a million).
func (a *Archive) HasPlayer(ctx context.Context, name string) (bool, error) {
	if len(name) > maxFilter {
		return false, queryErr("a name is %d bytes long; the most is %d", len(name), maxFilter)
	}
	key := normalizeName(name)
	var one int
	err := a.db.QueryRowContext(ctx, `SELECT 1 FROM seats WHERE player_id IN `+playerIDs+` LIMIT 1`, key, key).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// GameResults is a player's results at one game.
type GameResults struct {
	Game string
	Results
}

// OpponentResults is how a player did against one opponent, from the
// player's side: Wins the games the player won, Losses those the
// opponent won; in games of three or four, a game a third player won is
// neither (it counts in Games only).
type OpponentResults struct {
	Name string
	Results
}

// PlayerRecord is one player's results.
type PlayerRecord struct {
	Name      string   // as first stored
	Spellings []string // the other spellings that mean this player (aliases)
	Results
	Games     []GameResults     // by game, most played first
	Opponents []OpponentResults // most games together first
	// Analysis is what the computer analysis of their games says of
	// their moves (archive analyze); Games 0 when none is analysed.
	Analysis AnalysisSummary
}

// Player returns the results of the player called name (any case and
// spacing, or an alias), with up to maxOpponents opponents. A name no
// game holds is ErrNotFound.
func (a *Archive) Player(ctx context.Context, name string, maxOpponents int) (*PlayerRecord, error) {
	if len(name) > maxFilter {
		return nil, queryErr("a name is %d bytes long; the most is %d", len(name), maxFilter)
	}
	key := normalizeName(name)
	var id int64
	pr := &PlayerRecord{}
	err := a.db.QueryRowContext(ctx, `SELECT id, name FROM players WHERE id IN `+playerIDs, key, key).Scan(&id, &pr.Name)
	if err == sql.ErrNoRows {
		return nil, fmt.Errorf("%w: no player called %q", ErrNotFound, clip(name))
	}
	if err != nil {
		return nil, err
	}
	rows, err := a.db.QueryContext(ctx, `SELECT alias FROM player_aliases WHERE player_id = ? ORDER BY alias`, id)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			rows.Close()
			return nil, err
		}
		pr.Spellings = append(pr.Spellings, s)
	}
	rows.Close()

	rows, err = a.db.QueryContext(ctx, `SELECT g.game, count(*), coalesce(sum(s.outcome = 2), 0), coalesce(sum(s.outcome = 1), 0),
		coalesce(sum(s.outcome = 0), 0), coalesce(sum(s.outcome IS NULL), 0)
		FROM seats s JOIN games g ON g.id = s.game_id WHERE s.player_id = ?
		GROUP BY g.game ORDER BY count(*) DESC, g.game`, id)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var gr GameResults
		if err := rows.Scan(&gr.Game, &gr.Games, &gr.Wins, &gr.Draws, &gr.Losses, &gr.Undecided); err != nil {
			rows.Close()
			return nil, err
		}
		pr.Games = append(pr.Games, gr)
		pr.Results.Games += gr.Games
		pr.Results.Wins += gr.Wins
		pr.Results.Draws += gr.Draws
		pr.Results.Losses += gr.Losses
		pr.Results.Undecided += gr.Undecided
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(pr.Games) == 0 {
		return nil, fmt.Errorf("%w: no games of %q", ErrNotFound, clip(name))
	}
	if pr.Analysis, err = a.playerAnalysis(ctx, id); err != nil {
		return nil, err
	}

	if maxOpponents <= 0 {
		return pr, nil
	}
	rows, err = a.db.QueryContext(ctx, `SELECT p.name, count(DISTINCT me.game_id),
		coalesce(sum(me.outcome = 2), 0), coalesce(sum(me.outcome = 1 AND op.outcome = 1), 0),
		coalesce(sum(op.outcome = 2), 0), coalesce(sum(me.outcome IS NULL), 0)
		FROM seats me JOIN seats op ON op.game_id = me.game_id AND op.seat <> me.seat
		JOIN players p ON p.id = op.player_id
		WHERE me.player_id = ? AND op.player_id <> me.player_id
		GROUP BY op.player_id ORDER BY count(*) DESC, p.name LIMIT ?`, id, maxOpponents)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var o OpponentResults
		if err := rows.Scan(&o.Name, &o.Games, &o.Wins, &o.Draws, &o.Losses, &o.Undecided); err != nil {
			return nil, err
		}
		pr.Opponents = append(pr.Opponents, o)
	}
	return pr, rows.Err()
}

// Revision is a value that changes when games are added or deleted, for
// callers that keep something computed from the archive (the web site's
// ratings).
func (a *Archive) Revision(ctx context.Context) (string, error) {
	var n, last int64
	err := a.db.QueryRowContext(ctx, `SELECT count(*), coalesce(max(id), 0) FROM games`).Scan(&n, &last)
	return fmt.Sprintf("%d/%d", n, last), err
}

// AddressPlayers maps the mail addresses the archive holds (lower case)
// to the name of the player each belongs to: the mail daemon's players
// as the archive knows them.
func (a *Archive) AddressPlayers(ctx context.Context) (map[string]string, error) {
	rows, err := a.db.QueryContext(ctx, `SELECT DISTINCT s.address, p.name FROM seats s JOIN players p ON p.id = s.player_id
		WHERE s.address IS NOT NULL AND s.address <> ''`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var addr, name string
		if err := rows.Scan(&addr, &name); err != nil {
			return nil, err
		}
		out[lowerASCII(addr)] = name
	}
	return out, rows.Err()
}

// Wrap returns the archive in db, a database opened with DSN's settings
// whose archive tables are up to date (Migrate): the mail daemon's file,
// which holds the archive of the games it finished.
func Wrap(db *sql.DB) *Archive { return &Archive{db: db} }

// foldAccents takes the accents off the letters of s (García → Garcia,
// Dvořák → Dvorak): the letters decomposed, their combining marks
// dropped. It is how the full-text index's tokenizer (unicode61, which
// removes diacritics) lets a word search find a name however it is
// accented; the list of players folds names the same way. Nothing stores
// it.
func foldAccents(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	out, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), s)
	if err != nil {
		return s
	}
	return out
}
