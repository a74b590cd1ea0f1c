package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

// readInput reads a file, or standard input for "-", and returns its
// bytes and the name to use in messages.
func readInput(e *env, file string) ([]byte, string, error) {
	if file == "-" {
		var b bytes.Buffer
		_, err := b.ReadFrom(e.stdin)
		return b.Bytes(), "<stdin>", err
	}
	src, err := os.ReadFile(file)
	return src, file, err
}

// readRecords reads and checks one file ("-" is standard input).
func readRecords(e *env, file string) ([]*notation.Game, notation.ErrorList, error) {
	src, name, err := readInput(e, file)
	if err != nil {
		return nil, nil, err
	}
	games, errs := notation.Check(name, src)
	return games, errs, nil
}

func printErrors(e *env, errs notation.ErrorList) {
	for _, err := range errs {
		fmt.Fprintln(e.stderr, err)
	}
}

func cmdValidate(e *env, args []string) int {
	fs := newFlags(e, "validate")
	quiet := fs.Bool("q", false, "print nothing but errors")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "icepost validate: name one or more record files (- for standard input)")
		return exitUsage
	}
	// A replay makes much short-lived garbage while the live heap stays
	// small (one file's records): collecting less often saves a third of
	// the CPU time for some more memory.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	code, valid, invalid := exitOK, 0, 0
	for _, file := range fs.Args() {
		src, name, err := readInput(e, file)
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost validate: %v\n", err)
			code = exitUsage
			continue
		}
		// Count valid games without keeping them, replaying records on
		// every core.
		errs := notation.CheckParallel(name, src, runtime.GOMAXPROCS(0), func(*notation.Game) { valid++ })
		printErrors(e, errs)
		invalid += len(errs)
		if len(errs) > 0 && code == exitOK {
			code = exitInvalid
		}
	}
	if !*quiet {
		fmt.Fprintf(e.stdout, "%d valid records, %d errors\n", valid, invalid)
	}
	return code
}

func cmdFmt(e *env, args []string) int {
	fs := newFlags(e, "fmt")
	write := fs.Bool("w", false, "rewrite each file in place instead of printing it")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "icepost fmt: name one or more record files (- for standard input)")
		return exitUsage
	}
	code := exitOK
	for _, file := range fs.Args() {
		gs, errs, err := readRecords(e, file)
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost fmt: %v\n", err)
			code = exitUsage
			continue
		}
		if len(errs) > 0 {
			// Like gofmt, refuse to rewrite what does not read: nothing
			// may be lost.
			printErrors(e, errs)
			code = exitInvalid
			continue
		}
		recs := make([]*notation.Record, len(gs))
		for i, g := range gs {
			g.Canonicalize()
			recs[i] = g.Record
		}
		var out bytes.Buffer
		notation.FormatAll(&out, recs)
		if *write && file != "-" {
			if err := writeFileAtomic(file, out.Bytes()); err != nil {
				fmt.Fprintf(e.stderr, "icepost fmt: %v\n", err)
				code = exitUsage
			}
			continue
		}
		e.stdout.Write(out.Bytes())
	}
	return code
}

// writeFileAtomic replaces file with data so that a crash or a full disk
// leaves either the old file or the new one, never half of one.
func writeFileAtomic(file string, data []byte) error {
	info, err := os.Stat(file)
	mode := os.FileMode(0o644)
	if err == nil {
		mode = info.Mode().Perm()
	}
	tmp, err := os.CreateTemp(dirOf(file), ".icepost-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", file, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", file, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", file, err)
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

func dirOf(file string) string {
	if i := strings.LastIndexByte(file, '/'); i >= 0 {
		return file[:i+1]
	}
	return "."
}

// firstGame reads file and returns its first record, replayed.
func firstGame(e *env, name, file string) (*notation.Game, int) {
	gs, errs, err := readRecords(e, file)
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost %s: %v\n", name, err)
		return nil, exitUsage
	}
	if len(errs) > 0 {
		printErrors(e, errs)
	}
	if len(gs) == 0 || (len(errs) > 0 && errs[0].Pos.Line < gs[0].Record.Pos.Line) {
		if len(errs) == 0 {
			fmt.Fprintf(e.stderr, "icepost %s: %s holds no record\n", name, file)
		}
		return nil, exitInvalid
	}
	return gs[0], exitOK
}

