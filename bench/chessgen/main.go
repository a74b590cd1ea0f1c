// Command chessgen writes random legal chess games as PGN, for the
// benchmark that sets `icepost validate` beside pgn-extract (bench/run).
// Every move is chosen uniformly among the legal ones; a game ends by
// checkmate, stalemate, the fifty-move rule, bare kings, or after -maxplies
// plies (result *). Moves are in SAN with checks, castling, en passant and
// promotions. It is a module of its own so that icepost's go.mod gains
// nothing from it, and it uses the standard library alone.
//
//	go run . -mb 100 -seed 1 -o chess.pgn
//
// It prints "games N plies P bytes B" on standard error at the end.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
)

func main() {
	mb := flag.Float64("mb", 1, "write games until the output holds this many megabytes")
	games := flag.Int("games", 0, "write exactly this many games instead (overrides -mb)")
	seed := flag.Uint64("seed", 1, "random seed; the same seed writes the same games")
	maxPlies := flag.Int("maxplies", 200, "stop a game after this many plies (result *)")
	out := flag.String("o", "-", "output file (- for standard output)")
	flag.Parse()
	w := io.Writer(os.Stdout)
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "chessgen:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	st, err := write(bw, rand.New(rand.NewPCG(*seed, 0xc4e55)), int64(*mb*(1<<20)), *games, *maxPlies)
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "chessgen:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "games %d plies %d bytes %d\n", st.games, st.plies, st.bytes)
}

type stats struct {
	games, plies int
	bytes        int64
}

// write writes games until size bytes (or exactly n games when n > 0).
func write(w io.Writer, rng *rand.Rand, size int64, n, maxPlies int) (stats, error) {
	var st stats
	var buf []byte
	for i := 0; (n > 0 && i < n) || (n <= 0 && st.bytes < size); i++ {
		buf = buf[:0]
		var plies int
		buf, plies = appendGame(buf, rng, i+1, maxPlies)
		if i > 0 {
			buf = append(buf, '\n')
			copy(buf[1:], buf[:len(buf)-1])
			buf[0] = '\n'
		}
		if _, err := w.Write(buf); err != nil {
			return st, err
		}
		st.games++
		st.plies += plies
		st.bytes += int64(len(buf))
	}
	return st, nil
}

// appendGame plays one random game and appends its PGN record.
func appendGame(buf []byte, rng *rand.Rand, round, maxPlies int) ([]byte, int) {
	p := startPosition()
	var sans []string
	legal := p.legal(make([]move, 0, 64))
	replies := make([]move, 0, 64)
	result := "*"
	for {
		if len(legal) == 0 {
			if p.inCheck() {
				result = "1-0"
				if p.white {
					result = "0-1"
				}
			} else {
				result = "1/2-1/2"
			}
			break
		}
		if p.half >= 100 || p.insufficient() {
			result = "1/2-1/2"
			break
		}
		if len(sans) >= maxPlies {
			break
		}
		m := legal[rng.IntN(len(legal))]
		next := p.apply(m)
		replies = next.legal(replies[:0])
		sans = append(sans, p.san(m, legal, &next, len(replies)))
		p = next
		legal, replies = replies, legal
	}
	tags := [][2]string{
		{"Event", "chessgen"},
		{"Site", "?"},
		{"Date", "2026.01.01"},
		{"Round", strconv.Itoa(round)},
		{"White", "Random " + strconv.Itoa(rng.IntN(1000))},
		{"Black", "Random " + strconv.Itoa(rng.IntN(1000))},
		{"Result", result},
	}
	for _, t := range tags {
		buf = append(buf, '[')
		buf = append(buf, t[0]...)
		buf = append(buf, ' ')
		buf = strconv.AppendQuote(buf, t[1])
		buf = append(buf, "]\n"...)
	}
	buf = append(buf, '\n')
	// Movetext: words joined by one space, lines of at most 79 columns.
	col := 0
	word := func(w string) {
		if col > 0 && col+1+len(w) > 79 {
			buf = append(buf, '\n')
			col = 0
		}
		if col > 0 {
			buf = append(buf, ' ')
			col++
		}
		buf = append(buf, w...)
		col += len(w)
	}
	for i, s := range sans {
		if i%2 == 0 {
			word(strconv.Itoa(i/2+1) + ".")
		}
		word(s)
	}
	word(result)
	buf = append(buf, '\n')
	return buf, len(sans)
}
