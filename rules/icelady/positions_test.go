package icelady_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"icepost/rules"
	"icepost/rules/icelady"
)

// setup builds a position code from a list of pieces, each its stack
// (upper case seat 1 South, lower case seat 2 North) and its square:
// "Sc3 md4 L+Me5". The reserves are both 4 unless given as "res=a,b".
func setup(t *testing.T, turn int, pieces string) icelady.Position {
	t.Helper()
	var r refPos
	r.turn = turn
	r.res = [3]int{0, 4, 4}
	for _, w := range strings.Fields(pieces) {
		if rest, ok := strings.CutPrefix(w, "res="); ok {
			r.res[1], r.res[2] = int(rest[0]-'0'), int(rest[2]-'0')
			continue
		}
		sq := w[len(w)-2:]
		st := w[:len(w)-2]
		owner := 1
		if strings.ToLower(st) == st {
			owner = 2
		}
		r.b[sq[0]-'a'][sq[1]-'1'] = refSq{owner, strings.ToUpper(strings.ReplaceAll(st, "+", ""))}
	}
	p, err := icelady.ParsePosition(refCode(r))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Each case lists every legal move of a hand-made position, worked out
// from RULES.md 3 as the comment says.
func TestLegalMoves(t *testing.T) {
	tests := []struct {
		name   string
		turn   int
		pieces string
		want   string // sorted tokens, space separated
	}{
		{"small steps diagonally forward (South)", 1, "Sd4 ma8",
			"d4-c5 d4-e5"},
		{"small steps diagonally forward (North)", 2, "sd5 Ma1",
			"d5-c4 d5-e4"},
		{"small captures forward, never backward", 1, "Sd4 se5 sc3",
			"d4xf6"},
		{"small cannot capture onto an occupied square", 1, "Sd4 se5 sf6",
			"d4-c5"},
		{"small on the edge", 1, "Sa4 ma8",
			"a4-b5"},
		{"medium moves exactly two squares forward or sideways", 1, "Md4 ma8",
			"d4-b4 d4-d6 d4-f4"},
		{"medium moves two squares down for North", 2, "md5 Ma1",
			"d5-b5 d5-d3 d5-f5"},
		{"medium cannot pass over its own piece", 1, "Md4 Se4 ma8",
			"d4-b4 d4-d6 e4-d5 e4-f5"},
		{"medium captures forward and sideways, not backward", 1, "Md4 md5 se4 sd3",
			"d4xd6 d4xf4"},
		{"medium cannot jump two squares over two pieces", 1, "Md4 md5 sd6 ma8",
			"d4-b4 d4-f4"},
		// d4: 3 squares in each of 8 directions, the board is open.
		{"king moves 1 to 3 squares in 8 directions", 1, "Ld4 ma8 res=3,4",
			"d4-a1 d4-a4 d4-a7 d4-b2 d4-b4 d4-b6 d4-c3 d4-c4 d4-c5 d4-d1 d4-d2 d4-d3 d4-d5 d4-d6 d4-d7 d4-e3 d4-e4 d4-e5 d4-f2 d4-f4 d4-f6 d4-g1 d4-g4 d4-g7"},
		{"king is stopped by pieces", 1, "La1 Sb2 Sa3 ma8 res=3,4",
			"a1-a2 a1-b1 a1-c1 a1-d1 a3-b4 b2-c3"},
		{"king passes empty squares to capture, lands within 3", 1, "La1 sc3 res=3,4",
			"a1xd4"},
		{"king cannot capture when no landing is within range", 1, "La1 sd4 ma8 res=3,4",
			"a1-a2 a1-a3 a1-a4 a1-b1 a1-b2 a1-c1 a1-c3 a1-d1"},
		{"king cannot pass over two pieces", 1, "La1 sb2 sc3 ma8 res=3,4",
			"a1-a2 a1-a3 a1-a4 a1-b1 a1-c1 a1-d1"},
		{"king tree L+M reaches 5 squares when capturing", 1, "L+Ma1 sc3 res=3,4",
			"a1xd4 a1xe5 a1xf6"},
		{"king tree L+S steps up to 4 squares", 1, "L+Sa1 Sa2 Sb1 ma8 res=3,4",
			"a1-b2 a1-c3 a1-d4 a1-e5 a2-b3 b1-c2"},
		{"capture is compulsory, for every piece", 1, "Sd4 se5 Ma2 Lh1 ma8 res=3,4",
			"d4xf6"},
		{"chain with a choice of ways", 1, "Sc3 sd4 sd6 sf6",
			"c3xe5xc7 c3xe5xg7"},
		{"chain goes on with the same piece only", 1, "Sc3 sd4 Sa5 sb6 sd6 sf6",
			"a5xc7 c3xe5xc7 c3xe5xg7"},
		// L+S on a1 takes b2 and may land on c3, d4 or e5; only from d4 can
		// it go on (d7 is 3 squares north, d8 4).
		{"king chooses where to land; must go on only from where it can", 1, "L+Sa1 sb2 sd7 res=3,4",
			"a1xc3 a1xd4xd8 a1xe5"},
		// c3's tree loses its M and stays as a lone L; the king lands on d4
		// and then must take e5.
		{"chain over a king tree", 1, "La1 l+mc3 se5 res=3,3",
			"a1xd4xf6 a1xd4xg7"},
		// b2 keeps its L after losing its M: the king may not take it again
		// on the way back (to a1, its start).
		{"tree remnant cannot be captured twice", 1, "L+Sa1 l+mb2 res=3,3",
			"a1xc3 a1xd4 a1xe5"},
		// L+M on d4 (range 5): squares emptied by a capture, and its own
		// start, may be passed over, so it can turn back.
		{"emptied squares may be crossed again", 1, "L+Md4 se4 sb4 res=3,4",
			"d4xa4xf4 d4xf4xa4 d4xg4 d4xh4"},
		{"promotion is optional, with a reserve", 1, "Se7 ma1",
			"e7-d8 e7-d8=K e7-f8 e7-f8=K"},
		{"no promotion without a reserve", 1, "Se7 ma1 res=0,4",
			"e7-d8 e7-f8"},
		{"medium promotes on the far row", 1, "Me6 ma1",
			"e6-c6 e6-e8 e6-e8=K e6-g6"},
		{"promotion after a capture", 1, "Sd6 se7",
			"d6xf8 d6xf8=K"},
		{"North promotes on rank 1", 2, "sd2 Ma8",
			"d2-c1 d2-c1=K d2-e1 d2-e1=K"},
		{"unpromoted medium on the far row moves sideways", 1, "Md8 ma1",
			"d8-b8 d8-b8=K d8-f8 d8-f8=K"},
		{"promotion only at the end of a chain", 1, "Md6 sd7 se8",
			"d6xd8xf8 d6xd8xf8=K"},
		{"small joins a king on the far row", 1, "Ld8 Sc7 ma1 res=3,4",
			"c7-b8 c7-b8=K c7-d8 d8-a8 d8-b8 d8-c8 d8-d5 d8-d6 d8-d7 d8-e7 d8-e8 d8-f6 d8-f8 d8-g5 d8-g8"},
		{"medium joins a lone king", 1, "Ld8 Md6 ma1 res=3,4",
			"d6-b6 d6-d8 d6-f6 d8-a5 d8-a8 d8-b6 d8-b8 d8-c7 d8-c8 d8-d7 d8-e7 d8-e8 d8-f6 d8-f8 d8-g5 d8-g8"},
		{"medium cannot join L+S", 1, "L+Sd8 Md6 ma1 res=3,4",
			"d6-b6 d6-f6 d8-a5 d8-a8 d8-b6 d8-b8 d8-c7 d8-c8 d8-d7 d8-e7 d8-e8 d8-f6 d8-f8 d8-g5 d8-g8 d8-h4 d8-h8"},
		{"small cannot join off the far row", 1, "Ld7 Sc6 ma1 res=3,4",
			"c6-b7 d7-a7 d7-b7 d7-c7 d7-c8 d7-d4 d7-d5 d7-d6 d7-d8 d7-e6 d7-e7 d7-e8 d7-f5 d7-f7 d7-g4 d7-g7"},
		{"a capture's last leap may join a tree", 1, "L+Md8 Sb6 sc7 res=3,4",
			"b6xd8"},
		{"North joins on rank 1", 2, "ld1 sc2 Ma8 res=4,3",
			"c2-b1 c2-b1=K c2-d1 d1-a1 d1-b1 d1-c1 d1-d2 d1-d3 d1-d4 d1-e1 d1-e2 d1-f1 d1-f3 d1-g1 d1-g4"},
		{"a small unpromoted on the far row cannot move", 1, "Sd8 Ma2 ma8",
			"a2-a4 a2-c2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := setup(t, tc.turn, tc.pieces)
			got := strings.Join(tokens(p), " ")
			if got != tc.want {
				t.Errorf("%s:\n got %s\nwant %s", p.Code(), got, tc.want)
			}
		})
	}
}

