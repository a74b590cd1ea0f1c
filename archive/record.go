package archive

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"icepost/notation"
)

// Records are stored compressed: one format byte, then the text. Format 0
// is the text as is; format 1 is raw DEFLATE with recordDict as preset
// dictionary. The dictionary must never change once data is written with
// it; a new dictionary needs a new format byte.
//
// Format 2 (schema 4) is for records that are tags, a main line of moves
// and a result, with no comment, annotation or variation: most records.
// It keeps the tags (a known name as one byte) and the main line as the
// numbers of its canonical tokens in move_tokens, the numbers the
// position index already gives the moves; the canonical text is the
// formatter's output for those parts (packMoves checks that it is before
// choosing the format). Random-looking movetext costs DEFLATE about 4.8
// bytes a ply; a token number costs 1 to 3 (docs/archive.md).
const (
	recordPlain = 0
	recordDict1 = 1
	recordMoves = 2
)

// recordTagNames are the tag names format 2 writes as one byte (index+1).
// Append only: stored records use these numbers.
var recordTagNames = []string{"Game", "Event", "Site", "Date", "Round",
	"Player1", "Player2", "Player3", "Player4", "Result", "Score",
	"Termination", "Board", "Target", "Setup", "Annotator", "Time", "Mode", "Variant"}

// plainRecord reports whether rec is made of tags, main-line tokens and
// the result alone, so that format 2 holds it: the formatter writes such
// a record from those parts only (TestPackMoves checks the round trip).
func plainRecord(rec *notation.Record) bool {
	if len(rec.Main.Comments) > 0 {
		return false
	}
	for _, m := range rec.Main.Moves {
		if len(m.Before) > 0 || len(m.After) > 0 || len(m.NAGs) > 0 || len(m.Variations) > 0 {
			return false
		}
	}
	return true
}

// textBound is at least the length of rec's canonical text when rec is
// plain: a tag's value may double (escapes), a move number takes at most
// 12 bytes, every word a separator.
func textBound(rec *notation.Record) int {
	n := len(rec.Result) + 2
	for _, t := range rec.Tags {
		n += len(t.Name) + 2*len(t.Value) + 6
	}
	for _, m := range rec.Main.Moves {
		n += len(m.Token) + 13
	}
	return n
}

func tokensOf(rec *notation.Record) []string {
	out := make([]string, len(rec.Main.Moves))
	for i, m := range rec.Main.Moves {
		out[i] = m.Token
	}
	return out
}

func rebuildRecord(tags []notation.Tag, tokens []string, result string) *notation.Record {
	rec := &notation.Record{Tags: tags, Result: result}
	ms := make([]notation.Move, len(tokens))
	rec.Main.Moves = make([]*notation.Move, len(tokens))
	for i, t := range tokens {
		ms[i].Token = t
		rec.Main.Moves[i] = &ms[i]
	}
	return rec
}

// packTags writes a record's tags and result for format 2 (the moves are
// appended by packMoves when their numbers are known).
func packTags(tags []notation.Tag, result string) []byte {
	b := []byte{recordMoves}
	b = binary.AppendUvarint(b, uint64(len(tags)))
	for _, t := range tags {
		if i := slices.Index(recordTagNames, t.Name); i >= 0 {
			b = append(b, byte(i+1))
		} else {
			b = append(b, 0)
			b = binary.AppendUvarint(b, uint64(len(t.Name)))
			b = append(b, t.Name...)
		}
		b = binary.AppendUvarint(b, uint64(len(t.Value)))
		b = append(b, t.Value...)
	}
	b = binary.AppendUvarint(b, uint64(len(result)))
	return append(b, result...)
}

// packMoves completes a format 2 record: the number of moves, then each
// move's token number.
func packMoves(head []byte, ids []uint32) []byte {
	b := make([]byte, 0, len(head)+2+2*len(ids))
	b = append(b, head...)
	b = binary.AppendUvarint(b, uint64(len(ids)))
	for _, id := range ids {
		b = binary.AppendUvarint(b, uint64(id))
	}
	return b
}

var errFormat2 = errors.New("stored record: damaged")

// unpackMoves reads a format 2 record (without its format byte) and
// formats it; tokens gives the canonical token of each number.
func unpackMoves(b []byte, tokens func(ids []uint32) ([]string, error)) ([]byte, error) {
	tags, result, b, err := format2Head(b)
	if err != nil {
		return nil, err
	}
	nm, k := binary.Uvarint(b)
	if k <= 0 || nm > uint64(len(b)) {
		return nil, errFormat2
	}
	b = b[k:]
	ids := make([]uint32, nm)
	for i := range ids {
		id, k := binary.Uvarint(b)
		if k <= 0 || id > 1<<32-1 {
			return nil, errFormat2
		}
		ids[i] = uint32(id)
		b = b[k:]
	}
	if len(b) != 0 {
		return nil, errFormat2
	}
	if tokens == nil {
		return nil, errFormat2
	}
	toks, err := tokens(ids)
	if err != nil {
		return nil, fmt.Errorf("stored record: %w", err)
	}
	return notation.AppendFormat(nil, rebuildRecord(tags, toks, result)), nil
}

