package pbem

import (
	"strings"

	"icepost/pbem/mailread"
	"icepost/pbem/replytoken"
	"icepost/rules/games"
)

// The table of mail commands: every command a player can write by mail,
// in one place. The mail reader's list of verbs (Language), the help text
// (helpText) and the dispatch (dispatch.go) all read it, and so does the
// proof a command needs (proof.go): a new command is one entry here and
// its handler, and cannot be half-added (TestTableIsComplete).

// proof is what a mail must show before a command runs (docs/mail.md,
// "Who may act"). The zero value is no proof kind at all: an entry
// without one fails the table's test.
type proof int

const (
	_ proof = iota
	// readOnly commands change nothing and answer only the mail's From
	// (or, with a reply token, that token's seat).
	readOnly
	// forSeat commands act for a seat in one game: a reply token of that
	// game and seat from the seat's address, or a verified sender.
	forSeat
	// forSender commands act for the sender's address beyond one game (a
	// challenge seats them, a vacation pauses their clocks, observe
	// subscribes them): a token the server sent to that address, or a
	// verified sender.
	forSender
)

// gameFilter says which of the sender's games a command about one game
// can be about, when the mail carries no reply token of one.
type gameFilter struct {
	statuses []string
	toMove   bool // only games waiting for the sender's move
	// none, when set, is the answer when the sender has no such game.
	none string
}

// request is one command of a mail, with what dispatch found for it.
type request struct {
	cmd     mailread.Command
	comment string            // the mail's comment, when it goes with this command
	tok     *replytoken.Token // the reply token the mail carries, nil without
	// g and seat are the game the command is about and the sender's seat
	// there, for an entry with a gameFilter; else nil and 0.
	g    *game
	seat int
}

// mailCommand is one entry of the table.
type mailCommand struct {
	mailread.Syntax        // its words and what follows them
	usage           string // the help's left column: "preview MOVE..."
	help            string // the help's right column
	// more, when set, adds lines to the help (the games a challenge may
	// name: they are known only once every game is registered).
	more func() string
	// comment: the mail's comment goes with this command (a move, resign,
	// draw); else with the last command of the mail.
	comment bool
	proof   proof
	// about, when set, makes the command about one game: dispatch finds
	// it (the reply token's, or the sender's one game that fits) before
	// run, and asks which when several fit.
	about *gameFilter
	run   func(h *handling, r *request) error
}

var (
	activeGame  = &gameFilter{statuses: []string{statusActive}}
	waitingGame = &gameFilter{statuses: []string{statusActive}, toMove: true}
)

// mailCommands is the table, in the order of the help text. It is set
// in init, as cmd/go sets its commands' Run: the help command reads it.
var mailCommands []*mailCommand