// Each case plays one token and compares the position after it with the
// one expected by hand.
func TestPlay(t *testing.T) {
	tests := []struct {
		name, pieces, tok, after string
		over                     bool // seat 1 has won
	}{
		{"small joins a lone king", "Ld8 Sc7 ma1 res=3,4", "c7-d8", "L+Sd8 ma1 res=3,4", false},
		{"medium joins a lone king", "Ld8 Md6 ma1 res=3,4", "d6-d8", "L+Md8 ma1 res=3,4", false},
		{"small joins L+M", "L+Md8 Sc7 ma1 res=3,4", "c7-d8", "L+M+Sd8 ma1 res=3,4", false},
		{"a capture joins, taking the last piece", "L+Md8 Sb6 sc7 res=3,4", "b6xd8", "L+M+Sd8 res=3,4", true},
		{"promotion spends a large", "Se7 ma1", "e7-f8=K", "Lf8 ma1 res=3,4", false},
		{"no promotion keeps the small", "Se7 ma1", "e7-f8", "Sf8 ma1", false},
		{"promotion at the end of a chain", "Md6 sd7 se8 ma1", "d6xd8xf8=K", "Lf8 ma1 res=3,4", false},
		{"a tree loses its top piece only", "La1 l+mc3 se5 res=3,3", "a1xd4xf6", "Lf6 lc3 res=3,3", false},
		{"L+M+S loses its S", "La1 l+m+sc3 res=3,3", "a1xd4", "Ld4 l+mc3 res=3,3", false},
		{"tree remnant stays", "L+Sa1 l+mb2 res=3,3", "a1xc3", "L+Sc3 lb2 res=3,3", false},
		{"a lone king leaves the board", "La1 lc3 res=3,3", "a1xd4", "Ld4 res=3,3", true},
		{"any case", "Se7 ma1", "E7-F8=k", "Lf8 ma1 res=3,4", false},
		{"=L for =K", "Se7 ma1", "e7-f8=L", "Lf8 ma1 res=3,4", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := setup(t, 1, tc.pieces)
			next, _, err := rules.Play(p, tc.tok)
			if err != nil {
				t.Fatalf("%s: %v", p.Code(), err)
			}
			want := setup(t, 2, tc.after)
			if next.Code() != want.Code() {
				t.Errorf("after %s:\n got %s\nwant %s", tc.tok, next.Code(), want.Code())
			}
			if o := next.Outcome(); o.Over != tc.over || (tc.over && (o.Winner != 1 || next.ToMove() != 0)) {
				t.Errorf("after %s: outcome %v, to move %d", tc.tok, o, next.ToMove())
			}
		})
	}
}

