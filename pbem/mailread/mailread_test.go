package mailread

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func readFile(t *testing.T, name string) *Message {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	m, err := Read(bytes.NewReader(b), grammar)
	if err != nil {
		t.Fatalf("Read(%s): %v", name, err)
	}
	return m
}

// The hand-made mails in testdata: charsets, encodings, HTML shapes,
// format=flowed, top- and bottom-posting, subject fallback, broken MIME.
func TestTestdataMails(t *testing.T) {
	tests := []struct {
		file     string
		commands []string
		comment  string
		auto     bool
	}{
		{"cp1252-qp.eml", []string{"move L@c3"}, "J’espère que ça va – bonne chance !", false},
		{"base64.eml", []string{"move g4-e6:U"}, "No mercy.", false},
		{"koi8r.eml", []string{"move c3-e3-e5"}, "Спасибо за игру!", false},
		{"gmail-html.eml", []string{"move h3xc8:S"}, "Take that & that.", false},
		{"outlook-html.eml", []string{"move c3xe5xc7"}, "Two for one.", false},
		{"thunderbird-html-bottom.eml", []string{"move M@a1-b1"}, "Lovely weather.", false},
		{"flowed.eml", []string{"move c3-d4"}, "This is a long comment that was wrapped by the client.\n\n-- not a sig, stuffed", false},
		{"top-posted.eml", []string{"move e7-f8=K"}, "Crowned at last.", false},
		{"bottom-posted.eml", []string{"move g4-e6:U"}, "Good luck.", false},
		{"subject-only.eml", []string{"resign"}, "Thanks for the game!", false},
		{"no-boundary.eml", []string{"undo"}, "", false},
		{"bad-charset.eml", []string{"move d2-d3"}, "Grüße", false},
		{"truncated-base64.eml", []string{"board"}, "Hello world this is truncate", false},
		{"broken-multipart.eml", []string{"history"}, "", false},
		{"multipart-report.eml", []string{"resign"}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			m := readFile(t, tt.file)
			if !reflect.DeepEqual(lines(m.Commands), tt.commands) {
				t.Errorf("Commands = %q, want %q (text %q)", m.Commands, tt.commands, m.Text)
			}
			if m.Comment != tt.comment {
				t.Errorf("Comment = %q, want %q", m.Comment, tt.comment)
			}
			if m.Auto != tt.auto {
				t.Errorf("Auto = %v (%s), want %v", m.Auto, m.AutoReason, tt.auto)
			}
		})
	}
}

func TestHeaders(t *testing.T) {
	m := readFile(t, "top-posted.eml")
	want := &Message{
		From:        "kim@example.org",
		To:          []string{"games+tok6@icepost.example"},
		Subject:     "Re: [icepost 1234] Ice Lady: your move",
		InReplyTo:   "b1.tok@icepost.example",
		References:  []string{"b0@icepost.example", "b1.tok@icepost.example"},
		PlusParts:   []string{"tok6"},
		SubjectTags: []string{"icepost 1234"},
	}
	got := &Message{From: m.From, To: m.To, Subject: m.Subject, InReplyTo: m.InReplyTo,
		References: m.References, PlusParts: m.PlusParts, SubjectTags: m.SubjectTags}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}

	m = readFile(t, "cp1252-qp.eml")
	if m.From != "rene@example.fr" {
		t.Errorf("From = %q, want the domain lower-cased", m.From)
	}

	src := "From: \"Broken <x\" nobody@Example.COM\r\n" +
		"To: games+a@h.example, \"Other\" <games+b@h.example>\r\n" +
		"Cc: games+a@h.example\r\n" +
		"Delivered-To: games+c@h.example\r\n" +
		"Return-Path: <bounce@Example.com>\r\n" +
		"Message-ID: <id1@x>\r\n" +
		"Authentication-Results: mx.icepost.example; spf=pass\r\n  smtp.mailfrom=example.com\r\n" +
		"Authentication-Results: other.example; dkim=fail\r\n" +
		"\r\nboard\r\n"
	m = readString(t, src)
	if m.From != "nobody@example.com" {
		t.Errorf("lenient From = %q", m.From)
	}
	if !reflect.DeepEqual(m.PlusParts, []string{"a", "b", "c"}) {
		t.Errorf("PlusParts = %q", m.PlusParts)
	}
	if m.ReturnPath != "bounce@example.com" || m.NullSender {
		t.Errorf("ReturnPath = %q, NullSender = %v", m.ReturnPath, m.NullSender)
	}
	if m.MessageID != "id1@x" {
		t.Errorf("MessageID = %q", m.MessageID)
	}
	wantAR := []string{"mx.icepost.example; spf=pass smtp.mailfrom=example.com", "other.example; dkim=fail"}
	if !reflect.DeepEqual(m.AuthResults, wantAR) {
		t.Errorf("AuthResults = %q", m.AuthResults)
	}
}

