// Package notation reads and writes icepost's game records (the format of
// shared/NOTATION.md and docs/notation.md): a hand-written scanner and
// parser that give every problem a position, a canonical formatter whose
// output does not change when formatted again, and the replay that checks a
// record against its game's rules.
//
// Parsing (Parse) knows only the syntax; Replay gives it meaning, the way
// go/parser and go/types split the work. A broken record is reported and
// the next record in the input is still read.
package notation

import (
	"strconv"
	"strings"
)

// Tag is one [Name "value"] pair.
type Tag struct {
	Name, Value string
	Pos         Pos
}

// Move is one token of movetext with what is attached to it.
type Move struct {
	Token      string
	Pos        Pos
	Number     int      // the move number written before it, 0 when none
	NumberPos  Pos      // where that number stands
	Before     []string // comments before the move (at the start of a line of play)
	NAGs       []int    // annotations, suffixes included as $1..$6
	After      []string // comments after the move
	Variations []*Line  // alternatives to this move, played from the position before it
}

// Line is a sequence of moves: a record's main line or a variation.
type Line struct {
	Moves []*Move
	// Comments stand in a line with no moves, or after its last move's
	// variations.
	Comments []string
	Pos      Pos
}

// Record is one game record. Tags keep their order as read.
type Record struct {
	Tags      []Tag
	Main      Line
	Result    string // the result marker
	ResultPos Pos
	Pos       Pos    // where the record starts
	File      string // the file it was read from, "" when not known
}

// Tag returns the value of the tag called name (exact case) and whether it
// is there.
func (r *Record) Tag(name string) (string, bool) {
	for _, t := range r.Tags {
		if t.Name == name {
			return t.Value, true
		}
	}
	return "", false
}

// SetTag sets a tag's value, adding the tag at the end if it is missing.
func (r *Record) SetTag(name, value string) {
	for i := range r.Tags {
		if r.Tags[i].Name == name {
			r.Tags[i].Value = value
			return
		}
	}
	r.Tags = append(r.Tags, Tag{Name: name, Value: value})
}

// DeleteTag removes a tag if it is there.
func (r *Record) DeleteTag(name string) {
	for i := range r.Tags {
		if r.Tags[i].Name == name {
			r.Tags = append(r.Tags[:i], r.Tags[i+1:]...)
			return
		}
	}
}

// Seats returns the number of seats: the number of PlayerN tags, or 2 when
// there are none.
func (r *Record) Seats() int {
	n := 0
	for _, t := range r.Tags {
		if k, ok := playerIndex(t.Name); ok && k > n {
			n = k
		}
	}
	if n == 0 {
		return 2
	}
	return n
}

// Players returns the PlayerN values by seat (index 0 is seat 1), "" for a
// seat with no tag.
func (r *Record) Players() []string {
	p := make([]string, r.Seats())
	for _, t := range r.Tags {
		if k, ok := playerIndex(t.Name); ok && k <= len(p) {
			p[k-1] = t.Value
		}
	}
	return p
}

func playerIndex(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "Player")
	if !ok || rest == "" || rest[0] == '0' || len(rest) > 2 {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 1 {
		return 0, false
	}
	return n, true
}

// MainTokens returns the main line's move tokens in order.
func (r *Record) MainTokens() []string {
	out := make([]string, len(r.Main.Moves))
	for i, m := range r.Main.Moves {
		out[i] = m.Token
	}
	return out
}
