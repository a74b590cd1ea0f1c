// icepost archive: its own flag (-db), the dispatch to its subcommands
// (each in an archive_NAME.go), and what several of them share: the
// search filters, writing the games found, the table cells, game ids and
// errors.

package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"icepost/archive"
	"icepost/rules/games"
)

func cmdArchive(e *env, args []string) int {
	fs := newFlags(e, "archive")
	db := fs.String("db", "icepost.db", "the archive's database file")
	// Only the flags before the subcommand belong to archive.
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if (args[i] == "-db" || args[i] == "--db") && i+1 < len(args) {
			i++
		}
		i++
	}
	if code := parseFlags(e, fs, args[:i]); code >= 0 {
		return code
	}
	rest := args[i:]
	if len(rest) == 0 {
		fs.Usage()
		return exitUsage
	}
	c := find("archive").sub(rest[0])
	if c == nil {
		fmt.Fprintf(e.stderr, "icepost archive: unknown command %q\n", rest[0])
		fs.Usage()
		return exitUsage
	}
	for _, a := range rest[1:] {
		if isHelpFlag(a) {
			return c.run(e, rest[1:])
		}
	}
	// Only import makes an archive: a mistyped -db must not search,
	// or delete from, an empty archive made on the spot.
	if _, err := os.Stat(*db); err != nil && rest[0] != "import" {
		fmt.Fprintf(e.stderr, "icepost archive %s: no archive at %s (icepost archive import FILE makes one; -db names another)\n", rest[0], *db)
		return exitUsage
	}
	a, err := openArchive(e, *db)
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost archive: %v\n", err)
		return exitUsage
	}
	defer a.Close()
	sub := *e
	sub.archive = a
	return c.run(&sub, rest[1:])
}

// openArchive opens the archive at path, with a progress bar on a
// terminal while an upgrade indexes its games again.
func openArchive(e *env, path string) (*archive.Archive, error) {
	var opt archive.MigrateOptions
	var bar *progressBar
	if isTerminal(e.stderr) {
		bar = &progressBar{w: e.stderr, name: "indexing the archive's positions again (once, after an upgrade)", unit: "games", start: time.Now()}
		opt.Reindexing = bar.count
	}
	a, err := archive.OpenWith(e.ctx, path, opt)
	if bar != nil {
		bar.clear()
	}
	return a, err
}

// onArchive makes the run of an archive subcommand, which works on the
// archive that cmdArchive opened.
func onArchive(run func(e *env, a *archive.Archive, args []string) int) func(e *env, args []string) int {
	return func(e *env, args []string) int { return run(e, e.archive, args) }
}

func archiveFail(e *env, cmd string, err error) int {
	fmt.Fprintf(e.stderr, "icepost archive %s: %v\n", cmd, err)
	if errors.Is(err, archive.ErrQuery) || errors.Is(err, archive.ErrNotFound) {
		return exitUsage
	}
	return exitInvalid
}

// multiFlag collects a flag given several times.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ", ") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// queryFlags adds the search filters to fs; the returned function builds
// the query after parsing.
func queryFlags(fs *flag.FlagSet) func() (archive.Query, error) {
	var q archive.Query
	fs.StringVar(&q.Game, "game", "", "the game: "+strings.Join(games.Names(), ", "))
	fs.StringVar(&q.Player, "player", "", "a player, in any seat (or in -seat)")
	fs.IntVar(&q.Seat, "seat", 0, "with -player: the player's seat; alone: -result is this seat's")
	fs.StringVar(&q.Opponent, "opponent", "", "a player in another seat than -player's")
	fs.StringVar(&q.Result, "result", "", "win, loss or draw for -player (or -seat); or undecided")
	fs.StringVar(&q.Since, "since", "", "played on or after this date: YYYY, YYYY.MM or YYYY.MM.DD")
	fs.StringVar(&q.Until, "until", "", "played on or before this date")
	fs.StringVar(&q.Event, "event", "", "words in the event's name")
	var tags multiFlag
	fs.Var(&tags, "tag", "a tag's value, Name=value (repeatable)")
	plies := fs.String("plies", "", "length in plies: 20-40, -30, 50- or 35")
	fs.StringVar(&q.Text, "text", "", "words in comments, names, event or site (all of them; word* for a prefix)")
	fs.StringVar(&q.Position, "position", "", "a position code the game reached")
	fs.StringVar(&q.Moves, "moves", "", `the moves the game began with, like "L@c3 M@b2"`)
	fs.StringVar(&q.Blunder, "blunder", "", "a player who made a blunder (??) in the game, by its stored analysis (archive analyze)")
	return func() (archive.Query, error) {
		for _, t := range tags {
			tf, err := archive.ParseTagFilter(t)
			if err != nil {
				return q, err
			}
			q.Tags = append(q.Tags, tf)
		}
		if *plies != "" {
			r, err := archive.ParseRange(*plies)
			if err != nil {
				return q, err
			}
			q.Plies = &r
		}
		return q, nil
	}
}

func writeGames(e *env, a *archive.Archive, cmd string, q archive.Query, format string) int {
	code, _ := writeGamesN(e, a, cmd, q, format)
	return code
}

// writeGamesN is writeGames that also returns how many games it wrote.
func writeGamesN(e *env, a *archive.Archive, cmd string, q archive.Query, format string) (int, int) {
	var err error
	n := 0
	switch format {
	case "table":
		var res []archive.Summary
		res, err = a.Search(e.ctx, q)
		if err == nil {
			tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tGAME\tDATE\tPLAYERS\tRESULT\tPLIES\tEVENT")
			n = len(res)
			for _, s := range res {
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\t%s\n", s.ID, s.Game, dash(s.Date), cell(strings.Join(s.Players, " - ")), s.Result, s.Plies, cell(dash(s.Event)))
			}
			err = tw.Flush()
		}
	case "records":
		first := true
		err = a.Each(e.ctx, q, func(_ archive.Summary, rec []byte) error {
			if !first {
				if _, err := io.WriteString(e.stdout, "\n"); err != nil {
					return err
				}
			}
			first = false
			n++
			_, err := e.stdout.Write(rec)
			return err
		})
	case "ap":
		var refused int
		n, refused, err = writeAP(e, a, cmd, q)
		if err == nil && refused > 0 {
			fmt.Fprintf(e.stderr, "icepost archive %s: %d of the games are not Abstract Play's (only a finished two-seat Pikemen game to 12 or 15 points is): narrow the selection, as with -game Pikemen\n", cmd, refused)
			return exitInvalid, n
		}
	case "json":
		enc := json.NewEncoder(e.stdout)
		err = a.Each(e.ctx, q, func(s archive.Summary, rec []byte) error {
			n++
			return enc.Encode(struct {
				archive.Summary
				Record string `json:"record"`
			}{s, string(rec)})
		})
	default:
		fmt.Fprintf(e.stderr, "icepost archive %s: -format %q: use table, records, json or ap (Abstract Play's APGameRecord JSON)\n", cmd, format)
		return exitUsage, 0
	}
	if err != nil {
		return archiveFail(e, cmd, err), n
	}
	return exitOK, n
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// cell keeps a table cell on one line and of a sane width.
func cell(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	if r := []rune(s); len(r) > 60 {
		s = string(r[:59]) + "…"
	}
	return s
}

func parseID(e *env, cmd, s string) (int64, bool) {
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id < 1 {
		fmt.Fprintf(e.stderr, "icepost archive %s: %q is not a game id (a number from search)\n", cmd, s)
		return 0, false
	}
	return id, true
}