func init() {
	mailCommands = []*mailCommand{
		{Syntax: mailread.Syntax{Verb: "move", Arg: mailread.OneMove, Bare: true},
			usage: "MOVE", help: "your move, in the game's notation (or: move MOVE); a line after it is a comment for the other players",
			comment: true, proof: forSeat, about: waitingGame, run: (*handling).move},
		{Syntax: mailread.Syntax{Verb: "board"},
			usage: "board", help: "the board now",
			proof: readOnly, about: activeGame, run: (*handling).board},
		{Syntax: mailread.Syntax{Verb: "history"},
			usage: "history", help: "the game's record",
			proof: readOnly, about: &gameFilter{statuses: []string{statusActive, statusFinished}}, run: (*handling).history},
		{Syntax: mailread.Syntax{Verb: "draw"},
			usage: "draw", help: "offer a draw, or accept one offered",
			comment: true, proof: forSeat, about: activeGame, run: (*handling).draw},
		{Syntax: mailread.Syntax{Verb: "resign"},
			usage: "resign", help: "give up the game",
			comment: true, proof: forSeat, about: activeGame, run: (*handling).resign},
		{Syntax: mailread.Syntax{Verb: "moves", Arg: mailread.OptionalCell},
			usage: "moves, moves CELL", help: "your legal moves now, by the piece that moves (or those of the piece on CELL, like e1)",
			proof: readOnly, about: activeGame, run: (*handling).legalMoves},
		{Syntax: mailread.Syntax{Verb: "preview", Arg: mailread.Moves},
			usage: "preview MOVE...", help: "the board after these moves, to you alone; nothing is played",
			proof: readOnly, about: activeGame, run: (*handling).preview},
		{Syntax: mailread.Syntax{Verb: "if", Arg: mailread.Conditions},
			usage: "if THEIRS then MINE [if THEIRS then MINE]...",
			help:  "after your move (two-player games): what you answer to your opponent's next moves, played at once when they come; any other move drops them",
			proof: forSeat, about: activeGame, run: (*handling).conditional},
		{Syntax: mailread.Syntax{Verb: "conditions clear"},
			usage: "conditions clear", help: "drop your conditional moves",
			proof: forSeat, about: activeGame, run: (*handling).clearConditions},
		{Syntax: mailread.Syntax{Verb: "games"},
			usage: "games", help: "your games, and whose turn it is",
			proof: readOnly, run: (*handling).listGames},
		{Syntax: mailread.Syntax{Verb: "challenge", Arg: mailread.Challenge},
			usage: "challenge GAME [option=value ...] ADDRESS ...",
			help:  "start a game with the players named (write bot instead of an address for a seat I play, and level=1 to 5 for its strength); the games:",
			more:  challengeHelp,
			proof: forSender, run: (*handling).challenge},
		{Syntax: mailread.Syntax{Verb: "seek", Arg: mailread.Seek},
			usage: "seek GAME [option=value ...]",
			help:  "a game with anyone: it starts as soon as another player seeks the same (rating=LOW-HIGH for the opponents' ratings you take on); open 7 days",
			proof: forSender, run: (*handling).seek},
		{Syntax: mailread.Syntax{Verb: "seeks"},
			usage: "seeks, unseek", help: "the open seeks, with the line that meets each; take yours back",
			proof: readOnly, run: (*handling).listSeeks},
		{Syntax: mailread.Syntax{Verb: "unseek"},
			proof: forSender, run: (*handling).unseek},
		{Syntax: mailread.Syntax{Verb: "tournaments"},
			usage: "tournaments", help: "the tournaments you may join, and yours",
			proof: readOnly, run: (*handling).eventCommand},
		{Syntax: mailread.Syntax{Verb: "join", Arg: mailread.GameNumber},
			usage: "join NUMBER, withdraw NUMBER", help: "enter a tournament, or leave it",
			proof: forSender, run: (*handling).eventCommand},
		{Syntax: mailread.Syntax{Verb: "withdraw", Arg: mailread.GameNumber},
			proof: forSender, run: (*handling).eventCommand},
		{Syntax: mailread.Syntax{Verb: "standings", Arg: mailread.GameNumber},
			usage: "standings NUMBER", help: "a tournament's table (a ladder's list)",
			proof: readOnly, run: (*handling).eventCommand},
		{Syntax: mailread.Syntax{Verb: "climb", Arg: mailread.TwoNumbers},
			usage: "climb NUMBER PLACE, defend NUMBER", help: "on ladder NUMBER, challenge the player at PLACE; answer a challenge against you",
			proof: forSender, run: (*handling).eventCommand},
		{Syntax: mailread.Syntax{Verb: "defend", Arg: mailread.GameNumber},
			proof: forSender, run: (*handling).eventCommand},
		{Syntax: mailread.Syntax{Verb: "organize", Arg: mailread.Organize},
			usage: "organize GAME FORMAT [setting=value ...] NAME",
			help:  "for the players the server names as starters: a tournament, open for players to join (FORMAT roundrobin, swiss, knockout or ladder; settings rounds=N, start=full or start=YYYY-MM-DD, max=N, days=N, deadline=N, ... and the game's options)",
			proof: forSender, run: (*handling).eventCommand},
		{Syntax: mailread.Syntax{Verb: "accept"},
			usage: "accept, decline", help: "answer a challenge",
			proof: forSeat, about: &gameFilter{statuses: []string{statusInvited}}, run: (*handling).accept},
		{Syntax: mailread.Syntax{Verb: "decline"},
			proof: forSeat, about: &gameFilter{statuses: []string{statusInvited}}, run: (*handling).decline},
		{Syntax: mailread.Syntax{Verb: "observe", Arg: mailread.GameNumber},
			usage: "observe NUMBER", help: "follow someone else's game",
			proof: forSender, run: (*handling).observe},
		{Syntax: mailread.Syntax{Verb: "undo"},
			usage: "undo", help: "take back your last move, if all agree",
			proof: forSeat, about: activeGame, run: (*handling).undo},
		{Syntax: mailread.Syntax{Verb: "vacation", Arg: mailread.DaysOrOff},
			usage: "vacation DAYS, vacation off", help: "pause your clocks in all your games",
			proof: forSender, run: (*handling).vacation},
		{Syntax: mailread.Syntax{Verb: "puzzle", Arg: mailread.OnOff},
			usage: "puzzle on|off", help: "a puzzle a day from the server's games (a position where a player missed a forced win): reply with your move",
			proof: forSender, run: (*handling).puzzleCommand},
		{Syntax: mailread.Syntax{Verb: "digest", Arg: mailread.OnOff},
			usage: "digest on, digest off", help: "one mail a day listing the games waiting for you",
			proof: forSender, run: (*handling).digestCommand},
		{Syntax: mailread.Syntax{Verb: "confirm", Arg: mailread.OnOff},
			usage: "confirm on, confirm off", help: "a short mail for each of your own moves (on), or none",
			proof: forSender, run: (*handling).confirmCommand},
		{Syntax: mailread.Syntax{Verb: "analyze", Arg: mailread.OptionalGame},
			usage: "analyze, analyze NUMBER",
			help:  "once a game has ended: the computer's analysis of every move, its mistakes marked with the better moves, and a graph of how the odds went; by mail when it is made (minutes). In a reply to the game's last board, or with the game's number",
			proof: forSeat, about: finishedGame, run: (*handling).analyze},
		{Syntax: mailread.Syntax{Verb: "help"},
			usage: "help", help: "this text",
			proof: readOnly, run: (*handling).help},
	}
}