// format2Head reads the tags and the result of a format 2 record (b
// without its format byte), and returns the rest: its moves.
func format2Head(b []byte) (tags []notation.Tag, result string, moves []byte, err error) {
	str := func() (string, bool) {
		n, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < n {
			return "", false
		}
		s := string(b[k : k+int(n)])
		b = b[k+int(n):]
		return s, true
	}
	nt, k := binary.Uvarint(b)
	if k <= 0 || nt > uint64(len(b)) {
		return nil, "", nil, errFormat2
	}
	b = b[k:]
	tags = make([]notation.Tag, nt)
	for i := range tags {
		if len(b) == 0 {
			return nil, "", nil, errFormat2
		}
		c := b[0]
		b = b[1:]
		switch {
		case c == 0:
			name, ok := str()
			if !ok {
				return nil, "", nil, errFormat2
			}
			tags[i].Name = name
		case int(c) <= len(recordTagNames):
			tags[i].Name = recordTagNames[c-1]
		default:
			return nil, "", nil, errFormat2
		}
		v, ok := str()
		if !ok {
			return nil, "", nil, errFormat2
		}
		tags[i].Value = v
	}
	result, ok := str()
	if !ok {
		return nil, "", nil, errFormat2
	}
	return tags, result, b, nil
}

// recordDict1Text holds what records share: tag names and common values.
// It names the four games icepost had when format 1 was made, and it is
// not derived from the games' list (rules/games): a dictionary that grew
// with the list would no longer unpack the records packed before
// (TestPackedBefore keeps some). A game it does not name packs and
// unpacks the same; its Game tag costs a few bytes more (Counting's
// record of testdata/packed: 107 bytes, 99 with the game named), and
// format 2, most records, keeps the Game tag's value as text, with no
// dictionary.
var recordDict1Text = []byte(`[Game "Pikemen"]
[Game "IceLady"]
[Game "IceFrogs"]
[Game "IceSickle"]
[Event "icepost selfplay"]
[Site "?"]
[Date "20??.??.??"]
[Round "1"]
[Player1 "Random 1"]
[Player2 "Random 2"]
[Player3 "?"]
[Player4 "?"]
[Result "1/2-1/2"]
[Result "0-1"]
[Result "1-0"]
[Board "star"]
[Score "0:0"]
[Target "12"]
[Termination "resignation"]

1. S@ M@ L@ `)

var (
	writers = sync.Pool{New: func() any {
		w, _ := flate.NewWriterDict(io.Discard, flate.BestCompression, recordDict1Text)
		return w
	}}
)

func packRecord(text []byte) []byte {
	var buf bytes.Buffer
	buf.Grow(len(text)/2 + 16)
	buf.WriteByte(recordDict1)
	w := writers.Get().(*flate.Writer)
	w.Reset(&buf)
	w.Write(text)
	w.Close()
	writers.Put(w)
	if buf.Len() >= len(text)+1 {
		return append([]byte{recordPlain}, text...)
	}
	return buf.Bytes()
}

// unpackRecord gives the canonical text of a stored record; tokens (for
// format 2) gives the canonical token of each move number.
func unpackRecord(b []byte, tokens func(ids []uint32) ([]string, error)) ([]byte, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("empty stored record")
	}
	switch b[0] {
	case recordMoves:
		return unpackMoves(b[1:], tokens)
	case recordPlain:
		return b[1:], nil
	case recordDict1:
		r := flate.NewReaderDict(bytes.NewReader(b[1:]), recordDict1Text)
		defer r.Close()
		out, err := io.ReadAll(io.LimitReader(r, MaxRecordBytes+1))
		if err != nil {
			return nil, fmt.Errorf("stored record: %w", err)
		}
		return out, nil
	}
	return nil, fmt.Errorf("stored record in unknown format %d", b[0])
}

// replayText parses and replays one record's text.
func replayText(file string, text []byte) (*notation.Game, error) {
	recs, errs := notation.Parse(file, text)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	if len(recs) != 1 {
		return nil, fmt.Errorf("%d records where one was expected", len(recs))
	}
	return notation.Replay(recs[0])
}
