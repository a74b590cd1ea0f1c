// icepost tournament: the operator's tournaments (package pbem/events):
// create, list, show, start, cancel, pair.

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"icepost/pbem"
	"icepost/pbem/events"
	"icepost/tournament"
)

func cmdTournament(e *env, args []string) int { return operator(e, "tournament", args) }

// stringList is a flag given several times, or once with commas.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error {
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			*l = append(*l, s)
		}
	}
	return nil
}

func tournamentCreate(e *env, srv *pbem.Handler, args []string) int {
	fs := newFlags(e, "tournament", "create")
	game := fs.String("game", "", "the game (IceSickle, Pikemen, ...)")
	format := fs.String("format", "", "roundrobin, swiss, knockout or ladder")
	seats := fs.Int("seats", 0, "players a game (3 or 4: round robin at tables); default the game's least")
	rounds := fs.Int("rounds", 0, "rounds of a Swiss")
	double := fs.Bool("double", false, "round robin of two seats: everyone meets twice, seats swapped")
	sections := fs.Int("sections", 0, "round robin: seeded sections (by rating, in snake order)")
	final := fs.Bool("final", false, "round robin with sections: a final of the section winners")
	byRounds := fs.Bool("by-rounds", false, "round robin: a round starts when the last has ended (default: all games at once)")
	maxPlayers := fs.Int("max", 0, "the most players it takes (0: no limit)")
	days := fs.Int("days", 0, "days per move (0: no time limit)")
	deadline := fs.Int("deadline", 0, "days a game may last: one still under way then is ended a draw, so the next round can start (0: none; not for a ladder)")
	reach := fs.Int("reach", 0, "ladder: how many places above a player may challenge (default 3)")
	answer := fs.Int("answer-days", 0, "ladder: days a challenge waits for its answer before it is lost (default 7)")
	start := fs.String("start", "", "when it starts by itself: a date (2026-12-24 or 2026-12-24T18:00), or full (when -max have joined); default: when you start it")
	var players, options stringList
	fs.Var(&players, "players", "players who join at once: addresses, or bot:LEVEL for the server's bot (give it several times, or with commas)")
	fs.Var(&options, "option", "a game option, name=value (target=15, board=hex); give it several times")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 || *game == "" || *format == "" {
		fmt.Fprintln(e.stderr, "icepost tournament create: give -game, -format and one NAME (quote a name with spaces)")
		fs.Usage()
		return exitUsage
	}
	spec := events.Spec{Name: fs.Arg(0), Game: *game, Format: tournament.Format(*format), Seats: *seats, Days: *days, Players: players,
		Settings: tournament.Options{Rounds: *rounds, Double: *double, Sections: *sections, Final: *final, ByRounds: *byRounds, MaxPlayers: *maxPlayers,
			Deadline: *deadline, Reach: *reach, Days: *answer}}
	if len(options) > 0 {
		spec.Options = map[string]string{}
		for _, o := range options {
			k, v, ok := strings.Cut(o, "=")
			if !ok {
				fmt.Fprintf(e.stderr, "icepost tournament create: -option %q: write name=value, like target=15\n", o)
				return exitUsage
			}
			spec.Options[strings.ToLower(k)] = v
		}
	}
	switch *start {
	case "":
	case "full":
		spec.WhenFull = true
	default:
		var err error
		if spec.StartsAt, err = parseStart(*start); err != nil {
			fmt.Fprintf(e.stderr, "icepost tournament create: -start %q: %v\n", *start, err)
			return exitUsage
		}
	}
	svc := &events.Service{Handler: srv}
	id, err := svc.Create(e.ctx, spec)
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost tournament create: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(e.stdout, "tournament %d created: %s (players join by mail with: join %d)\n", id, spec.Name, id)
	return exitOK
}

