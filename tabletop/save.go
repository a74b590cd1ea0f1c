package tabletop

import (
	"fmt"
	"icepost/notation"
	"os"
	"path/filepath"
	"strings"
)

// Choosing the file, writing the record after every change, and finishing.

// choosePath picks the file to write, asking before replacing one.
func (s *Session) choosePath() {
	path := s.cfg.Path
	if path == "" {
		path = filepath.Join(s.cfg.Dir, DefaultName(s.cfg.Game.Name(), s.tagOr("Date", ""), s.players()))
	}
	if !exists(path) || s.cfg.Resume != nil && path == s.cfg.Path {
		// A resumed game goes back into the file it came from.
		s.path = path
		s.then = s.open
		return
	}
	free := FreeName(path)
	if !s.cfg.Ask {
		s.printf("%s exists already: writing to %s instead.\n", path, free)
		s.path = free
		s.then = s.open
		return
	}
	s.asks = append(s.asks, question{
		prompt: fmt.Sprintf("%s exists already. Replace it? [y/N]: ", path),
		answer: func(a string) bool {
			if yes(a) {
				s.path = path
			} else {
				s.path = free
			}
			return true
		},
	})
	s.then = s.open
}

func yes(a string) bool {
	a = strings.ToLower(strings.TrimSpace(a))
	return a == "y" || a == "yes"
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// open starts taking moves.
func (s *Session) open() {
	s.opened = true
	s.printf("The record is written to %s after every move.\n\n", s.path)
	if s.cfg.Resume != nil && s.game.Ply() > 0 {
		n := s.game.Ply()
		s.printf("The last move: move %d, %s by %s.\n\n", n, s.game.Token(n), s.seatName(s.game.States[n-1].ToMove()))
	}
	s.save()
	s.showCurrent()
	s.playComputer() // the engine may have the first move
}

// Finish writes the record and ends the session, saying where the record
// is. It does nothing when the session has ended already, and writes no
// file when the session was stopped before its file was chosen.
func (s *Session) Finish() {
	if s.done {
		return
	}
	s.done = true
	if !s.opened {
		s.printf("\nStopped before the first move: nothing written.\n")
		return
	}
	if err := s.save(); err != nil {
		return
	}
	rec := s.Record()
	state := "finished"
	if rec.Result == "*" {
		state = "unfinished (result *)"
	}
	s.printf("\nRecord of %s, %s, written to %s\n", plural(s.game.Ply(), "move"), state, s.path)
}

// Record returns the record so far: the tags, the moves with their
// comments, and the result (* while the game goes on). It is the session's
// own: read it, do not change it.
func (s *Session) Record() *notation.Record { return s.game.Record }

// save writes the record so far to the session's file.
func (s *Session) save() error {
	if s.path == "" {
		return nil
	}
	err := s.cfg.Save(s.path, notation.AppendFormat(nil, s.Record()))
	if err != nil {
		s.printf("Could not write %s: %v\nThe game is kept here: type save to try again, or quit to stop.\n", s.path, err)
	}
	s.saved = err
	return err
}