func cmdShow(e *env, args []string) int {
	fs := newFlags(e, "show")
	ply := fs.Int("ply", -1, "show the position after this many plies of the main line (default: the end)")
	view := fs.Int("view", 0, "the seat whose side is at the bottom (2-seat games)")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "icepost show: name one record file")
		return exitUsage
	}
	g, code := firstGame(e, "show", fs.Arg(0))
	if g == nil {
		return code
	}
	n := len(g.States) - 1
	if *ply >= 0 {
		if *ply > n {
			fmt.Fprintf(e.stderr, "icepost show: the record has %d plies; -ply goes from 0 to %d\n", n, n)
			return exitUsage
		}
		n = *ply
	}
	s := g.States[n]
	if n > 0 {
		prev := g.States[n-1]
		fmt.Fprintf(e.stdout, "After ply %d: seat %d played %s\n\n", n, prev.ToMove(), prev.FormatMove(g.Moves[n-1]))
	} else {
		fmt.Fprintln(e.stdout, "Start position")
		fmt.Fprintln(e.stdout)
	}
	fmt.Fprint(e.stdout, s.Board(*view))
	fmt.Fprintf(e.stdout, "Position: %s\n", s.Code())
	return exitOK
}

func cmdMoves(e *env, args []string) int {
	fs := newFlags(e, "moves")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "icepost moves: name one record file")
		return exitUsage
	}
	g, code := firstGame(e, "moves", fs.Arg(0))
	if g == nil {
		return code
	}
	s := g.Final()
	var toks []string
	for _, m := range s.Moves(nil) {
		toks = append(toks, s.FormatMove(m))
	}
	slices.Sort(toks)
	for _, t := range toks {
		fmt.Fprintln(e.stdout, t)
	}
	return exitOK
}

// optionFlags adds -seats, -board and -target to fs.
func optionFlags(fs *flag.FlagSet) func() rules.Options {
	seats := fs.Int("seats", 0, "number of players (default 2)")
	board := fs.String("board", "", "board shape where the game has a choice: star or hex (IceFrogs)")
	target := fs.Int("target", 0, "the score that wins, where the game has one (Pikemen; default 12)")
	return func() rules.Options { return rules.Options{Seats: *seats, Board: *board, Target: *target} }
}

func lookupGame(e *env, cmd, name string) (rules.Game, bool) {
	g, ok := games.Lookup(name)
	if !ok {
		fmt.Fprintf(e.stderr, "icepost %s: unknown game %q: the games are %s\n", cmd, name, strings.Join(games.Names(), ", "))
	}
	return g, ok
}

func cmdPerft(e *env, args []string) int {
	fs := newFlags(e, "perft")
	depth := fs.Int("depth", 3, "count to this many plies")
	opts := optionFlags(fs)
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 || *depth < 1 {
		fmt.Fprintln(e.stderr, "icepost perft: name one game or record file, and a -depth of 1 or more")
		return exitUsage
	}
	var start rules.State
	if g, ok := games.Lookup(fs.Arg(0)); ok {
		s, err := g.Start(opts())
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost perft: %v\n", err)
			return exitUsage
		}
		start = s
	} else if _, err := os.Stat(fs.Arg(0)); err == nil {
		g, code := firstGame(e, "perft", fs.Arg(0))
		if g == nil {
			return code
		}
		start = g.Final()
	} else {
		fmt.Fprintf(e.stderr, "icepost perft: %q is neither a game (%s) nor a record file\n", fs.Arg(0), strings.Join(games.Names(), ", "))
		return exitUsage
	}
	for d := 1; d <= *depth; d++ {
		if e.ctx.Err() != nil {
			return exitUsage
		}
		fmt.Fprintf(e.stdout, "depth %d nodes %d\n", d, rules.CountPerft(start, d))
	}
	return exitOK
}

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
		if o.Target != 0 && g.Name() == "Pikemen" {
			tags = append(tags, notation.Tag{Name: "Target", Value: strconv.Itoa(o.Target)})
		}
		if o.Board != "" {
			tags = append(tags, notation.Tag{Name: "Board", Value: o.Board})
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

func writeFailed(e *env, err error) int {
	if errors.Is(err, os.ErrClosed) {
		return exitOK
	}
	fmt.Fprintf(e.stderr, "icepost: %v\n", err)
	return exitUsage
}
