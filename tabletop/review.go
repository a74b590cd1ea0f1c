package tabletop

import (
	"fmt"
	"strconv"
	"strings"

	"icepost/analysis"
	"icepost/engine"
	"icepost/rules"
)

// review analyses the finished game (package analysis) and shows it: the
// moves with their marks and the mover's estimate after each, each
// seat's average loss, and the three worst moves with the engine's.
func (s *Session) review(arg string) {
	if !s.game.Over() {
		s.printf("review: the game is not over; the analysis is for a finished game (hint suggests a move now).\n")
		return
	}
	n := s.game.Ply()
	if n == 0 {
		s.printf("Nothing to review: no move was played.\n")
		return
	}
	level := analysis.DefaultLevel
	if arg != "" {
		l, err := strconv.Atoi(arg)
		if err != nil || l < 1 || l > engine.MaxLevel {
			s.printf("review [LEVEL]: the level is a number from 1 to %d (default %d).\n", engine.MaxLevel, analysis.DefaultLevel)
			return
		}
		level = l
	}
	s.printf("Analysing %s at level %d:", plural(n, "move"), level)
	step := max(1, n/10)
	opt := analysis.Options{Level: level, Seed: s.cfg.Engine.Seed, Workers: s.cfg.Engine.Workers,
		Progress: func(done, total int) {
			if done%step == 0 && done < total {
				s.printf(" %d", done)
			}
		}}
	r, err := analysis.Analyze(s.ctx(), s.game.Record, opt)
	if err != nil {
		s.printf("\nreview: %v\n", err)
		return
	}
	s.printf(" done.\n\n")
	s.printReview(r)
}

// printReview writes a report: the moves a round to a line, each with its
// mark and the mover's estimate after it in percent, then each seat's
// average loss and the three worst moves.
func (s *Session) printReview(r *analysis.Report) {
	var line strings.Builder
	for i, m := range r.Moves {
		if i%r.Seats == 0 {
			if line.Len() > 0 {
				s.printf("%s\n", strings.TrimRight(line.String(), " "))
				line.Reset()
			}
			fmt.Fprintf(&line, "%4d.", i/r.Seats+1)
		}
		fmt.Fprintf(&line, " %-14s", fmt.Sprintf("%s%s %.0f%%", m.Token, m.Mark.Symbol(), 100*m.After))
	}
	s.printf("%s\n\n", strings.TrimRight(line.String(), " "))
	var losses []string
	for k := 1; k <= r.Seats; k++ {
		if l, n := r.MeanLoss(k); n > 0 {
			losses = append(losses, fmt.Sprintf("%s %.3f", s.seatName(k), l))
		}
	}
	s.printf("Average loss a move: %s.\n", joinAnd(losses))
	marked := r.Marked()
	if len(marked) == 0 {
		s.printf("No move is marked: the engine found no inaccuracy, mistake or blunder.\n")
		return
	}
	s.printf("The worst moves:\n")
	for _, m := range marked[:min(3, len(marked))] {
		var before rules.State
		if m.Ply-1 < len(s.game.States) {
			before = s.game.States[m.Ply-1]
		}
		s.printf("%s\n", worstMove(before, m, r.Seats, s.seatName(m.Seat)))
	}
}

// worstMove is the review's line of a marked move m by who, played in
// before (nil when not known): what it kept against what could be kept,
// and the engine's move, or that it missed a win in one.
func worstMove(before rules.State, m analysis.Move, seats int, who string) string {
	line := fmt.Sprintf("  Move %s %s%s by %s, %s: ", analysis.MoveNumber(m.Ply, seats), m.Token, m.Mark.Symbol(), who, m.Mark.WithArticle())
	if before != nil && analysis.MissedWin(before, m) {
		return line + "it missed a win, " + m.Better + " wins at once."
	}
	line += fmt.Sprintf("it kept %.0f%% of winning chances where %.0f%% could be kept", 100*m.After, 100*m.Before)
	if m.Better != "" {
		line += fmt.Sprintf("; the engine plays %s (%.0f%%)", m.Better, 100*m.BetterEval)
	}
	return line + "."
}
