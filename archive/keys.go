package archive

import (
	"encoding/binary"
	"hash/fnv"
	"math/bits"
	"strconv"
	"strings"
	"sync"

	"icepost/notation"
	"icepost/rules"
)

// The keys the archive finds things by: positions (PositionHash), the
// same game imported twice (dedupeKey), the same quarantined text
// (hashString) and players however spelt (normalizeName). They are
// stored, so none of them may change without rebuilding what was stored
// with it.

// PositionHash is the key of a position in the position index: a 64-bit
// hash (codeHashBytes) of its key (rules.AppendKey), as a signed integer.
// A key is equal for two positions exactly when their codes are, and
// faster to write: until migration 5 the index hashed the code itself,
// which was an eighth of an import's time at a million games.
func PositionHash(s rules.State) int64 {
	buf := codeBufs.Get().(*[]byte)
	h, b := keyHash(*buf, s)
	*buf = b
	codeBufs.Put(buf)
	return int64(h)
}

// keyHash is PositionHash (unsigned) for a caller that hashes many
// positions: it writes the key into buf and returns buf for the next.
func keyHash(buf []byte, s rules.State) (uint64, []byte) {
	buf = rules.AppendKey(buf[:0], s)
	return codeHashBytes(buf), buf
}

// codeBufs holds buffers for position keys, so that hashing a position
// allocates nothing.
var codeBufs = sync.Pool{New: func() any {
	b := make([]byte, 0, 256)
	return &b
}}

// codeHashBytes hashes a position key eight bytes at a time (FNV-1a, a
// byte at a time, took a fifth of an import's time). Each word is
// multiplied into the state and the result goes through murmur3's
// finaliser, so that every input bit reaches every output bit. The index
// stores these hashes: a change needs a migration that indexes the games
// again (as migration 5 did, for keys instead of codes).
func codeHashBytes(b []byte) uint64 {
	const (
		k1 = 0x9e3779b97f4a7c15
		k2 = 0xc2b2ae3d27d4eb4f
	)
	h := uint64(len(b)) * k1
	for len(b) >= 8 {
		h = bits.RotateLeft64(h^binary.LittleEndian.Uint64(b)*k2, 31) * k1
		b = b[8:]
	}
	var tail uint64
	for i, c := range b {
		tail |= uint64(c) << (8 * i)
	}
	h = bits.RotateLeft64(h^(tail|1<<63)*k2, 31) * k1
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// hashString (quarantined texts' key) is FNV-1a 64 (hash/fnv's), written out so that hashing a
// string does not copy it: the archive hashes every position it stores.
func hashString(s string) int64 {
	const (
		offset64 = 14695981039346656037
		prime64  = 1099511628211
	)
	h := uint64(offset64)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= prime64
	}
	return int64(h)
}

// dedupeKey identifies a game: game, options, setup, main-line moves and
// result. Comments, tags and variations do not count.
func dedupeKey(game string, opts rules.Options, start string, rec *notation.Record) int64 {
	h := fnv.New64a()
	var b [8]byte
	w := func(s string) {
		binary.LittleEndian.PutUint64(b[:], uint64(len(s)))
		h.Write(b[:])
		h.Write([]byte(s))
	}
	w(game)
	w(strconv.Itoa(opts.Seats))
	w(opts.Board)
	w(strconv.Itoa(opts.Target))
	w(start)
	for _, m := range rec.Main.Moves {
		w(m.Token)
	}
	w(rec.Result)
	return int64(h.Sum64())
}

// normalizeName is how names are compared: letters folded to lower case,
// runs of white space made one space, and an address dropped.
func normalizeName(s string) string {
	s, _ = notation.SplitPlayer(s)
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}
