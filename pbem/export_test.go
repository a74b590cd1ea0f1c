package pbem

import "time"

// The game service's inner names that its tests (package pbem_test, which
// drive it through the daemon as the binary does) look at: tables, texts
// and limits whose exact values the tests check.

var (
	ActiveGame   = activeGame
	AnalysisText = analysisText
	EditDistance = editDistance
	EvalChart    = evalChart
	HelpText     = helpText
	MailCommands = mailCommands
	MailKey      = mailKey
	NameOf       = nameOf
	Nearest      = nearest
	Plural       = plural
	RawKey       = rawKey
	SeatAnalysis = seatAnalysis
	WrapCode     = wrapCode
)

const (
	BotAnswerWait  = botAnswerWait
	ChartHeight    = chartHeight
	ForSeat        = forSeat
	ForSender      = forSender
	ReadOnly       = readOnly
	StatusActive   = statusActive
	StatusFinished = statusFinished
	WebLimit       = webLimit
)

type (
	Game        = game
	Handling    = handling
	MailCommand = mailCommand
	Seat        = seat
)

// PlusAddress is the server's address with a detail (games+DETAIL@host).
func (s *Handler) PlusAddress(detail string) string { return s.plusAddress(detail) }

// Analyses is how many analyses the server made since the process started,
// and their time in all.
func (s *Handler) Analyses() (n uint64, total time.Duration) { return s.madeAnalyses() }

// MailAnalysisLevel is the level of the analyses asked by mail.
func (b Bots) MailAnalysisLevel() int { return b.analysisLevel() }

// ActingCommand is an entry of the command table that acts for someone
// (its proof is not readOnly), for the forgery tests.
type ActingCommand struct {
	Verb            string
	AboutActiveGame bool // a mail without a game number is about the sender's active game
}

// ActingCommands lists the table's acting entries, in its order.
func ActingCommands() []ActingCommand {
	var out []ActingCommand
	for _, mc := range mailCommands {
		if mc.proof != readOnly {
			out = append(out, ActingCommand{Verb: mc.Verb, AboutActiveGame: mc.about == activeGame})
		}
	}
	return out
}
