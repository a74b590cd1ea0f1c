package main

import (
	"compress/gzip"
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

	"golang.org/x/term"

	"icepost/archive"
	"icepost/notation"
	"icepost/rules"
	"icepost/rules/games"
)

type archiveCommand struct {
	name, args, summary string
	run                 func(e *env, a *archive.Archive, args []string) int
}

// archiveCommands are the subcommands of icepost archive (set in init,
// since their usage refers to the table).
var archiveCommands []archiveCommand

func init() {
	archiveCommands = []archiveCommand{
		{"import", "FILE...|-", "add record files (also .gz) to the archive; invalid records go to quarantine", archiveImport},
		{"search", "[filters] [-limit N] [-offset N] [-count] [-format table|records|json]", "list the games the filters select", archiveSearch},
		{"show", "ID", "a stored game's record and final board", archiveShow},
		{"export", "[filters]", "the selected games as a record file", archiveExport},
		{"delete", "ID...", "remove games", archiveDelete},
		{"quarantine", "[retry]", "list the records that did not replay, or retry them under the current rules", archiveQuarantine},
		{"alias", "NAME SPELLING...", "merge other spellings of a player's name into NAME", archiveAlias},
		{"stats", "[filters] [-players N] | -explore [-position CODE] -game G", "seat wins, lengths and player results, or the moves played from a position", archiveStats},
		{"verify", "", "replay every stored game under the current rules", archiveVerify},
	}
}

func cmdArchive(e *env, args []string) int {
	fs := newFlags(e, "archive")
	db := fs.String("db", "icepost.db", "the archive's database file")
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "Usage: icepost archive [-db PATH] COMMAND [flags] [args]\n\nThe archive of finished games, in one SQLite file.\n\nCommands:\n")
		for _, c := range archiveCommands {
			fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
		}
		fmt.Fprintln(w, "\nFlags:")
		fs.PrintDefaults()
		fmt.Fprintln(w, "\nRun 'icepost archive COMMAND -h' for a command's flags.")
	}
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
	for _, c := range archiveCommands {
		if c.name != rest[0] {
			continue
		}
		for _, a := range rest[1:] {
			if a == "-h" || a == "-help" || a == "--help" {
				return c.run(e, nil, rest[1:])
			}
		}
		a, err := archive.Open(e.ctx, *db)
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost archive: %v\n", err)
			return exitUsage
		}
		defer a.Close()
		return c.run(e, a, rest[1:])
	}
	fmt.Fprintf(e.stderr, "icepost archive: unknown command %q\n", rest[0])
	fs.Usage()
	return exitUsage
}

// archiveFlags makes the flag set of an archive subcommand.
func archiveFlags(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet("icepost archive "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	for _, c := range archiveCommands {
		if c.name == name {
			fs.Usage = usageFunc(fs, "icepost archive "+name, c.args, c.summary)
		}
	}
	return fs
}

func archiveFail(e *env, cmd string, err error) int {
	fmt.Fprintf(e.stderr, "icepost archive %s: %v\n", cmd, err)
	if errors.Is(err, archive.ErrQuery) || errors.Is(err, archive.ErrNotFound) {
		return exitUsage
	}
	return exitInvalid
}

func archiveImport(e *env, a *archive.Archive, args []string) int {
	fs := archiveFlags(e, "import")
	quiet := fs.Bool("q", false, "no progress bar and no summary")
	batch := fs.Int("batch", 5000, "records per transaction")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "icepost archive import: name one or more record files (- for standard input)")
		return exitUsage
	}
	var total archive.ImportStats
	code := exitOK
	for _, file := range fs.Args() {
		var r io.Reader
		var size int64
		name := file
		if file == "-" {
			r, name = e.stdin, "<stdin>"
		} else {
			f, err := os.Open(file)
			if err != nil {
				fmt.Fprintf(e.stderr, "icepost archive import: %v\n", err)
				code = exitUsage
				continue
			}
			defer f.Close()
			if fi, err := f.Stat(); err == nil {
				size = fi.Size()
			}
			r = f
		}
		opt := archive.ImportOptions{
			BatchSize: *batch,
			Report:    func(err error) { fmt.Fprintf(e.stderr, "quarantined: %v\n", err) },
		}
		var bar *progressBar
		if !*quiet && isTerminal(e.stderr) {
			bar = &progressBar{w: e.stderr, name: name, size: size, start: time.Now()}
			opt.Progress = bar.update
			opt.Report = func(err error) {
				bar.clear()
				fmt.Fprintf(e.stderr, "quarantined: %v\n", err)
			}
		}
		st, err := a.Import(e.ctx, r, name, opt)
		if bar != nil {
			bar.clear()
		}
		total.Imported += st.Imported
		total.Duplicates += st.Duplicates
		total.Quarantined += st.Quarantined
		if err != nil {
			fmt.Fprintf(e.stderr, "icepost archive import: %v\n", err)
			if errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) {
				code = exitInvalid
			} else {
				code = exitUsage
			}
		}
	}
	if !*quiet {
		fmt.Fprintf(e.stdout, "%s\n", total)
	}
	if code == exitOK && total.Quarantined > 0 {
		code = exitInvalid
	}
	return code
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressBar draws "name [=====>    ] 42% 1234 records 5678/s ETA 0:12" on
// one terminal line.
type progressBar struct {
	w     io.Writer
	name  string
	size  int64
	start time.Time
	drawn bool
}

