package mailread

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// realDir holds the real-world reply fixtures copied from
// github/email_reply_parser and mailgun/talon (see their SOURCE.md). The
// path is relative to this package: the repository sits at .../main and
// shared/ beside it, locally and in CI.
const realDir = "../../../shared/fixtures/mail/real"

// fixture returns the bytes of a fixture file. Outside CI a missing
// fixture folder skips the test; in CI (CI=true) it fails it.
func fixture(t *testing.T, rel string) []byte {
	t.Helper()
	if _, err := os.Stat(realDir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("fixture folder %s missing in CI: %v", realDir, err)
		}
		t.Skipf("fixture folder %s not found (shared/ is expected beside the repository): %v", realDir, err)
	}
	b, err := os.ReadFile(filepath.Join(realDir, rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// mailWith builds a plain-text mail around body.
func mailWith(body string) string {
	return "From: Alice <alice@Example.ORG>\r\n" +
		"To: games+tok123@icepost.example\r\n" +
		"Subject: Re: [icepost ab12cd] Ice Lady, your move\r\n" +
		"Message-ID: <m1@example.org>\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\n" +
		"\r\n" + body
}

func readString(t *testing.T, s string) *Message {
	t.Helper()
	m, err := Read(strings.NewReader(s), grammar)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return m
}

func checkText(t *testing.T, what, got string, keep, drop []string) {
	t.Helper()
	for _, k := range keep {
		if !strings.Contains(got, k) {
			t.Errorf("%s lost %q; got:\n%s", what, k, got)
		}
	}
	for _, d := range drop {
		if strings.Contains(got, d) {
			t.Errorf("%s kept %q; got:\n%s", what, d, got)
		}
	}
}

// The email_reply_parser bodies with a move written above them: the move is
// the command, the author's own text (as upstream's tests expect it) is the
// comment, and quotes, attributions and signatures are gone.
func TestReplyParserFixtures(t *testing.T) {
	tests := []struct {
		file       string
		keep, drop []string
	}{
		{"email_1_1.txt", []string{"Hi folks", "I am currently using the Java HTTP API."},
			[]string{"-Abhishek Kona", "riak-users mailing list", "____"}},
		{"email_1_2.txt", []string{"Hi,", "You can list the keys for the bucket", "would do it.", "delete them all individually."},
			[]string{"wrote:", "> Hi folks", "riak-users", "Abhishek Kona"}},
		{"email_1_3.txt", []string{"Oh thanks.", "Having the function would be great."},
			[]string{"-Abhishek Kona", "Russell Brown", "You can list"}},
		{"email_1_4.txt", []string{"Awesome! I haven't had another problem with it."},
			[]string{"defunkt", "wrote", "Loader seems"}},
		{"email_1_5.txt", []string{"One: Here's what I've got.", "- This is the fourth bullet point", "Two:", "for a while."}, nil},
		{"email_1_6.txt", []string{"I get proper rendering as well.", "Sent from a magnificent torch of pixels"},
			[]string{"Corey Donohoe", "reply@reply.github.com", "wrote:", "caching"}},
		{"email_1_7.txt", []string{":+1:"}, []string{"Chris Wanstrath", "notifications@github.com", "wrote:", "Steps 0-2"}},
		{"email_1_8.txt", []string{"I will reply under this one", "and under this."},
			[]string{"Example Dev", "okay.", "Hey there, this is my signature", "Tim"}},
		{"email_2_1.txt", []string{"Outlook with a reply"}, []string{"From:", "Google Apps Sync", "-----"}},
		{"email_2_2.txt", []string{"Outlook with a reply directly above line"}, []string{"CRM Comments", "I am replying", "____"}},
		{"email_2_3.txt", []string{"Outlook with a reply directly above line"}, []string{"CRM Comments", "I am replying"}},
		{"email_BlackBerry.txt", []string{"Here is another email"}, []string{"Sent from"}},
		{"email_iPhone.txt", []string{"Here is another email"}, []string{"Sent from"}},
		{"email_multi_word_sent_from_my_mobile_device.txt", []string{"Here is another email"}, []string{"Sent from"}},
		{"email_sent_from_my_not_signature.txt", []string{"Here is another email", "Sent from my desk, is much easier then my mobile phone."}, nil},
		{"correct_sig.txt", []string{"this is an email with a correct -- signature."}, []string{"rick"}},
		{"email_sig_delimiter_in_middle_of_line.txt", []string{"Stuff happened.", "And here is a fix -- this is not a signature.", "kthxbai"}, nil},
		{"greedy_on.txt", []string{"On your remote host you can run:", "telnet 127.0.0.1 52698", "fails, the tunnel is not working."},
			[]string{"George Plymale", "odd issue", "wrote:"}},
		{"email_one_is_not_on.txt", []string{"One outstanding question I had:", "Locally (on development), when I run..."},
			[]string{"Dave Tapley", "good news"}},
		{"email_bullets.txt", []string{"test 2 this should list second", "and retain this formatting", "- and another"},
			[]string{"examples@email.goalengine.com", "Give us an example", "Joe Smith"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			body := string(fixture(t, filepath.Join("email_reply_parser", tt.file)))
			m := readString(t, mailWith("c3xe5\n"+body))
			if len(m.Commands) != 1 || m.Commands[0].String() != "move c3xe5" {
				t.Fatalf("Commands = %q, want [move c3xe5]", m.Commands)
			}
			checkText(t, "comment", m.Comment, tt.keep, tt.drop)
		})
	}
}

// The same bodies with no move: nothing is a command, and the visible text
// is still what upstream expects.
func TestReplyParserFixturesNoCommand(t *testing.T) {
	for _, file := range []string{"email_1_2.txt", "email_1_3.txt", "email_2_1.txt", "greedy_on.txt", "email_one_is_not_on.txt"} {
		t.Run(file, func(t *testing.T) {
			m := readString(t, "From: a@b.example\nSubject: Re: hello\n\n"+string(fixture(t, filepath.Join("email_reply_parser", file))))
			if len(m.Commands) != 0 || m.Comment != "" {
				t.Errorf("Commands = %q, Comment = %q; want none", m.Commands, m.Comment)
			}
		})
	}
}

// Bottom-posting: the whole fixture quoted under an attribution, the move
// written below it.
func TestBottomPostedOnFixtures(t *testing.T) {
	for _, file := range []string{"email_1_1.txt", "email_1_3.txt", "email_1_7.txt", "email_2_2.txt"} {
		t.Run(file, func(t *testing.T) {
			body := strings.ReplaceAll(string(fixture(t, filepath.Join("email_reply_parser", file))), "\r\n", "\n")
			var b strings.Builder
			b.WriteString("On Mon, 3 Jun 2024 at 10:00, icepost <games+x@icepost.example>\nwrote:\n")
			for _, l := range strings.Split(body, "\n") {
				b.WriteString("> " + l + "\n")
			}
			b.WriteString("\nh1(nw)\nYour pikemen look lonely.\n\n-- \nAlice\n")
			m := readString(t, mailWith(b.String()))
			if len(m.Commands) != 1 || m.Commands[0].String() != "move h1:NW" {
				t.Fatalf("Commands = %q, want [move h1:NW]", m.Commands)
			}
			if m.Comment != "Your pikemen look lonely." {
				t.Errorf("Comment = %q", m.Comment)
			}
		})
	}
}

// pathological.txt (very long lines) is read quickly.
func TestPathological(t *testing.T) {
	body := string(fixture(t, "email_reply_parser/pathological.txt"))
	start := time.Now()
	m := readString(t, mailWith("resign\n"+body))
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	if len(m.Commands) != 1 || m.Commands[0].String() != "resign" {
		t.Errorf("Commands = %q", m.Commands)
	}
	// Upstream's left-out email_long_quote.txt, generated: a few words,
	// then lines of tens of thousands of '>'.
	long := "c3-d4\nfine\n" + strings.Repeat(strings.Repeat(">", 50000)+"\n", 16)
	start = time.Now()
	m = readString(t, mailWith(long))
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("long quote took %v", d)
	}
	if m.Comment != "fine" {
		t.Errorf("Comment = %q", m.Comment)
	}
}

// talon's whole messages: the visible reply of each is "Hello" (the
// _reply_text files upstream also keep the signature; this package cuts
// signatures, leaving "Hello").
func TestTalonStandardReplies(t *testing.T) {
	for _, name := range []string{"android", "aol", "apple_mail", "apple_mail_2", "comcast", "gmail",
		"hotmail", "iphone", "outlook", "sparrow", "thunderbird", "yahoo"} {
		t.Run(name, func(t *testing.T) {
			m := readString(t, string(fixture(t, "talon/standard_replies/"+name+".eml")))
			got := strings.Join(ownLines(m.Text), "\n")
			if strings.TrimSpace(got) != "Hello" {
				t.Errorf("own text = %q, want %q (body %q)", got, "Hello", m.Text)
			}
			if want := readOptional(t, "talon/standard_replies/"+name+"_reply_text"); want != "" && !strings.HasPrefix(want, "Hello") {
				t.Errorf("upstream reply text %q does not start with Hello", want)
			}
			if m.Auto {
				t.Errorf("Auto = true (%s)", m.AutoReason)
			}
		})
	}
}

func readOptional(t *testing.T, rel string) string {
	b, err := os.ReadFile(filepath.Join(realDir, rel))
	if err != nil {
		return ""
	}
	return string(b)
}

// The same messages with the reply word replaced by a move: the move is
// found in every client's shape.
func TestTalonStandardRepliesWithMove(t *testing.T) {
	for _, name := range []string{"apple_mail", "apple_mail_2", "comcast", "gmail", "hotmail", "outlook", "thunderbird", "yahoo", "aol"} {
		t.Run(name, func(t *testing.T) {
			src := string(fixture(t, "talon/standard_replies/"+name+".eml"))
			// Replace the first "Hello" at a line start: the text/plain reply.
			src = strings.Replace(src, "\nHello", "\nE7-F8=k", 1)
			m := readString(t, src)
			if len(m.Commands) != 1 || m.Commands[0].String() != "move e7-f8=K" {
				t.Errorf("Commands = %q, want [move e7-f8=K]; text %q", m.Commands, m.Text)
			}
			if m.Comment != "" {
				t.Errorf("Comment = %q, want empty", m.Comment)
			}
		})
	}
}

// talon's HTML-only replies: each reduces to "Hi. I am fine. Thanks, Alex".
func TestTalonHTMLReplies(t *testing.T) {
	tests := []struct {
		file       string
		want       string // white space collapsed
		drop       []string
		wantPrefix bool
	}{
		{file: "html_replies/gmail.html", want: "Hi. I am fine. Thanks, Alex"},
		{file: "html_replies/hotmail.html", want: "Hi. I am fine. Thanks, Alex"},
		{file: "html_replies/mail_ru.html", want: "Hi. I am fine. Thanks, Alex"},
		{file: "html_replies/ms_outlook_2003.html", want: "Hi. I am fine. Thanks, Alex"},
		{file: "html_replies/ms_outlook_2007.html", want: "Hi. I am fine. Thanks, Alex"},
		{file: "html_replies/ms_outlook_2010.html", want: "Hi. I am fine. Thanks, Alex"},
		{file: "html_replies/thunderbird.html", want: "Hi. I am fine. Thanks, Alex"},
		{file: "html_replies/windows_mail.html", want: "Hi. I am fine. Thanks, Alex"},
		{file: "html_replies/yandex_ru.html", want: "Hi. I am fine. Thanks, Alex"},
		{file: "OLK_SRC_BODY_SECTION.html", want: "Reply"},
		{file: "reply-separated-by-hr.html", want: "Hi there", wantPrefix: true, drop: []string{"Hello", "From:"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			src := string(fixture(t, "talon/"+tt.file))
			got := strings.Join(strings.Fields(strings.Join(ownLines(normalize(htmlText(src))), "\n")), " ")
			if tt.wantPrefix {
				if !strings.HasPrefix(got, tt.want) {
					t.Errorf("got %q, want it to start with %q", got, tt.want)
				}
			} else if got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			checkText(t, "text", got, nil, append(tt.drop, "Sasha", "How are you", "wrote"))

			// As a whole HTML-only mail with a move in front.
			mail := "From: alex@example.com\nContent-Type: text/html; charset=utf-8\n\n" +
				strings.Replace(src, tt.want[:2], "a1xd4<br>"+tt.want[:2], 1)
			m := readString(t, mail)
			if len(m.Commands) != 1 || m.Commands[0].String() != "move a1xd4" {
				t.Errorf("Commands = %q (text %q)", m.Commands, m.Text)
			}
		})
	}
}

// A reply and its quote share one block; the quote's From header must not
// reach the comment.
func TestTalonSharedBlock(t *testing.T) {
	m := readString(t, string(fixture(t, "talon/reply-quotations-share-block.eml")))
	got := strings.Join(ownLines(m.Text), "\n")
	checkText(t, "own text", got, []string{"Hi Katharine.", "Joe XXX"}, []string{"From:", "wrote:", "New Booking Inquiry"})
}

// talon's signature bodies: a move on top, the text kept, and the mail
// read without error whatever its script.
func TestTalonSignatureBodies(t *testing.T) {
	dir := filepath.Join(realDir, "talon/signature/emails/P")
	fixture(t, "talon/signature/emails/P/unicode_msg")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Run(e.Name(), func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			m := readString(t, mailWith("draw\n\n"+string(b)))
			if len(m.Commands) != 1 || m.Commands[0].String() != "draw" {
				t.Errorf("Commands = %q", m.Commands)
			}
		})
	}
}