func TestEnd(t *testing.T) {
	tests := []struct {
		name   string
		turn   int
		pieces string
		winner int
	}{
		{"no pieces left", 2, "Sd4", 1},
		{"small blocked by two pieces", 2, "Sb4 Sc3 sa5", 1},
		{"only an unpromoted small on the far row", 1, "Sd8 ma8", 2},
		{"North blocked on rank 1", 2, "sd1 Ma8", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := setup(t, tc.turn, tc.pieces)
			if o := p.Outcome(); !o.Over || o.Winner != tc.winner || p.ToMove() != 0 {
				t.Errorf("%s: outcome %v, to move %d; want seat %d wins", p.Code(), o, p.ToMove(), tc.winner)
			}
			if _, err := p.ParseMove("d4-e5"); !errors.Is(err, rules.ErrGameOver) {
				t.Errorf("ParseMove after the end: %v", err)
			}
			if !strings.Contains(p.Board(0), "Game over: seat") {
				t.Errorf("board does not say the game is over:\n%s", p.Board(0))
			}
		})
	}
}

// Each case gives a token the position refuses and the reason a player is
// told (a part of it).
func TestParseMoveErrors(t *testing.T) {
	start := icelady.Start().Code()
	tests := []struct {
		name   string
		code   string // a position code, or
		pieces string // pieces for setup with seat 1 to move
		tok    string
		kind   error
		reason string
	}{
		{"not a square", start, "", "i3-d4", rules.ErrSyntax, "i3 is not a square"},
		{"one square", start, "", "c3", rules.ErrSyntax, "names its start and where it goes"},
		{"mixed joiners", start, "", "c3-d4xe5", rules.ErrSyntax, "not both"},
		{"plain move of two steps", start, "", "c3-d4-e5", rules.ErrSyntax, "one step"},
		{"bad promotion", start, "", "c3-d4=Q", rules.ErrSyntax, "=K"},
		{"garbage", start, "", "pass", rules.ErrSyntax, "squares joined by - or x"},
		{"empty square", start, "", "a1-a2", rules.ErrIllegal, "there is no piece on a1"},
		{"opponent's piece", start, "", "c6-d5", rules.ErrIllegal, "c6 is not your piece (it is seat 2's small)"},
		{"small two squares", start, "", "c3-c5", rules.ErrIllegal, "a small moves only diagonally forward"},
		{"small too far", start, "", "c3-e5", rules.ErrIllegal, "a small moves one square diagonally forward"},
		{"small backward", start, "", "c3-b2", rules.ErrIllegal, "a small moves only diagonally forward"},
		{"medium over its own small", start, "", "c2-c4", rules.ErrIllegal, "no piece jumps over its own pieces (c3 holds your small)"},
		{"medium one square", "", "Md4 ma8", "d4-d5", rules.ErrIllegal, "a medium moves exactly two squares"},
		{"medium diagonally", start, "", "c2-a4", rules.ErrIllegal, "never diagonally"},
		{"medium backward", "", "Md4 ma8", "d4-d2", rules.ErrIllegal, "a medium never moves backward"},
		{"x for a plain move", start, "", "c3xd4", rules.ErrIllegal, "use c3-d4: the move captures nothing"},
		{"- for a capture", "", "Sd4 se5", "d4-f6", rules.ErrIllegal, "use d4xf6: the move captures"},
		{"promotion off the far row", start, "", "c3-d4=K", rules.ErrIllegal, "only a small or medium that ends its move on the far row (rank 8)"},
		{"capture is compulsory", "", "Sd4 se5 Ma2", "a2-c2", rules.ErrIllegal, "capture is compulsory: d4xf6 is available"},
		{"capture is compulsory for a join too", "", "Ld8 Sc7 Sd4 se5 res=3,4", "c7-d8", rules.ErrIllegal, "capture is compulsory: d4xf6 is available"},
		{"- for a chain", "", "Sc3 sd4 sd6 sf6", "c3-e5", rules.ErrIllegal, "use c3xe5xc7: the move captures"},
		{"chain stops too early", "", "Sc3 sd4 sd6 sf6", "c3xe5", rules.ErrIllegal, "the capture must go on from e5: c3xe5xc7 is available"},
		{"chain without its landing squares", "", "Sc3 sd4 sd6 sf6", "c3xc7", rules.ErrIllegal, "(a chain lists every landing square: c3xe5xc7)"},
		{"no piece to capture", "", "Sc3 sd4 sd6 sf6", "c3xe5xg7xe9", rules.ErrSyntax, "e9 is not a square"},
		{"small captures backward", "", "Sc3 sd4 sd6 sf6", "c3xe5xc3", rules.ErrIllegal, "a small moves only diagonally forward"},
		{"king too far", "", "La1 ma8 res=3,4", "a1-e5", rules.ErrIllegal, "a king moves at most 3 squares (a1 to e5 is 4)"},
		{"tree too far", "", "L+Ma1 ma8 res=3,4", "a1-g7", rules.ErrIllegal, "the king tree L+M moves at most 5 squares"},
		{"tree off a line", "", "L+Sa1 ma8 res=3,4", "a1-b3", rules.ErrIllegal, "a king tree moves in a straight line"},
		{"going nowhere", "", "La1 ma8 res=3,4", "a1-a1", rules.ErrIllegal, "a move goes somewhere"},
		{"king off a line", "", "La1 ma8 res=3,4", "a1-b3", rules.ErrIllegal, "a king moves in a straight line"},
		{"king passes two pieces", "", "La1 sb2 sc3 ma8 res=3,4", "a1xd4", rules.ErrIllegal, "a leap captures one piece, and b2 and c3 are both in the way"},
		{"king captures nothing", "", "La1 ma8 res=3,4", "a1xc3", rules.ErrIllegal, "use a1-c3: the move captures nothing"},
		{"tree remnant captured twice", "", "L+Sa1 l+mb2 res=3,3", "a1xc3xa1", rules.ErrIllegal, "b2 was captured on earlier in this move"},
		{"landing not empty", "", "Ld4 Sd7 ma8 res=3,4", "d4-d7", rules.ErrIllegal, "d7 is not empty"},
		{"king stopped by a piece", "", "Ld4 md6 ma8 res=3,4", "d4-d7", rules.ErrIllegal, "use d4xd7: the move captures"},
		{"promotion without reserve", "", "Se7 ma1 res=0,4", "e7-f8=K", rules.ErrIllegal, "no large left in your reserve"},
		{"a king does not promote", "", "Ld7 ma1 res=3,4", "d7-d8=K", rules.ErrIllegal, "already a king"},
		{"joining does not promote", "", "Ld8 Sc7 ma1 res=3,4", "c7-d8=K", rules.ErrIllegal, "a piece that joins a king tree is not promoted"},
		{"medium onto L+S", "", "L+Sd8 Md6 ma1 res=3,4", "d6-d8", rules.ErrIllegal, "a medium joins only a lone king, and d8 holds L+S"},
		{"small onto L+S", "", "L+Sd8 Sc7 ma1 res=3,4", "c7-d8", rules.ErrIllegal, "a small joins only a lone king or L+M, and d8 holds L+S"},
		{"joining off the far row", "", "Ld7 Sc6 ma1 res=3,4", "c6-d7", rules.ErrIllegal, "a small joins a king tree only on the far row (rank 8)"},
		{"the move ends on joining", "", "L+Md8 Sb6 sc7 se7 res=3,4", "b6xd8xf6", rules.ErrIllegal, "the move ends when the piece joins the king tree on d8"},
		{"unpromoted small on the far row", "", "Sd8 Ma2 ma8", "d8-e9", rules.ErrSyntax, "e9 is not a square"},
		{"unpromoted small on the far row", "", "Sd8 Ma2 ma8", "d8-c7", rules.ErrIllegal, "the small on d8 stands unpromoted on the far row and can no longer move"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var p icelady.Position
			if tc.code != "" {
				var err error
				if p, err = icelady.ParsePosition(tc.code); err != nil {
					t.Fatal(err)
				}
			} else {
				p = setup(t, 1, tc.pieces)
			}
			m, err := p.ParseMove(tc.tok)
			if err == nil {
				t.Fatalf("%s: ParseMove(%q) = %s, want an error", p.Code(), tc.tok, p.FormatMove(m))
			}
			var me *rules.MoveError
			if !errors.As(err, &me) || !errors.Is(err, tc.kind) {
				t.Fatalf("ParseMove(%q) = %v (%T), want a MoveError of kind %v", tc.tok, err, err, tc.kind)
			}
			if !strings.Contains(me.Reason, tc.reason) {
				t.Errorf("ParseMove(%q):\n got reason %q\nwant it to contain %q", tc.tok, me.Reason, tc.reason)
			}
		})
	}
}