func (p *progressBar) update(done int64, records int) {
	el := time.Since(p.start).Seconds()
	rate := 0.0
	if el > 0 {
		rate = float64(records) / el
	}
	line := fmt.Sprintf("%s %d records %.0f/s", p.name, records, rate)
	if p.size > 0 {
		frac := min(float64(done)/float64(p.size), 1)
		const width = 30
		n := int(frac * width)
		eta := "?"
		if frac > 0 {
			eta = (time.Duration(el*(1-frac)/frac) * time.Second).Round(time.Second).String()
		}
		line = fmt.Sprintf("%s [%s%s] %3.0f%% %d records %.0f/s ETA %s", p.name, strings.Repeat("=", n), strings.Repeat(" ", width-n), frac*100, records, rate, eta)
	}
	fmt.Fprintf(p.w, "\r%s\x1b[K", line)
	p.drawn = true
}

func (p *progressBar) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
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

func archiveSearch(e *env, a *archive.Archive, args []string) int {
	fs := archiveFlags(e, "search")
	query := queryFlags(fs)
	limit := fs.Int("limit", 50, "at most this many games (0: all)")
	offset := fs.Int("offset", 0, "skip this many games first")
	count := fs.Bool("count", false, "print only how many games match")
	format := fs.String("format", "table", "table (for people), records (a record file) or json (one object a line)")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(e.stderr, "icepost archive search: unexpected argument %q (filters are flags)\n", fs.Arg(0))
		return exitUsage
	}
	q, err := query()
	if err != nil {
		return archiveFail(e, "search", err)
	}
	q.Limit, q.Offset = *limit, *offset
	if *count {
		q.Limit, q.Offset = 0, 0
		n, err := a.Count(e.ctx, q)
		if err != nil {
			return archiveFail(e, "search", err)
		}
		fmt.Fprintln(e.stdout, n)
		return exitOK
	}
	return writeGames(e, a, "search", q, *format)
}

func archiveExport(e *env, a *archive.Archive, args []string) int {
	fs := archiveFlags(e, "export")
	query := queryFlags(fs)
	limit := fs.Int("limit", 0, "at most this many games (0: all)")
	offset := fs.Int("offset", 0, "skip this many games first")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(e.stderr, "icepost archive export: unexpected argument %q (filters are flags)\n", fs.Arg(0))
		return exitUsage
	}
	q, err := query()
	if err != nil {
		return archiveFail(e, "export", err)
	}
	q.Limit, q.Offset = *limit, *offset
	return writeGames(e, a, "export", q, "records")
}