func TestAuto(t *testing.T) {
	tests := []struct {
		name, header string
		auto         bool
	}{
		{"plain", "Subject: Re: game", false},
		{"auto-submitted no", "Auto-Submitted: no", false},
		{"auto-submitted auto-replied", "Auto-Submitted: auto-replied", true},
		{"auto-submitted generated", "Auto-Submitted: Auto-Generated; owner-email=x@y", true},
		{"precedence bulk", "Precedence: bulk", true},
		{"precedence junk", "Precedence: junk", true},
		{"precedence list", "Precedence: list", true},
		{"precedence first-class", "Precedence: first-class", false},
		{"list-id", "List-Id: <games.lists.example>", true},
		{"list-unsubscribe", "List-Unsubscribe: <mailto:unsub@lists.example>", true},
		{"null return path", "Return-Path: <>", true},
		{"multipart/report", "Content-Type: multipart/report; report-type=disposition-notification; boundary=x", true},
		{"mailer-daemon", "From: MAILER-DAEMON@mx.example.org", true},
		{"postmaster", "From: Mail Delivery <postmaster@example.org>", true},
		{"out of office", "Subject: Out of Office: Re: [icepost ab] your move", true},
		{"automatic reply", "Subject: Automatic reply: your move", true},
		{"auto:", "Subject: Auto: your move", true},
		{"abwesenheitsnotiz", "Subject: Abwesenheitsnotiz: Ihr Zug", true},
		{"réponse automatique", "Subject: =?utf-8?q?R=C3=A9ponse_automatique?= : votre coup", true},
		{"autosvar", "Subject: Autosvar: din tur", true},
		{"x-autoreply", "X-Autoreply: yes", true},
		{"x-autorespond", "X-Autorespond: yes", true},
		{"icepost itself", SelfHeader + ": 1", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := tt.header + "\r\n"
			if !strings.HasPrefix(tt.header, "From:") {
				src += "From: someone@example.org\r\n"
			}
			src += "\r\nresign\r\n"
			m := readString(t, src)
			if m.Auto != tt.auto {
				t.Errorf("Auto = %v (%q), want %v", m.Auto, m.AutoReason, tt.auto)
			}
			if m.Auto && m.AutoReason == "" {
				t.Error("Auto without a reason")
			}
		})
	}
}

