// icepost demo: two scripted players play a short game by mail on the
// embedded mail system, every mail printed.

package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/mail"
	"os"
	"path/filepath"
	"strings"
	"time"

	gomail "github.com/emersion/go-message/mail"

	"icepost/pbem/localmail"
	"icepost/pbem/mailbox"
	"icepost/rules/games"
)

// cmdDemo plays a short game by mail between two scripted players on the
// embedded mail system, printing every mail as it goes.
func cmdDemo(e *env, args []string) int {
	fs := newFlags(e, "demo")
	moves := fs.Int("moves", 6, "moves to play before the players agree a draw")
	seed := fs.Uint64("seed", 1, "random seed for the players' moves")
	dirFlag := fs.String("dir", "", "where to keep the demo's database (with the archived game) and the boards' pictures; default: a new folder in the system's temporary folder")
	if code := parseFlags(e, fs, args); code >= 0 {
		return code
	}
	// The folder outlives the demo: its pictures are the boards the
	// players saw, and its database holds the finished game.
	dir := *dirFlag
	var err error
	if dir == "" {
		dir, err = os.MkdirTemp("", "icepost-demo-")
	} else {
		err = os.MkdirAll(dir, 0o700)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost demo: %v\n", err)
		return exitUsage
	}
	ctx, cancel := context.WithCancel(e.ctx)
	defer cancel()
	emb, err := startEmbedded(ctx, dir+"/demo.db", "127.0.0.1:0", "127.0.0.1:0", newLogger(e.stderr, false), false)
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost demo: %v\n", err)
		return exitUsage
	}
	defer emb.close()
	emb.daemon.Poll = 200 * time.Millisecond
	done := make(chan struct{})
	go func() {
		defer close(done)
		emb.daemon.Run(ctx)
	}()
	d := &demo{e: e, sys: emb.sys, ctx: ctx, dir: dir, seen: map[string]int{}, rng: rand.New(rand.NewPCG(*seed, 7))}
	err = d.play(*moves)
	cancel()
	<-done
	if err != nil {
		fmt.Fprintf(e.stderr, "icepost demo: %v\n", err)
		return exitInvalid
	}
	db := filepath.Join(dir, "demo.db")
	fmt.Fprintf(e.stdout, `
The game is over and archived in %s:
  ./icepost archive -db %s search
The board pictures the players got are in %s.
To play yourself, against a friend or the bot (challenge icesickle bot), run
  ./icepost serve -web 127.0.0.1:8080
and set up a mail client as README.md says ("How to play").
(./icepost is the binary that ./run builds in the clone.)
`, db, db, dir)
	return exitOK
}

type demo struct {
	e    *env
	sys  *localmail.System
	ctx  context.Context
	dir  string         // where the boards' pictures go
	seen map[string]int // mails each player has read
	rng  *rand.Rand
	n    int
}

// received is a mail a scripted player got.
type received struct {
	header  mail.Header
	text    string
	picture []byte // the board's PNG, nil without one
}