func TestParsePositionErrors(t *testing.T) {
	tests := []struct{ code, reason string }{
		{"IceLady 8/8/8/8/8/8/8/8 4 4", "want 4 fields"},
		{"Pikemen 8/8/8/8/8/8/8/8 4 4 1", "starts with IceLady"},
		{"IceLady 8/8/8/8/8/8/8 4 4 1", "7 ranks"},
		{"IceLady 8/8/8/8/8/8/8/7 4 4 1", "rank 1 has 7 squares"},
		{"IceLady 8/8/8/8/8/8/8/8S 4 4 1", "more than 8 squares"},
		{"IceLady 8/8/8/8/8/8/8/S8 4 4 1", "rank 1 has 9 squares"},
		{"IceLady 8/8/8/8/8/8/8/X7 4 4 1", `"X" is not a piece`},
		{"IceLady 8/8/8/8/8/8/8/M+L7 4 4 1", `"M+L" is not a piece`},
		{"IceLady 8/8/8/8/8/8/8/L+m7 4 4 1", "mixes upper case"},
		{"IceLady 8/8/8/8/8/8/8/S6s 5 4 1", "reserve of seat 1"},
		{"IceLady 8/8/8/8/8/8/8/S6s 4 4 3", "to move"},
		{"IceLady 8/8/8/8/8/8/8/L6s 4 4 1", "1 larges on the board but only 0"},
		{"IceLady 8/8/8/8/8/8/8/SSSSS2s 4 4 1", "5 smalls"},
		{"IceLady 8/8/8/8/8/8/MMMMM3/s7 4 4 1", "5 mediums"},
		{"IceLady 8/8/8/8/8/8/MMMM4/SSSS3s 3 4 1", "but 1 were replaced"},
		{"IceLady 8/8/8/8/8/8/8/S7 4 4 1", "seat 2 has no pieces"},
	}
	for _, tc := range tests {
		t.Run(tc.code, func(t *testing.T) {
			_, err := icelady.ParsePosition(tc.code)
			if !errors.Is(err, rules.ErrPosition) {
				t.Fatalf("err = %v, want ErrPosition", err)
			}
			if !strings.Contains(err.Error(), tc.reason) {
				t.Errorf("err = %v, want it to contain %q", err, tc.reason)
			}
		})
	}
}

