// icepost play: a game against the engine at the terminal, with the board
// display and line editing of icepost record, writing the record.

package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"icepost/engine"
	"icepost/notation"
	"icepost/rules/games"
	"icepost/tabletop"
)

func cmdPlay(e *env, args []string) int {
	fs := newFlags(e, "play")
	opts := optionFlags(fs)
	level := fs.Int("level", 2, fmt.Sprintf("the engine's strength, 1 (a beginner) to %d (the strongest)", engine.MaxLevel))
	seat := fs.Int("seat", 1, "the seat you play; the engine plays every other")
	out := fs.String("o", "", "the file to write (default: named after the game, date and players)")
	player := fs.String("player", "", "your name (asked at a terminal)")
	moveTime := fs.Duration("move-time", 5*time.Second, "the most the engine may think about one move")
	seed := fs.Uint64("seed", 0, "the engine's random seed; 0: a new one each game (the same seed and moves give the same answers)")
	game, code := parseGameArgs(e, fs, args)
	if code >= 0 {
		return code
	}
	if game == "" {
		fmt.Fprintf(e.stderr, "icepost play: name the game to play, like icepost play %s -level 2\n", strings.ToLower(games.Names()[0]))
		return exitUsage
	}
	g, ok := lookupGame(e, "play", game)
	if !ok {
		return exitUsage
	}
	if *level < 1 || *level > engine.MaxLevel {
		fmt.Fprintf(e.stderr, "icepost play: -level %d: levels go from 1 to %d\n", *level, engine.MaxLevel)
		return exitUsage
	}
	start, err := g.Start(opts())
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost play: %v\n", err)
		return exitUsage
	}
	seats := start.Options().Seats
	if *seat < 1 || *seat > seats {
		fmt.Fprintf(e.stderr, "icepost play: -seat %d: %s is played here by %d, seats 1 to %d\n", *seat, g.Name(), seats, seats)
		return exitUsage
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
	}
	tags := []notation.Tag{{Name: "Event", Value: "icepost play"}}
	var computer []int
	for k := 1; k <= seats; k++ {
		name := engine.Name(*level)
		if k == *seat {
			if *player == "" {
				continue // asked at a terminal, "?" from a pipe
			}
			name = *player
		} else {
			computer = append(computer, k)
		}
		tags = append(tags, notation.Tag{Name: "Player" + strconv.Itoa(k), Value: name})
	}
	return runTable(e, "play", tabletop.Config{Game: g, Options: opts(), Tags: tags, Path: *out, Computer: computer,
		Engine: engine.Config{Level: *level, Seed: *seed, MoveTime: *moveTime}})
}

// playDoc is what icepost play -h says it does.
func playDoc() string {
	return "Play a game against the engine at the terminal. GAME is one of " + strings.Join(games.Names(), ", ") +
		" (any case). Type your moves as in icepost record; hint suggests one, draw offers a draw (the engine accepts only when it thinks it is losing, or when the position has come back three times), undo takes back your last move and the engine's answer, review shows the engine's analysis once the game is over. The record is written after every move."
}
