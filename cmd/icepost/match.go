// icepost match: games between computer players (and random), seats
// rotating, with each player's results and the records.

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"icepost/atomicfile"
	"icepost/engine"
	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

func cmdMatch(e *env, args []string) int {
	fs := newFlags(e, "match")
	game := fs.String("game", "", "the game: "+strings.Join(games.Names(), ", "))
	n := fs.Int("n", 10, "how many games")
	seed := fs.Uint64("seed", 1, "random seed; the same seed plays the same match (unless -move-time cuts searches short)")
	out := fs.String("o", "", "write the records of the games to this file, each as its game ends")
	resume := fs.Bool("resume", false, "go on with the match whose records -o holds (the same game, players, -n and -seed), after its last game")
	moveTime := fs.Duration("move-time", 5*time.Second, "the most a computer player may think about one move")
	maxPlies := fs.Int("max-plies", 1000, "a game not over after this many plies is a draw (result *)")
	workers := fs.Int("workers", 0, "the cores each computer player searches on (default: all the cores, shared among the games played at once)")
	parallel := fs.Int("parallel", 1, "how many games to play at once; the games are the same either way (unless -move-time cuts searches short), and are written in order")
	opts := optionFlags(fs)
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if *game == "" || *n < 1 || *parallel < 1 {
		fmt.Fprintln(e.stderr, "icepost match: give -game NAME, -n K (1 or more), -parallel 1 or more, and one player a seat, like: icepost match -game icesickle -n 20 bot:2 random")
		return exitUsage
	}
	g, ok := lookupGame(e, "match", *game)
	if !ok {
		return exitUsage
	}
	start, err := g.Start(opts())
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost match: %v\n", err)
		return exitUsage
	}
	seats := start.Options().Seats
	if fs.NArg() != seats {
		fmt.Fprintf(e.stderr, "icepost match: %s with %d seats needs %d players (random or bot:LEVEL), not %d\n", g.Name(), seats, seats, fs.NArg())
		return exitUsage
	}
	var players []engine.Spec
	for _, a := range fs.Args() {
		sp, err := engine.ParseSpec(a)
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost match: %v\n", err)
			return exitUsage
		}
		players = append(players, sp)
	}
	var records []byte
	var played []rules.State
	if *resume {
		if *out == "" {
			fmt.Fprintln(e.stderr, "icepost match: -resume goes on with the match in the -o file: name it")
			return exitUsage
		}
		if records, played, err = resumeMatch(*out, start, players, *seed); err != nil {
			fmt.Fprintf(e.stderr, "icepost match: -resume: %v\n", err)
			return exitUsage
		}
		if len(played) >= *n {
			fmt.Fprintf(e.stderr, "icepost match: -resume: %s holds %d games already, -n is %d\n", *out, len(played), *n)
			return exitUsage
		}
		fmt.Fprintf(e.stderr, "resuming after game %d of %d\n", len(played), *n)
	}
	ctx := e.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if *workers == 0 {
		*workers = max(1, runtime.GOMAXPROCS(0) / *parallel)
	}
	m := engine.Match{Players: players, Games: *n, Seed: *seed, Config: engine.Config{MoveTime: *moveTime, Workers: *workers},
		MaxPlies: *maxPlies, Parallel: *parallel,
		Each: func(gameNo int, seatOf []int, moves []rules.Move, final rules.State) error {
			tags := []notation.Tag{{Name: "Event", Value: "icepost match"}, {Name: "Round", Value: strconv.Itoa(gameNo + 1)},
				{Name: "Seed", Value: strconv.FormatUint(*seed, 10)}}
			for j, sp := range players {
				tags = append(tags, notation.Tag{Name: "Player" + strconv.Itoa(seatOf[j]), Value: string(sp)})
			}
			rec, err := notation.FromMoves(tags, start, moves)
			if err != nil {
				return err
			}
			if len(records) > 0 {
				records = append(records, '\n')
			}
			records = notation.AppendFormat(records, rec)
			fmt.Fprintf(e.stderr, "game %d of %d: %s in %d plies\n", gameNo+1, *n, rec.Result, len(moves))
			// Written whole after each game: a match stopped (a
			// signal, a crash, the end of a session) keeps the games
			// it played, and -resume goes on from them.
			if *out != "" {
				return atomicfile.Write(*out, records)
			}
			return nil
		}}
	tallies, err := m.Play(ctx, start, played)
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost match: %v\n", err)
		return exitInvalid
	}
	fmt.Fprintf(e.stdout, "%s, %d seats, %d games\n", g.Name(), seats, *n)
	fmt.Fprintf(e.stdout, "%-10s %5s %5s %6s  %-20s  %s\n", "player", "wins", "draws", "losses", "score (95% interval)", "s/move (mean, max)")
	for _, t := range tallies {
		fmt.Fprintf(e.stdout, "%-10s %5d %5d %6d  %.2f ± %.2f           %.3f %.3f\n", t.Player, t.Wins, t.Draws, t.Losses, t.Score(), t.Interval(),
			t.PerMove().Seconds(), t.MaxThink.Seconds())
	}
	return exitOK
}

// resumeMatch reads the records of a match that stopped: they must be
// its games from the first, each with the players in the seats the
// rotation gives them, of the same game and options, and played with the
// same seed (records without a Seed tag, written before matches had one,
// are taken on trust). It returns the records' text and each game's
// final position.
func resumeMatch(file string, start rules.State, players []engine.Spec, seed uint64) ([]byte, []rules.State, error) {
	text, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	recs, errs := notation.Parse(file, text)
	if len(errs) > 0 {
		return nil, nil, errs
	}
	seats := start.Options().Seats
	var played []rules.State
	for g, rec := range recs {
		if round, _ := rec.Tag("Round"); round != strconv.Itoa(g+1) {
			return nil, nil, fmt.Errorf("%s:%d: game %d has Round %q: not the games of one match from the first", file, rec.Pos.Line, g+1, round)
		}
		if v, ok := rec.Tag("Seed"); ok && v != strconv.FormatUint(seed, 10) {
			return nil, nil, fmt.Errorf("%s:%d: game %d was played with -seed %s, not %d: give the match's seed, or start a new file", file, rec.Pos.Line, g+1, v, seed)
		}
		for j, sp := range players {
			seat := engine.SeatOf(j, g, seats)
			if v, _ := rec.Tag("Player" + strconv.Itoa(seat)); v != string(sp) {
				return nil, nil, fmt.Errorf("%s:%d: game %d has Player%d %q where this match puts %s", file, rec.Pos.Line, g+1, seat, v, sp)
			}
		}
		game, err := notation.Replay(rec)
		if err != nil {
			return nil, nil, err
		}
		if game.Rules.Name() != start.Game().Name() || game.Options != start.Options() {
			return nil, nil, fmt.Errorf("%s:%d: game %d is %s %+v, not this match's %s %+v", file, rec.Pos.Line, g+1,
				game.Rules.Name(), game.Options, start.Game().Name(), start.Options())
		}
		played = append(played, game.Final())
	}
	// One blank line before the next record, as a match writes them.
	if text = bytes.TrimRight(text, " \t\r\n"); len(text) > 0 {
		text = append(text, '\n')
	}
	return text, played, nil
}