func writeGames(e *env, a *archive.Archive, cmd string, q archive.Query, format string) int {
	var err error
	switch format {
	case "table":
		var res []archive.Summary
		res, err = a.Search(e.ctx, q)
		if err == nil {
			tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tGAME\tDATE\tPLAYERS\tRESULT\tPLIES\tEVENT")
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
			_, err := e.stdout.Write(rec)
			return err
		})
	case "json":
		enc := json.NewEncoder(e.stdout)
		err = a.Each(e.ctx, q, func(s archive.Summary, rec []byte) error {
			return enc.Encode(struct {
				archive.Summary
				Record string `json:"record"`
			}{s, string(rec)})
		})
	default:
		fmt.Fprintf(e.stderr, "icepost archive %s: -format %q: use table, records or json\n", cmd, format)
		return exitUsage
	}
	if err != nil {
		return archiveFail(e, cmd, err)
	}
	return exitOK
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

func archiveShow(e *env, a *archive.Archive, args []string) int {
	fs := archiveFlags(e, "show")
	view := fs.Int("view", 0, "the seat whose side is at the bottom")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(e.stderr, "icepost archive show: give one game id")
		return exitUsage
	}
	id, ok := parseID(e, "show", fs.Arg(0))
	if !ok {
		return exitUsage
	}
	st, err := a.Get(e.ctx, id)
	if err != nil {
		return archiveFail(e, "show", err)
	}
	e.stdout.Write(st.Record)
	fmt.Fprintln(e.stdout)
	gs, errs := notation.Check(fmt.Sprintf("game %d", id), st.Record)
	if len(errs) > 0 || len(gs) != 1 {
		fmt.Fprintf(e.stderr, "icepost archive show: the record no longer replays: %v\n", errs.Err())
		return exitInvalid
	}
	final := gs[0].Final()
	fmt.Fprint(e.stdout, final.Board(*view))
	fmt.Fprintf(e.stdout, "Position: %s\n", final.Code())
	switch {
	case st.MailGame != "":
		fmt.Fprintf(e.stdout, "From mail game %s\n", st.MailGame)
	case st.Source != "":
		fmt.Fprintf(e.stdout, "From %s:%d\n", st.Source, st.SourceLine)
	}
	return exitOK
}

func archiveDelete(e *env, a *archive.Archive, args []string) int {
	fs := archiveFlags(e, "delete")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(e.stderr, "icepost archive delete: give one or more game ids")
		return exitUsage
	}
	code := exitOK
	for _, s := range fs.Args() {
		id, ok := parseID(e, "delete", s)
		if !ok {
			return exitUsage
		}
		if err := a.Delete(e.ctx, id); err != nil {
			code = archiveFail(e, "delete", err)
			continue
		}
		fmt.Fprintf(e.stdout, "deleted game %d\n", id)
	}
	return code
}

func archiveQuarantine(e *env, a *archive.Archive, args []string) int {
	fs := archiveFlags(e, "quarantine")
	verbose := fs.Bool("v", false, "print each record's text too")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	switch {
	case fs.NArg() == 1 && fs.Arg(0) == "retry":
		st, err := a.RetryQuarantine(e.ctx)
		if err != nil {
			return archiveFail(e, "quarantine", err)
		}
		fmt.Fprintf(e.stdout, "%d imported, %d duplicates, %d still quarantined\n", st.Imported, st.Duplicates, st.Quarantined)
		return exitOK
	case fs.NArg() != 0:
		fmt.Fprintln(e.stderr, "icepost archive quarantine: give no argument (to list) or retry")
		return exitUsage
	}
	qs, err := a.Quarantine(e.ctx)
	if err != nil {
		return archiveFail(e, "quarantine", err)
	}
	for _, q := range qs {
		fmt.Fprintf(e.stdout, "%d\t%s\n", q.ID, cell2(q.Reason))
		if *verbose {
			fmt.Fprintf(e.stdout, "%s\n", strings.TrimRight(q.Text, "\n"))
		}
	}
	fmt.Fprintf(e.stdout, "%d quarantined\n", len(qs))
	return exitOK
}