// Language is what the daemon's mail reader knows: the games' words and
// the table's verbs. `icepost mail parse` reads with it too.
func Language() mailread.Language {
	verbs := make([]mailread.Syntax, len(mailCommands))
	for i, c := range mailCommands {
		verbs[i] = c.Syntax
	}
	return mailread.Language{Games: games.Grammar{}, Verbs: verbs}
}

// commandFor is the table's entry of a verb the reader gave.
func commandFor(verb string) *mailCommand {
	for _, c := range mailCommands {
		if c.Verb == verb {
			return c
		}
	}
	return nil
}

// helpText is the commands, from the table, for help mails; example,
// when not "", is a legal move of the game the mail is about, shown as
// what a move looks like (no game's move is shown for another's).
func helpText(example string) string {
	var b strings.Builder
	b.WriteString(`icepost plays Icehouse pyramid games by mail. Write commands at the top of
your mail, one a line; for a game, reply to its latest mail.

`)
	if example != "" {
		b.WriteString("A move in your game now looks like this: " + example + "\n\n")
	}
	for _, c := range mailCommands {
		if c.usage == "" {
			continue // told with the entry before it
		}
		left := "  " + c.usage
		if len(left) > helpColumn-2 {
			b.WriteString(left + "\n")
			left = ""
		}
		b.WriteString(wrapHelp(left, c.help))
		if c.more != nil {
			b.WriteString(c.more())
		}
	}
	return b.String()
}

// challengeHelp is the games a challenge may name and its options.
func challengeHelp() string {
	return wrapHelp("", strings.Join(games.Names(), ", ")+"; options:") +
		wrapHelp("", strings.Join(challengeOptions(), ", "))
}

// challengeOptions lists the options a challenge takes: the server's own,
// then each game's, with the games that take it.
func challengeOptions() []string {
	out := []string{"seats=random", "days=N (per move, or none)"}
	var usages []string
	takers := map[string][]string{}
	for _, g := range games.All() {
		for _, opt := range g.Info().Options {
			u := opt.Usage()
			if takers[u] == nil {
				usages = append(usages, u)
			}
			takers[u] = append(takers[u], g.Name())
		}
	}
	for _, u := range usages {
		out = append(out, u+" ("+strings.Join(takers[u], ", ")+")")
	}
	return out
}

// helpColumn is where the help's second column starts.
const helpColumn = 29

// wrapHelp writes text in the help's second column, after left (shorter
// than the column, or ""), wrapped to fit a 78-character line.
func wrapHelp(left, text string) string {
	indent := strings.Repeat(" ", helpColumn)
	var b strings.Builder
	line := left + indent[len(left):]
	for _, w := range strings.Fields(text) {
		if len(line) > helpColumn && len(line)+1+len(w) > 78 {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > helpColumn {
			line += " "
		}
		line += w
	}
	return b.String() + line + "\n"
}
