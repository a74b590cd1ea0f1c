package mailread

import "icepost/rules/games"

// grammar is what the daemon gives the reader: the real list of games,
// and the verbs of its table of mail commands (pbem/mailcommands.go; the
// shapes here are the parser's test data; pbem's tests read lines with
// the table's own).
var grammar = Language{Games: games.Grammar{}, Verbs: []Syntax{
	{Verb: "move", Arg: OneMove, Bare: true},
	{Verb: "board"}, {Verb: "history"}, {Verb: "resign"}, {Verb: "draw"}, {Verb: "games"},
	{Verb: "help"}, {Verb: "accept"}, {Verb: "decline"}, {Verb: "undo"},
	{Verb: "observe", Arg: GameNumber},
	{Verb: "challenge", Arg: Challenge},
	{Verb: "seek", Arg: Seek},
	{Verb: "organize", Arg: Organize},
	{Verb: "climb", Arg: TwoNumbers},
	{Verb: "seeks"},
	{Verb: "unseek"},
	{Verb: "vacation", Arg: DaysOrOff},
	{Verb: "digest", Arg: OnOff},
	{Verb: "if", Arg: Conditions},
	{Verb: "conditions clear"},
	{Verb: "preview", Arg: Moves},
	{Verb: "moves", Arg: OptionalCell},
	{Verb: "analyze", Arg: OptionalGame},
}}

// lines is each command's canonical line.
func lines(cs []Command) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}
