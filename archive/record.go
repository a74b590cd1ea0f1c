package archive

import (
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"sync"

	"icepost/notation"
)

// Records are stored compressed: one format byte, then the text. Format 0
// is the text as is; format 1 is raw DEFLATE with recordDict as preset
// dictionary. The dictionary must never change once data is written with
// it; a new dictionary needs a new format byte.
const (
	recordPlain = 0
	recordDict1 = 1
)

// recordDict1Text holds what records share: tag names and common values.
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

func unpackRecord(b []byte) ([]byte, error) {
	if len(b) == 0 {
		return nil, fmt.Errorf("empty stored record")
	}
	switch b[0] {
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