func TestOptions(t *testing.T) {
	for _, o := range []rules.Options{{Seats: 3}, {Board: "hex"}, {Target: 12}} {
		if _, err := icelady.Game.Start(o); !errors.Is(err, rules.ErrOptions) {
			t.Errorf("Start(%+v) = %v, want ErrOptions", o, err)
		}
	}
	s, err := icelady.Game.Start(rules.Options{Seats: 2})
	if err != nil || s.Options() != (rules.Options{Seats: 2}) || s.Game().Name() != "IceLady" {
		t.Errorf("Start: %v %+v", err, s)
	}
}

func TestBoardViewers(t *testing.T) {
	p := setup(t, 1, "L+M+Sa1 sh8 res=3,4")
	b1, b2 := p.Board(1), p.Board(2)
	lines1, lines2 := strings.Split(b1, "\n"), strings.Split(b2, "\n")
	if !strings.HasPrefix(lines1[2], "8  |") || !strings.Contains(lines1[9], "|1L+M+S|") {
		t.Errorf("seat 1's view:\n%s", b1)
	}
	if !strings.HasPrefix(lines2[2], "1  |") || !strings.HasSuffix(lines2[2], "|1L+M+S|  1") || !strings.Contains(lines2[0], "h      g") {
		t.Errorf("seat 2's view:\n%s", b2)
	}
	for _, l := range slices.Concat(lines1, lines2) {
		if len(l) > 72 || strings.HasSuffix(l, " ") {
			t.Errorf("line %q is too long or ends in a blank", l)
		}
	}
}

func TestChainBackToStart(t *testing.T) {
	// The king on a1 takes b2, c2 and b1 round a triangle and may stop on
	// its own start square.
	p := setup(t, 1, "La1 sb2 sc2 sb1 res=3,4")
	next, _, err := rules.Play(p, "a1xc3xc1xa1")
	if err != nil {
		t.Fatalf("%s: %v (legal: %v)", p.Code(), err, tokens(p))
	}
	if want := setup(t, 2, "La1 res=3,4"); next.Code() != want.Code() {
		t.Errorf("got %s, want %s", next.Code(), want.Code())
	}
}