func TestParseCommand(t *testing.T) {
	tests := []struct{ in, want string }{
		// IceSickle
		{"L@c3", "move L@c3"}, {"l@C3", "move L@c3"}, {"a1xd4", "move a1xd4"}, {"A1XD4", "move a1xd4"},
		{"a1-d4", "move a1-d4"}, {"move s@b2", "move S@b2"},
		// Pikemen
		{"h1:NW", "move h1:NW"}, {"h1:nw", "move h1:NW"}, {"c6:u", "move c6:U"}, {"g4-e6", "move g4-e6"},
		{"g4-e6:U", "move g4-e6:U"}, {"h3xc8:S", "move h3xc8:S"}, {"h1(NW)", "move h1:NW"}, {"g4-e6(u)", "move g4-e6:U"},
		// Ice Lady
		{"c3-d4", "move c3-d4"}, {"c3xe5xc7", "move c3xe5xc7"}, {"e7-f8=K", "move e7-f8=K"}, {"d6xf8=k", "move d6xf8=K"},
		// IceFrogs
		{"d2-d3", "move d2-d3"}, {"c3-e3-e5", "move c3-e3-e5"}, {"M@a1-b1", "move M@a1-b1"}, {"L@a1-c3-c5", "move L@a1-c3-c5"},
		{"pass", "move pass"}, {"PASS", "move pass"}, {"Move c3xe5", "move c3xe5"}, {"  c3xe5.  ", "move c3xe5"},
		// Other commands
		{"board", "board"}, {"HISTORY", "history"}, {"Resign", "resign"}, {"draw", "draw"}, {"games", "games"},
		{"help", "help"}, {"accept", "accept"}, {"decline", "decline"}, {"undo", "undo"},
		{"observe 12", "observe 12"}, {"observe #12", "observe 12"},
		{"challenge Pikemen seats=3 Target=15 bob@example.org carol@example.org",
			"challenge pikemen seats=3 target=15 bob@example.org carol@example.org"},
		{"challenge ice-lady <bob@example.org>, carol@example.org", "challenge icelady bob@example.org carol@example.org"},
		{"CHALLENGE IceFrogs bob@example.org", "challenge icefrogs bob@example.org"},
		{"challenge pikemen bot", "challenge pikemen bot"},
		{"challenge Pikemen Bot level=3", "challenge pikemen level=3 bot"},
		{"challenge pikemen seats=3 bob@example.org BOT", "challenge pikemen seats=3 bob@example.org bot"},
		{"seek Pikemen", "seek pikemen"}, {"SEEK ice-lady Days=3 rating=1400-1700", "seek icelady days=3 rating=1400-1700"},
		{"seeks", "seeks"}, {"unseek", "unseek"}, {"climb 3 2", "climb 3 2"}, {"Climb #3 02", "climb 3 2"},
		{"organize Pikemen Swiss Rounds=3 start=full max=8 Club Swiss 2027", "organize pikemen swiss rounds=3 start=full max=8 Club Swiss 2027"},
		{"Organize ice-lady round-robin  Ada's  Cup", "organize icelady roundrobin Ada's Cup"},
		{"vacation 14", "vacation 14"}, {"vacation 007", "vacation 7"}, {"Vacation OFF", "vacation off"},
		{"digest on", "digest on"}, {"digest OFF", "digest off"},
		// Conditional moves and previews
		{"if M@d4 then s@a1", "if M@d4 then S@a1"}, {"IF m@d4 THEN S@a1 if a1xc3 then L@e5", "if M@d4 then S@a1 if a1xc3 then L@e5"},
		{"conditions clear", "conditions clear"}, {"Conditions Clear", "conditions clear"},
		{"moves", "moves"}, {"Moves E1", "moves e1"}, {"moves c10", "moves c10"},
		{"analyze", "analyze"}, {"Analyze 12", "analyze 12"}, {"analyze #7", "analyze 7"},
		{"preview L@c3", "preview L@c3"}, {"Preview l@c3 m@d4", "preview L@c3 M@d4"},
		// Not commands
		{"Thanks for the game!", ""}, {"", ""}, {"c3", ""}, {"e4", ""}, {"c3xe5 is my move", ""},
		{"move", ""}, {"move c3xe5 now", ""}, {"c3x", ""}, {"c3--d4", ""}, {"c0-d4", ""}, {"c123-d4", ""},
		{"h1:XX", ""}, {"h1 (NW)", ""}, {"a1-b2-c3:N", ""}, {"L@c3xd4", ""}, {"Q@c3", ""}, {"c3=K", ""},
		{"challenge chess bob@example.org", ""}, {"challenge pikemen", ""}, {"challenge pikemen seats=3", ""},
		{"challenge pikemen bob", ""}, {"vacation forever", ""}, {"vacation 1000", ""}, {"digest maybe", ""},
		{"observe", ""}, {"observe a b", ""}, {"observe G-12ab", ""}, {"observe 0", ""}, {"board please", ""}, {"Hi,", ""},
		{"if you play M@d4 then S@a1", ""}, {"if M@d4 then", ""}, {"if M@d4 S@a1", ""}, {"if M@d4 then S@a1 if", ""},
		{"if M@d4 then S@a1 and then", ""}, {"conditions", ""}, {"conditions clear all", ""}, {"preview", ""}, {"preview it", ""},
		{"moves please", ""}, {"moves e1 e2", ""}, {"moves 1e", ""}, {"moves abc1", ""},
		{"climb 3", ""}, {"climb 3 x", ""}, {"climb 3 0", ""}, {"climb 0 2", ""}, {"climb 3 2 1", ""}, {"climb 3 1000", ""},
		{"organize pikemen swiss", ""}, {"organize pikemen swiss rounds=3", ""}, {"organize chess swiss Club", ""},
		{"organize pikemen league Club", ""}, {"organize pikemen swiss Club <b>", ""}, {"organize pikemen swiss Club\"Cup", ""},
		{"organize pikemen swiss " + strings.Repeat("Long ", 13), ""},
		{"seek", ""}, {"seek chess", ""}, {"seek pikemen bob@example.org", ""}, {"seek pikemen bot", ""}, {"seeks all", ""},
		{"analyze 0", ""}, {"analyze it", ""}, {"analyze 12 13", ""}, {"analyze #", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			c, ok := ParseCommand(tt.in, grammar)
			got := ""
			if ok {
				got = c.String()
			}
			if ok != (tt.want != "") || got != tt.want {
				t.Errorf("ParseCommand(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
			}
		})
	}
}