// cell2 is one line of text, for a reason that may hold several.
func cell2(s string) string { return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\n", "; ") }

func archiveAlias(e *env, a *archive.Archive, args []string) int {
	fs := archiveFlags(e, "alias")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() < 2 {
		fmt.Fprintln(e.stderr, "icepost archive alias: give a player's name and one or more other spellings")
		return exitUsage
	}
	for _, al := range fs.Args()[1:] {
		if err := a.AddAlias(e.ctx, fs.Arg(0), al); err != nil {
			return archiveFail(e, "alias", err)
		}
	}
	return exitOK
}

func archiveStats(e *env, a *archive.Archive, args []string) int {
	fs := archiveFlags(e, "stats")
	query := queryFlags(fs)
	players := fs.Int("players", 20, "list this many players, most games first")
	explore := fs.Bool("explore", false, "the opening explorer: moves played from -position (default: -game's start)")
	opts := optionFlags(fs)
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(e.stderr, "icepost archive stats: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	q, err := query()
	if err != nil {
		return archiveFail(e, "stats", err)
	}
	if *explore {
		return exploreStats(e, a, q, opts())
	}
	st, err := a.Stats(e.ctx, q, *players)
	if err != nil {
		return archiveFail(e, "stats", err)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "GAME\tSEATS\tGAMES\tAVG PLIES\tDRAWS\tUNDECIDED\tWINS BY SEAT\t")
	for _, k := range st.Kinds {
		var seats []string
		decided := k.Games - k.Undecided
		for i, w := range k.Wins {
			seats = append(seats, fmt.Sprintf("%d: %d (%s)", i+1, w, pct(w, decided)))
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f\t%d\t%d\t%s\t\n", k.Game, k.Seats, k.Games, k.AvgPlies(), k.Draws, k.Undecided, strings.Join(seats, "  "))
	}
	tw.Flush()
	if len(st.Players) > 0 {
		fmt.Fprintln(e.stdout)
		tw = tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "PLAYER\tGAMES\tWINS\tLOSSES\tDRAWS\tSCORE\t")
		for _, p := range st.Players {
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.1f\t\n", cell(p.Name), p.Games, p.Wins, p.Losses, p.Draws, p.Score())
		}
		tw.Flush()
	}
	return exitOK
}

func pct(n, of int) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
}

func exploreStats(e *env, a *archive.Archive, q archive.Query, o rules.Options) int {
	var pos rules.State
	var err error
	if q.Position != "" {
		pos, err = archive.ParsePosition(q.Position)
		q.Position = "" // the explorer looks the position up itself
	} else {
		if q.Game == "" {
			fmt.Fprintln(e.stderr, "icepost archive stats -explore: give -game (for its start) or -position")
			return exitUsage
		}
		g, ok := lookupGame(e, "archive stats", q.Game)
		if !ok {
			return exitUsage
		}
		pos, err = g.Start(o)
	}
	if err != nil {
		return archiveFail(e, "stats", err)
	}
	moves, err := a.Explore(e.ctx, q, pos)
	if err != nil {
		return archiveFail(e, "stats", err)
	}
	fmt.Fprintf(e.stdout, "Position: %s\nSeat %d to move\n\n", pos.Code(), pos.ToMove())
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "MOVE\tGAMES\tWINS\tDRAWS\tLOSSES\tUNDECIDED\tSCORE\t")
	for _, m := range moves {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%.1f%%\t\n", m.Move, m.Games, m.Wins, m.Draws, m.Losses, m.Undone, 100*m.Score())
	}
	tw.Flush()
	if len(moves) == 0 {
		fmt.Fprintln(e.stdout, "no stored game reached this position and went on")
	}
	return exitOK
}

func archiveVerify(e *env, a *archive.Archive, args []string) int {
	fs := archiveFlags(e, "verify")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	checked, failed, err := a.Verify(e.ctx, func(id int64, err error) {
		fmt.Fprintf(e.stderr, "game %d no longer validates: %v\n", id, err)
	})
	if err != nil {
		return archiveFail(e, "verify", err)
	}
	fmt.Fprintf(e.stdout, "%d games checked, %d no longer validate\n", checked, failed)
	if failed > 0 {
		return exitInvalid
	}
	return exitOK
}