func (d *demo) play(moves int) error {
	d.say("ada", "games", "new game", "", "challenge icesickle "+d.sys.Address("bob"))
	inv, err := d.wait("bob")
	if err != nil {
		return err
	}
	if _, err := d.wait("ada"); err != nil {
		return err
	}
	d.reply("bob", inv, "accept")
	last := map[string]received{}
	for _, p := range []string{"ada", "bob"} {
		if last[p], err = d.wait(p); err != nil {
			return err
		}
	}
	g, _ := games.Lookup("IceSickle")
	for i := 0; i <= moves; i++ {
		mover := "ada"
		if strings.Contains(last["bob"].text, "YOUR MOVE") {
			mover = "bob"
		}
		other := map[string]string{"ada": "bob", "bob": "ada"}[mover]
		body := ""
		if i == moves {
			body = "draw"
		} else {
			code := lineAfter(last[mover].text, "Position: ")
			s, err := g.ParsePosition(code)
			if err != nil {
				return fmt.Errorf("%s cannot read the board: %v", mover, err)
			}
			legal := s.Moves(nil)
			body = s.FormatMove(legal[d.rng.IntN(len(legal))])
			if i == 1 {
				body += "\nYour turn: good luck!"
			}
		}
		d.reply(mover, last[mover], body)
		for _, p := range []string{mover, other} {
			if last[p], err = d.wait(p); err != nil {
				return err
			}
		}
		if i == moves {
			d.reply(other, last[other], "draw")
			for _, p := range []string{"ada", "bob"} {
				if _, err := d.wait(p); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func lineAfter(text, prefix string) string {
	for _, l := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimRight(l, "\r"), prefix); ok {
			return v
		}
	}
	return ""
}

// say sends a mail from a player through the embedded SMTP server.
func (d *demo) say(from, to, subject, headers, body string) {
	d.n++
	msg := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <demo%d@%s>\r\nDate: %s\r\n%sContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		d.sys.Address(from), toAddr(d, to), subject, d.n, d.sys.Domain, time.Now().Format(time.RFC1123Z), headers, strings.ReplaceAll(body, "\n", "\r\n"))
	fmt.Fprintf(d.e.stdout, "\n>>> %s writes to %s: %q\n", from, toAddr(d, to), strings.SplitN(body, "\n", 2)[0])
	s, _ := mailbox.NewSender(mailbox.SMTPConfig{Addr: d.sys.SMTPAddr, TLS: mailbox.TLSNone, Username: from, Password: d.sys.Password(from)})
	if err := s.Send(d.ctx, d.sys.Address(from), []string{toAddr(d, to)}, []byte(msg)); err != nil {
		fmt.Fprintf(d.e.stderr, "icepost demo: sending: %v\n", err)
	}
}

func toAddr(d *demo, to string) string {
	if strings.Contains(to, "@") {
		return to
	}
	return d.sys.Address(to)
}

// reply answers a received mail the way a mail client does.
func (d *demo) reply(from string, to received, body string) {
	rt, _ := mail.ParseAddress(to.header.Get("Reply-To"))
	id := to.header.Get("Message-ID")
	headers := "In-Reply-To: " + id + "\r\nReferences: " + id + "\r\n"
	d.say(from, rt.Address, "Re: "+to.header.Get("Subject"), headers, body)
}

// wait returns the next mail for user, printing it.
func (d *demo) wait(user string) (received, error) {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		msgs, err := d.sys.Messages(d.ctx, user, "")
		if err == nil && len(msgs) > d.seen[user] {
			raw := msgs[d.seen[user]].Raw
			d.seen[user]++
			r, err := readReceived(raw)
			if err != nil {
				return r, err
			}
			fmt.Fprintf(d.e.stdout, "\n<<< mail to %s, subject %q\n%s", user, r.header.Get("Subject"), indent(r.text))
			if r.picture != nil {
				path := filepath.Join(d.dir, fmt.Sprintf("%s-%02d.png", user, d.seen[user]))
				if err := os.WriteFile(path, r.picture, 0o644); err != nil {
					return r, err
				}
				fmt.Fprintf(d.e.stdout, "    [the board as a picture, as a mail client shows it: %s]\n", path)
			}
			return r, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return received{}, fmt.Errorf("no mail came for %s within 30 seconds", user)
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("    " + strings.TrimRight(l, "\r") + "\n")
	}
	return b.String()
}

func readReceived(raw []byte) (received, error) {
	hm, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return received{}, err
	}
	r := received{header: hm.Header}
	mr, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		return r, err
	}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return r, err
		}
		if h, ok := p.Header.(*gomail.InlineHeader); ok {
			switch ct, _, _ := h.ContentType(); {
			case ct == "text/plain" && r.text == "":
				b, _ := io.ReadAll(p.Body)
				r.text = strings.ReplaceAll(string(b), "\r\n", "\n")
			case ct == "image/png" && r.picture == nil:
				r.picture, _ = io.ReadAll(p.Body)
			}
		}
	}
	return r, nil
}
