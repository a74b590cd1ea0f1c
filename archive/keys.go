package archive

import (
	"encoding/binary"
	"hash/fnv"
	"strconv"
	"strings"

	"icepost/notation"
	"icepost/rules"
)

// The keys the archive finds things by: positions (PositionHash), the
// same game imported twice (dedupeKey), the same quarantined text
// (hashString) and players however spelt (normalizeName). They are
// stored, so none of them may change without rebuilding what was stored
// with it.

// PositionHash is the key of a position in the position index: the FNV-1a
// 64-bit hash of its position code, as a signed integer for SQLite.
func PositionHash(s rules.State) int64 {
	return hashString(s.Code())
}

func hashString(s string) int64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return int64(h.Sum64())
}

// dedupeKey identifies a game: game, options, setup, main-line moves and
// result. Comments, tags and variations do not count.
func dedupeKey(g *notation.Game) int64 {
	h := fnv.New64a()
	var b [8]byte
	w := func(s string) {
		binary.LittleEndian.PutUint64(b[:], uint64(len(s)))
		h.Write(b[:])
		h.Write([]byte(s))
	}
	w(g.Rules.Name())
	w(strconv.Itoa(g.Options.Seats))
	w(g.Options.Board)
	w(strconv.Itoa(g.Options.Target))
	w(g.States[0].Code())
	for _, m := range g.Record.Main.Moves {
		w(m.Token)
	}
	w(g.Record.Result)
	return int64(h.Sum64())
}

// splitAddress splits "Ada <ada@example.org>" into the name and the
// address.
func splitAddress(v string) (name, addr string) {
	v = strings.TrimSpace(v)
	if strings.HasSuffix(v, ">") {
		if i := strings.LastIndexByte(v, '<'); i >= 0 {
			return strings.TrimSpace(v[:i]), strings.TrimSpace(v[i+1 : len(v)-1])
		}
	}
	return v, ""
}

// normalizeName is how names are compared: letters folded to lower case,
// runs of white space made one space, and an address dropped.
func normalizeName(s string) string {
	s, _ = splitAddress(s)
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}
