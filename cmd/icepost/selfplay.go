// icepost selfplay: random games, written as records.

package main

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"icepost/notation"
	"icepost/rules/games"
)

func cmdSelfplay(e *env, args []string) int {
	fs := newFlags(e, "selfplay")
	game := fs.String("game", "", "the game to play: "+strings.Join(games.Names(), ", "))
	n := fs.Int("n", 1, "how many games")
	seed := fs.Uint64("seed", 1, "random seed; the same seed writes the same games")
	maxPlies := fs.Int("max-plies", 1000, "stop a game that is not over after this many plies (its result is *)")
	opts := optionFlags(fs)
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if *game == "" || fs.NArg() != 0 || *n < 0 {
		fmt.Fprintln(e.stderr, "icepost selfplay: give -game NAME (and no other arguments)")
		return exitUsage
	}
	g, ok := lookupGame(e, "selfplay", *game)
	if !ok {
		return exitUsage
	}
	start, err := g.Start(opts())
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost selfplay: %v\n", err)
		return exitUsage
	}
	rng := rand.New(rand.NewPCG(*seed, 0x1ce))
	o := start.Options()
	var buf []byte
	for i := range *n {
		tags := []notation.Tag{{Name: "Event", Value: "icepost selfplay"}, {Name: "Round", Value: strconv.Itoa(i + 1)}}
		for k := 1; k <= o.Seats; k++ {
			tags = append(tags, notation.Tag{Name: "Player" + strconv.Itoa(k), Value: "Random " + strconv.Itoa(k)})
		}
		rec, err := notation.FromMoves(tags, start, notation.RandomGame(start, rng, *maxPlies))
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost selfplay: %v\n", err)
			return exitInvalid
		}
		if i > 0 {
			buf = append(buf, '\n')
		}
		buf = notation.AppendFormat(buf, rec)
		if len(buf) > 1<<16 {
			if _, err := e.stdout.Write(buf); err != nil {
				return writeFailed(e, err)
			}
			buf = buf[:0]
		}
	}
	if _, err := e.stdout.Write(buf); err != nil {
		return writeFailed(e, err)
	}
	return exitOK
}