// parseStart reads a start date: 2026-12-24 (midnight UTC) or
// 2026-12-24T18:00 (UTC).
func parseStart(s string) (time.Time, error) {
	for _, layout := range []string{"2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, errors.New("give a date like 2026-12-24 or 2026-12-24T18:00 (UTC), or full")
}

func tournamentList(e *env, srv *pbem.Handler, args []string) int {
	if len(args) != 0 {
		fmt.Fprintln(e.stderr, "icepost tournament list: no arguments")
		return exitUsage
	}
	evs, err := (&events.Service{Handler: srv}).List(e.ctx)
	if err != nil {
		return failed(e, "tournament list", err)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tGAME\tFORMAT\tSTATUS\tPLAYERS\tGAMES")
	for _, ev := range evs {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\t%d\n", ev.ID, ev.Name, ev.Game, ev.T.Format, ev.Status, len(ev.T.Players), len(ev.GameIDs))
	}
	tw.Flush()
	return exitOK
}

// tournamentID reads the one argument of show, start, cancel and pair.
func tournamentID(e *env, what string, args []string) (int64, bool) {
	if len(args) != 1 {
		fmt.Fprintf(e.stderr, "icepost tournament %s: give one tournament number\n", what)
		return 0, false
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(args[0], "#"), 10, 64)
	if err != nil || id < 1 {
		fmt.Fprintf(e.stderr, "icepost tournament %s: %q is not a tournament number\n", what, args[0])
		return 0, false
	}
	return id, true
}

func tournamentShow(e *env, srv *pbem.Handler, args []string) int {
	fs := newFlags(e, "tournament", "show")
	asJSON := fs.Bool("json", false, "the whole tournament as JSON: settings, players, games with their numbers by mail, standings")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	id, ok := tournamentID(e, "show", fs.Args())
	if !ok {
		return exitUsage
	}
	ev, err := (&events.Service{Handler: srv}).Show(e.ctx, id)
	if errors.Is(err, events.ErrNoEvent) {
		fmt.Fprintf(e.stderr, "icepost tournament show: %v\n", err)
		return exitInvalid
	}
	if err != nil {
		return failed(e, "tournament show", err)
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{"id": ev.ID, "name": ev.Name, "game": ev.Game, "options": ev.Options, "days": ev.Days,
			"status": ev.Status, "tournament": ev.T, "mailGames": ev.GameIDs, "standings": ev.T.Standings()}); err != nil {
			return failed(e, "tournament show", err)
		}
		return exitOK
	}
	fmt.Fprintf(e.stdout, "Tournament %d: %s (%s), %s, %s\n\n", ev.ID, ev.Name, ev.Status, ev.Game, ev.T.Format)
	round := 0
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	for _, g := range ev.T.Games {
		if g.Round != round {
			round = g.Round
			fmt.Fprintf(tw, "Round %d\t\t\t\n", round)
		}
		result, game := "*", "-"
		switch {
		case g.Bye:
			result = "bye"
		case g.Annulled:
			result = "annulled"
		case g.Result != nil:
			result = g.Result.String()
		}
		if id, ok := ev.GameIDs[g.Tag()]; ok {
			game = "game " + strconv.FormatInt(id, 10)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", g.Tag(), strings.Join(g.Players, " – "), result, game)
	}
	tw.Flush()
	fmt.Fprintf(e.stdout, "\n%s", events.StandingsText(ev))
	return exitOK
}

func tournamentStart(e *env, srv *pbem.Handler, args []string) int {
	return tournamentDo(e, srv, "start", args, (*events.Service).Start, "started: its first games are queued")
}

func tournamentCancel(e *env, srv *pbem.Handler, args []string) int {
	return tournamentDo(e, srv, "cancel", args, (*events.Service).Cancel, "cancelled: its players are told")
}

func tournamentPair(e *env, srv *pbem.Handler, args []string) int {
	return tournamentDo(e, srv, "pair", args, (*events.Service).Pair, "paired: the results so far recorded, the games due started")
}

// tournamentDo runs one action on a tournament, whose mails go to the
// outbox for the daemon to send.
func tournamentDo(e *env, srv *pbem.Handler, what string, args []string, do func(*events.Service, context.Context, int64) error, done string) int {
	id, ok := tournamentID(e, what, args)
	if !ok || !needMail(e, srv, "tournament "+what) {
		return exitUsage
	}
	if err := do(&events.Service{Handler: srv}, e.ctx, id); err != nil {
		fmt.Fprintf(e.stderr, "icepost tournament %s: %v\n", what, err)
		return exitInvalid
	}
	fmt.Fprintf(e.stdout, "tournament %d %s\n", id, done)
	return exitOK
}
