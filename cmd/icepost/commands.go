// The command table: every command of icepost and every subcommand, with
// the words its usage says. run dispatches through it; help, the list of
// commands and every -h print from it.

package main

import "icepost/pbem"

// A command is one command of icepost, or one subcommand of a command.
type command struct {
	name string
	// args follows the command's name in its usage line.
	args string
	// summary is the command's line in the list of its parent's
	// commands; its usage says it as a sentence, unless doc is set.
	summary string
	// doc is what the usage says the command does. Without it, a command
	// with subcommands says nothing there.
	doc string
	// run runs the command on the arguments after its name. A
	// subcommand's finds in the env what its parent opened.
	run func(e *env, args []string) int
	// subcommands follow the command's own flags.
	subcommands []command
	// subHelp says that each subcommand has flags and an -h of its own:
	// the list of them leaves their arguments to it.
	subHelp bool
}

// commands are icepost's commands, in the order help lists them.
var commands []command

func init() {
	// Set here rather than in its declaration because help and the
	// usages refer to the table itself.
	commands = []command{
		{name: "serve", args: "[-config FILE] [-check] [-dry-run] [-q] [-db PATH] [-imap ADDR] [-smtp ADDR] [-web ADDR]", summary: "run the mail daemon (without a config: on an embedded mail system); -check checks the settings",
			doc: "Run the mail daemon (without a config: on an embedded mail system). With -check, check the settings instead: the\ndatabase, and a login to IMAP and SMTP with TLS as configured; it says what works and what to fix, sends nothing,\nchanges nothing, and exits 0 only when all works. serve makes the same check of IMAP and SMTP at its start.\nWith -web ADDR (or web_addr in the config), serve also runs the web site and the play pages board mails link to.",
			run: cmdServe},
		{name: "secret", args: "FILE", summary: "write a new token secret to FILE for the config's secret_file (mode 0600; never replaces one)", run: cmdSecret},
		{name: "backup", args: "[-config FILE | -db FILE]... DIR", summary: "copy the daemon's database into DIR, consistent while it runs, and check the copy", run: cmdBackup},
		{name: "demo", args: "[-moves N] [-seed X] [-dir DIR]", summary: "watch two scripted players play a game by mail", run: cmdDemo},
		{name: "mail", args: "parse [-json] [FILE]", summary: "what the daemon reads out of one mail", run: cmdMail},
		{name: "validate", args: "[-q] FILE...", summary: "parse and replay records (icepost's, or Abstract Play's APGameRecord JSON); file:line:col: errors", run: cmdValidate},
		{name: "fmt", args: "[-w] [-format records|ap] FILE...", summary: "write records in canonical form, or as Abstract Play's APGameRecord JSON (-format ap)", run: cmdFmt},
		{name: "show", args: "[-format text|svg|png] [-ply N] [-view SEAT] [-o FILE] FILE | -code CODE", summary: "the board after any ply of a record, or of a position code, as text or a picture", run: cmdShow},
		{name: "moves", args: "FILE", summary: "the legal moves at the end of a record, one per line", run: cmdMoves},
		{name: "perft", args: "-depth N [-seats S] [-board B] [-target T] GAME|FILE", summary: "count move-generation nodes", run: cmdPerft},
		{name: "analyze", args: "[-level L] [-o FILE] [-seed S] [-workers W] FILE...", summary: "the engine's analysis written into records: each move's estimate, ?! ? ?? marks, the better move",
			doc: analyzeDoc, run: cmdAnalyze},
		{name: "match", args: "-game G [-seats S] [-board B] [-target T] [-n K] [-seed X] [-move-time D] [-workers N] [-parallel P] [-max-plies N] [-o FILE [-resume]] PLAYER...", summary: "games between computer players (random, bot:LEVEL), seats rotating, with each player's results",
			doc: "Play K games between the players named (random, or bot:LEVEL with a level from 1 to 5), one a seat, rotating the seats from game to game, and say each player's wins, draws, losses and score with a 95% interval.", run: cmdMatch},
		{name: "selfplay", args: "-game G [-seats S] [-board B] [-target T] [-n K] [-seed X] [-max-plies N]", summary: "write K random games as records", run: cmdSelfplay},
		{name: "archive", args: "[-db PATH] COMMAND [flags] [args]", summary: "the archive of finished games",
			doc: "The archive of finished games, in one SQLite file.", run: cmdArchive, subHelp: true, subcommands: []command{
				{name: "import", args: "FILE...|-", summary: "add record files (also .gz, and Abstract Play's APGameRecord JSON) to the archive; invalid records go to quarantine",
					doc: "Add record files (also .gz, and Abstract Play's APGameRecord JSON, told by content) to the archive;\ninvalid records go to quarantine. All the files are\none import: records are replayed on every core and stored in batches (the first of 1,000 records,\neach later one an eighth of what was stored before, up to -batch). The import runs Go's garbage\ncollector at GOGC=200 unless GOGC is set (GOGC=100 uses a third less memory, a little more time).",
					run: onArchive(archiveImport)},
				{name: "search", args: "[filters] [-limit N] [-offset N] [-count] [-format table|records|json|ap]", summary: "list the games the filters select", run: onArchive(archiveSearch)},
				{name: "show", args: "ID", summary: "a stored game's record and final board", run: onArchive(archiveShow)},
				{name: "export", args: "[filters] [-format records|ap]", summary: "the selected games as a record file, or as Abstract Play's APGameRecord JSON (-format ap)", run: onArchive(archiveExport)},
				{name: "delete", args: "ID...", summary: "remove games", run: onArchive(archiveDelete)},
				{name: "quarantine", args: "[retry]", summary: "list the records that did not replay, or retry them under the current rules", run: onArchive(archiveQuarantine)},
				{name: "alias", args: "NAME SPELLING...", summary: "merge other spellings of a player's name into NAME", run: onArchive(archiveAlias)},
				{name: "stats", args: "[filters] [-players N] [-format table|json] | -explore [-position CODE] -game G", summary: "seat wins, lengths and player results, or the moves played from a position", run: onArchive(archiveStats)},
				{name: "ratings", args: "[-game G] [-limit N] [-format table|json]", summary: "Glicko-2 ratings per game from the decided games (aliases count as one player)", run: onArchive(archiveRatings)},
				{name: "verify", args: "", summary: "replay every stored game under the current rules", run: onArchive(archiveVerify)},
				{name: "analyze", args: "[filters] [-level L] [-workers W] [-seed S] [-limit N] [-q]", summary: "the engine's analysis of stored games, written into their records (games analysed at that level are skipped)",
					doc: "The engine's analysis of the games the filters select, written into their stored records in place\n(an [%eval] comment after each move, ?! ? ?? as NAGs, the better move as a variation: docs/notation.md)\nand kept beside them for search -blunder and the players' average loss. Each game is stored in its own\ntransaction: a run that is stopped keeps what it stored, and the same command again does the rest.\nGames already analysed at the level are skipped; a record imported with an analysis at the level is\nstored from it without searching. -workers games are analysed at once, each on one core.",
					run: onArchive(archiveAnalyze)},
				{name: "puzzles", args: "[filters] [-o FILE] [-again] [-budget N] [-workers W] [-limit N] [-q]", summary: "the puzzles of the selected games (each missed forced win in one to three moves), found in the games not searched before, stored, and written as records",
					doc: "The puzzles of the games the filters select, as records: each position of a game of two seats where the\nplayer to move had a forced win in one to three moves (proved by the exact search) and played a move\nthat did not keep it, with the position as Setup, [Puzzle \"wins in N\"], and the solution as the main line.\nThe games not searched before are searched first (seconds a game; -again searches all), each stored in\nits own transaction, so that the web site's /puzzles serves them without searching.",
					run: onArchive(archivePuzzles)},
			}},
		{name: "web", args: "[-addr 127.0.0.1:8080] [-db FILE] [-mail-db FILE | -config FILE] [-q]", summary: "the web site (with -config, its play pages too): search, games move by move, the explorer, players and ratings, games by mail",
			doc: "Serve the web site over the archive (-db) and, with -mail-db, over the mail daemon's games in progress. It only reads; it listens on loopback unless -addr says otherwise.", run: cmdWeb},
		{name: "games", args: "[-db PATH | -config FILE] COMMAND [args]", summary: "the operator's view of the games by mail", run: cmdGames, subcommands: []command{
			{name: "list", args: "", summary: "every game: status, players, whose turn, time left", run: onServer(gamesList)},
			{name: "show", args: "ID", summary: "a game's record and board", run: onServer(gamesShow)},
			{name: "cancel", args: "ID", summary: "end a game without a result; the players are told", run: onServer(gamesCancel)},
			{name: "adjudicate", args: "ID RESULT", summary: "end a game with the result given (1-0, 0-1, 1/2-1/2, 1-0-0 ...) and archive it (Termination \"abandoned\")", run: onServer(gamesAdjudicate)},
		}},
		{name: "players", args: "[-db PATH | -config FILE] COMMAND [args]", summary: "the players by mail; block or unblock an address; export or forget what is kept about one", run: cmdPlayers, subcommands: []command{
			{name: "list", args: "", summary: "every player: active games, vacation days left, digest, blocked, ratings", run: onServer(playersList)},
			{name: "block", args: "ADDRESS", summary: "ignore an address's mail: no replies, no challenges, no moves", run: onServer(func(e *env, srv *pbem.Handler, args []string) int { return playersBlock(e, srv, args, true) })},
			{name: "unblock", args: "ADDRESS", summary: "answer an address again", run: onServer(func(e *env, srv *pbem.Handler, args []string) int { return playersBlock(e, srv, args, false) })},
			{name: "export", args: "ADDRESS", summary: "everything kept about a player, as JSON: games and records, settings, vacations, mails from and to them, archived games", run: onServer(playersExport)},
			{name: "forget", args: "ADDRESS", summary: "replace a player's address and name by a pseudonym everywhere, the archive's records included; the games stay", run: onServer(playersForget)},
		}},
		{name: "tournament", args: "[-db PATH | -config FILE] COMMAND [args]", summary: "tournaments by mail: create one, list, show, start, cancel, pair", run: cmdTournament, subcommands: []command{
			{name: "create", args: "-game G -format roundrobin|swiss|knockout|ladder [-rounds N] [-double] [-sections K] [-final] [-by-rounds] [-seats N] [-max N] [-days N] [-deadline DAYS] [-reach N] [-answer-days N] [-start DATE|full] [-players ADDR,...] [-option name=value]... NAME",
				summary: "a new tournament, open for players to join by mail (join N); bot:LEVEL players fill a field", run: onServer(tournamentCreate)},
			{name: "list", args: "", summary: "every tournament: format, status, players, games", run: onServer(tournamentList)},
			{name: "show", args: "[-json] ID", summary: "a tournament's rounds with their games by mail and results, and its standings with tie-breaks", run: onServer(tournamentShow)},
			{name: "start", args: "ID", summary: "start an open tournament now: seed it, queue its first games", run: onServer(tournamentStart)},
			{name: "cancel", args: "ID", summary: "stop a tournament; its games under way go on as games by mail", run: onServer(tournamentCancel)},
			{name: "pair", args: "ID", summary: "record the results so far and start the games due, now (the running daemon does it every minute)", run: onServer(tournamentPair)},
		}},
		{name: "outbox", args: "[-db PATH | -config FILE] COMMAND [args]", summary: "the mails the daemon has not sent: list them, send again those given up", run: cmdOutbox, subcommands: []command{
			{name: "list", args: "[-failed]", summary: "the mails waiting or given up (-failed: given up only), oldest first, with their last error", run: onServer(outboxList)},
			{name: "retry", args: "ID|all", summary: "make a mail given up (or waiting; all: every one) due now: the running daemon sends it within a minute", run: onServer(outboxRetry)},
		}},
		{name: "record", args: "GAME [-seats S] [-board B] [-target T] [-o FILE] [-event E] [-site S] [-date YYYY.MM.DD] [-player NAME]... | -resume FILE",
			summary: "record a game played at the table", doc: recordDoc(), run: cmdRecord},
		{name: "play", args: "GAME [-seats N] [-board B] [-target T] [-level L] [-seat S] [-o FILE] [-player NAME] [-move-time D] [-seed X]",
			summary: "play a game against the engine at the terminal", doc: playDoc(), run: cmdPlay},
		{name: "version", args: "", summary: "the version of icepost and the source revision it was built from", run: cmdVersion},
		{name: "help", args: "[COMMAND]", summary: "this text, or one command's flags", run: cmdHelp},
	}
}

// find returns the command at path: a command's name, then the names of
// its subcommands. It returns nil when there is none.
func find(path ...string) *command {
	c := &command{subcommands: commands}
	for _, name := range path {
		if c = c.sub(name); c == nil {
			return nil
		}
	}
	return c
}

// sub returns c's subcommand name, or nil.
func (c *command) sub(name string) *command {
	for i := range c.subcommands {
		if c.subcommands[i].name == name {
			return &c.subcommands[i]
		}
	}
	return nil
}