func TestCommandsAndComment(t *testing.T) {
	tests := []struct {
		name, body string
		commands   []string
		comment    string
	}{
		{"move only", "c3xe5\n", []string{"move c3xe5"}, ""},
		{"move and prose", "c3xe5\nNice trap.\nReally.\n", []string{"move c3xe5"}, "Nice trap.\nReally."},
		{"several commands", "draw\n\nhistory\n", []string{"draw", "history"}, ""},
		{"prose first", "Hi,\nc3xe5\n", nil, ""},
		{"prose alone", "Thanks for the game!\n", nil, ""},
		{"leading blank lines", "\n\n  move c3xe5\n\n\n\nGG\n", []string{"move c3xe5"}, "GG"},
		{"command after prose stays prose", "c3xe5\nwell\nresign\n", []string{"move c3xe5"}, "well\nresign"},
		{"at most MaxCommands", strings.Repeat("board\n", MaxCommands+2), repeat("board", MaxCommands), "board\nboard"},
		{"nbsp and zero width", "\u200bc3xe5\u00a0\n\ufeffok\n", []string{"move c3xe5"}, "ok"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := readString(t, "From: a@b.example\nSubject: game\n\n"+tt.body)
			if !reflect.DeepEqual(lines(m.Commands), tt.commands) {
				t.Errorf("Commands = %q, want %q", m.Commands, tt.commands)
			}
			if m.Comment != tt.comment {
				t.Errorf("Comment = %q, want %q", m.Comment, tt.comment)
			}
		})
	}
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestBareSubject(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Re: c3xe5", "c3xe5"},
		{"RE: Fwd: AW: SV: [icepost ab12cd] move c3xe5", "move c3xe5"},
		{"Re[2]: resign", "resign"},
		{"Re: [icepost ab12cd] Ice Lady: your move", "Ice Lady: your move"},
		{"Wg: draw", "draw"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := bareSubject(tt.in); got != tt.want {
				t.Errorf("bareSubject(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	for _, src := range []string{"", "\r\n\r\nbody only", " leading space: x\n\nc3xe5", "no colon here\n\nc3xe5"} {
		t.Run(src, func(t *testing.T) {
			if _, err := Read(strings.NewReader(src), grammar); err == nil {
				t.Error("want an error")
			}
			r := Summary(strings.NewReader(src), grammar)
			if r.Error == "" || r.Commands == nil {
				t.Errorf("Summary = %+v", r)
			}
		})
	}
	// A header without a body is fine.
	if _, err := Read(strings.NewReader("From: a@b.example\nSubject: board"), grammar); err != nil {
		t.Errorf("header only: %v", err)
	}
}

// The JSON printed by `icepost mail parse -json`: one object whose first
// keys are commands, comment, auto, error, in that order.
func TestJSONShape(t *testing.T) {
	for _, tt := range []struct{ name, src string }{
		{"move", "From: a@b.example\nSubject: game\n\nc3xe5\nnice\n"},
		{"nothing", "From: a@b.example\nSubject: game\n\nhello\n"},
		{"unreadable", "no header\n\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Summary(strings.NewReader(tt.src), grammar).JSON()
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(bytes.NewReader(b))
			var keys []string
			if tok, _ := dec.Token(); tok != json.Delim('{') {
				t.Fatalf("not an object: %s", b)
			}
			for dec.More() {
				k, _ := dec.Token()
				keys = append(keys, k.(string))
				var v json.RawMessage
				if err := dec.Decode(&v); err != nil {
					t.Fatal(err)
				}
			}
			if len(keys) < 4 || !reflect.DeepEqual(keys[:4], []string{"commands", "comment", "auto", "error"}) {
				t.Errorf("keys = %q in %s", keys, b)
			}
			var r struct {
				Commands []string `json:"commands"`
				Comment  *string  `json:"comment"`
				Auto     *bool    `json:"auto"`
				Error    *string  `json:"error"`
			}
			if err := json.Unmarshal(b, &r); err != nil || r.Commands == nil || r.Comment == nil || r.Auto == nil || r.Error == nil {
				t.Errorf("bad shape %s (%v)", b, err)
			}
		})
	}
	b, _ := Summary(strings.NewReader("From: a@b.example\n\nC3XE5\nnice\n"), grammar).JSON()
	if !bytes.HasPrefix(b, []byte(`{"commands":["move c3xe5"],"comment":"nice","auto":false,"error":""`)) {
		t.Errorf("JSON = %s", b)
	}
}

func TestUnflow(t *testing.T) {
	tests := []struct {
		in    string
		delSp bool
		want  string
	}{
		{"a \nb\n", false, "a b\n"},
		{"a \nb\n", true, "ab\n"},
		{" From me\n", false, "From me\n"},
		{"> a \n> b\nc\n", false, "> a b\nc\n"},
		{"a \n> b\n", false, "a \n> b\n"},
		{"-- \nsig\n", false, "-- \nsig\n"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := unflow(tt.in, tt.delSp); got != tt.want {
				t.Errorf("unflow(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestDecodeCharset(t *testing.T) {
	tests := []struct {
		charset string
		in      []byte
		want    string
	}{
		{"windows-1252", []byte{0x93, 'h', 'i', 0x94, 0x80}, "“hi”€"},
		{"ISO-8859-1", []byte{'c', 'a', 'f', 0xE9}, "café"},
		{"iso-8859-15", []byte{0xA4}, "€"},
		{"koi8-r", []byte{0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4}, "Привет"},
		{"windows-1251", []byte{0xCF, 0xF0, 0xE8}, "При"},
		{"utf-16le", []byte{0xFF, 0xFE, 'o', 0, 'k', 0}, "ok"},
		{"utf-16", []byte{0, 'o', 0, 'k'}, "ok"},
		{"", []byte{'G', 'r', 0xFC, 0xDF}, "Grüß"},
		{"utf-8", []byte{'a', 0xFF}, "a\uFFFD"},
		{"x-unknown", []byte("plain ascii"), "plain ascii"},
	}
	for _, tt := range tests {
		t.Run(tt.charset, func(t *testing.T) {
			if got, _ := decodeCharset(tt.charset, tt.in); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestHTMLText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"entities and br", "<p>a &amp; b<br>c&nbsp;d &#x41;</p>", "a & b\nc\u00a0d A"},
		{"script and style", "<style>p{}</style><script>x<y</script>ok", "ok"},
		{"comment", "a<!-- <b>hidden</b> -->b", "ab"},
		{"blockquote", "mine<blockquote>theirs<blockquote>deeper</blockquote>still</blockquote>after", "mine\n>\nafter"},
		{"literal lt", "a < b", "a < b"},
		{"unclosed tag", "ok<div class=\"x", "ok"},
		{"pre", "<pre>a  b\n c</pre>", "a  b\n c"},
		{"hr cuts", "mine<hr>From: x", "mine"},
		{"border-top cuts", "mine<div style='border:none;border-top:solid #E1E1E1 1.0pt'>From: x</div>", "mine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := htmlText(tt.in); got != tt.want {
				t.Errorf("htmlText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestSizeBounds(t *testing.T) {
	// A huge text part: read without trouble, the command still found.
	big := "From: a@b.example\nSubject: game\n\nc3xe5\n" + strings.Repeat("x", 6<<20) + "\n"
	m := readString(t, big)
	if len(m.Commands) != 1 {
		t.Errorf("Commands = %q", m.Commands)
	}
	if len(m.Comment) > maxComment {
		t.Errorf("comment of %d bytes", len(m.Comment))
	}
	// Deep multipart nesting.
	var b strings.Builder
	b.WriteString("From: a@b.example\nContent-Type: multipart/mixed; boundary=b0\n\n")
	for i := 1; i < 50; i++ {
		b.WriteString("--b" + string(rune('0'+i%10)) + "\nContent-Type: multipart/mixed; boundary=b" + string(rune('0'+(i+1)%10)) + "\n\n")
	}
	readString(t, b.String())
}

func ExampleRead() {
	mail := "From: Bob <bob@example.org>\r\n" +
		"To: games+K7Q2@icepost.example\r\n" +
		"Subject: Re: [icepost 3f9a] Ice Lady: your move\r\n" +
		"\r\n" +
		"c3xE5\r\n" +
		"Didn't see that coming, did you?\r\n" +
		"\r\n" +
		"On Mon, 3 Jun 2024 at 10:00, icepost <games+K7Q2@icepost.example> wrote:\r\n" +
		"> Your move.\r\n"
	m, err := Read(strings.NewReader(mail), grammar)
	if err != nil {
		panic(err)
	}
	b, _ := m.Result().JSON()
	os.Stdout.Write(b)
	// Output:
	// {"commands":["move c3xe5"],"comment":"Didn't see that coming, did you?","auto":false,"error":"","from":"bob@example.org","subject":"Re: [icepost 3f9a] Ice Lady: your move","plus_parts":["k7q2"]}
}
