package mailtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"

	"icepost/pbem/localmail"
)

// DovecotUsers are the accounts StartDovecot creates, name to password.
var DovecotUsers = map[string]string{
	"games": "games-secret",
	"alice": "alice-secret",
	"bob":   "bob-secret",
}

// DovecotOptions adjusts StartDovecotWith.
type DovecotOptions struct {
	// Users replaces DovecotUsers.
	Users map[string]string
	// Capabilities, when set, replaces the capabilities Dovecot advertises
	// after login (imap_capability), for example to hide IDLE or MOVE.
	// Dovecot still understands the commands; well-behaved clients do not
	// send them.
	Capabilities string
	// Cert, when set, turns TLS on: STARTTLS on Addr, and implicit TLS
	// on TLSAddr, with this certificate (from a test CA: NewCA).
	Cert *Cert
}

// Dovecot is a throwaway Dovecot IMAP server on 127.0.0.1 for a test.
type Dovecot struct {
	// Addr is the IMAP (clear text) host:port; with DovecotOptions.Cert
	// it offers STARTTLS.
	Addr string
	// TLSAddr is the IMAPS (implicit TLS) host:port, with
	// DovecotOptions.Cert; "" without.
	TLSAddr string
	// Users maps account names to passwords.
	Users map[string]string

	t    testing.TB
	bin  string
	dir  string
	conf string
	cmd  *exec.Cmd
	exit chan struct{}

	mu   sync.Mutex
	gen  int                             // counts stops: connections of an older one are dead
	idle map[string][]*imapclient.Client // logged-in delivery connections of gen, by user
}

// StartDovecot starts Dovecot with DovecotUsers and stops it when the test
// ends. Without a dovecot binary the test is skipped, or fails when the
// environment variable CI is "true".
func StartDovecot(t testing.TB) *Dovecot {
	return StartDovecotWith(t, DovecotOptions{})
}

// StartDovecotWith is StartDovecot with options.
func StartDovecotWith(t testing.TB, o DovecotOptions) *Dovecot {
	t.Helper()
	bin, err := exec.LookPath("dovecot")
	if err != nil {
		bin = "/usr/sbin/dovecot"
		if _, err := os.Stat(bin); err != nil {
			const msg = "!!! dovecot is not installed: SKIPPING the Dovecot integration test (apt-get install dovecot-imapd) !!!"
			if os.Getenv("CI") == "true" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	if o.Users == nil {
		o.Users = DovecotUsers
	}
	// Not t.TempDir: it is mode 0700, and Dovecot's unprivileged login and
	// mail processes must reach into the directory. Short, too: unix socket
	// paths in base_dir must stay under 108 bytes.
	dir, err := os.MkdirTemp("", "icepost-dovecot-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	d := &Dovecot{Users: o.Users, t: t, bin: bin, dir: dir, conf: filepath.Join(dir, "dovecot.conf")}
	if err := d.writeConfig(o); err != nil {
		t.Fatal(err)
	}
	d.start()
	t.Cleanup(d.stop)
	return d
}

// freePort asks the kernel for a free TCP port on 127.0.0.1. Another
// process could take it before Dovecot binds it; that is unlikely enough.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func (d *Dovecot) writeConfig(o DovecotOptions) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	d.Addr = fmt.Sprintf("127.0.0.1:%d", port)
	for _, sub := range []string{"run", "state", "mail"} {
		if err := os.Mkdir(filepath.Join(d.dir, sub), 0o755); err != nil {
			return err
		}
	}
	if err := os.Chmod(d.dir, 0o755); err != nil {
		return err
	}

	// Dovecot refuses to run its login processes, and to access mail, as
	// root. As root: internal processes run as root, login as nobody, mail
	// as nobody (owning the mail directory). As anyone else: everything
	// runs as that user, who cannot switch users anyway.
	me, err := user.Current()
	if err != nil {
		return err
	}
	var users string
	if os.Geteuid() == 0 {
		nobody, err := user.Lookup("nobody")
		if err != nil {
			return fmt.Errorf("dovecot as root needs a 'nobody' user: %w", err)
		}
		var uid, gid int
		fmt.Sscan(nobody.Uid, &uid)
		fmt.Sscan(nobody.Gid, &gid)
		if err := os.Chown(filepath.Join(d.dir, "mail"), uid, gid); err != nil {
			return err
		}
		users = fmt.Sprintf("default_internal_user = root\ndefault_internal_group = root\n"+
			"default_login_user = nobody\nmail_uid = %d\nmail_gid = %d\n", uid, gid)
	} else {
		g, err := user.LookupGroupId(me.Gid)
		if err != nil {
			return err
		}
		users = fmt.Sprintf("default_internal_user = %s\ndefault_internal_group = %s\n"+
			"default_login_user = %s\n", me.Username, g.Name, me.Username)
	}

	var names []string
	for name := range d.Users {
		names = append(names, name)
	}
	sort.Strings(names)
	var passwd strings.Builder
	for _, name := range names {
		fmt.Fprintf(&passwd, "%s:{PLAIN}%s\n", name, d.Users[name])
	}
	if err := os.WriteFile(filepath.Join(d.dir, "passwd"), []byte(passwd.String()), 0o644); err != nil {
		return err
	}

	caps := ""
	if o.Capabilities != "" {
		caps = "imap_capability = " + o.Capabilities + "\n"
	}
	ssl, imapsPort := "ssl = no\n", 0
	if o.Cert != nil {
		if imapsPort, err = freePort(); err != nil {
			return err
		}
		d.TLSAddr = fmt.Sprintf("127.0.0.1:%d", imapsPort)
		certFile, keyFile := filepath.Join(d.dir, "cert.pem"), filepath.Join(d.dir, "key.pem")
		if err := os.WriteFile(certFile, o.Cert.CertPEM, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(keyFile, o.Cert.KeyPEM, 0o600); err != nil {
			return err
		}
		ssl = fmt.Sprintf("ssl = yes\nssl_cert = <%s\nssl_key = <%s\n", certFile, keyFile)
	}
	conf := fmt.Sprintf(`# Written by icepost's mailtest.StartDovecot for one test.
base_dir = %[1]s/run
state_dir = %[1]s/state
log_path = %[1]s/dovecot.log
info_log_path = %[1]s/dovecot.log
protocols = imap
listen = 127.0.0.1
%[5]sdisable_plaintext_auth = no
auth_mechanisms = plain login
%[2]sfirst_valid_uid = 0
first_valid_gid = 0
mail_location = maildir:%[1]s/mail/%%u
mailbox_idle_check_interval = 1 secs
shutdown_clients = yes
%[4]s
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%%u %[1]s/passwd
}
userdb {
  driver = static
  args = home=%[1]s/mail/%%u
}
namespace inbox {
  inbox = yes
  separator = /
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = %[3]d
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = %[6]d
  }
}
`, d.dir, users, port, caps, ssl, imapsPort)
	return os.WriteFile(d.conf, []byte(conf), 0o644)
}

func (d *Dovecot) start() {
	d.t.Helper()
	logf, err := os.OpenFile(filepath.Join(d.dir, "stderr.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		d.t.Fatal(err)
	}
	cmd := exec.Command(d.bin, "-F", "-c", d.conf)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		logf.Close()
		d.t.Fatalf("start dovecot: %v", err)
	}
	exit := make(chan struct{})
	go func() {
		cmd.Wait()
		logf.Close()
		close(exit)
	}()
	d.cmd, d.exit = cmd, exit

	deadline := time.Now().Add(10 * time.Second)
	for {
		conn, err := net.DialTimeout("tcp", d.Addr, time.Second)
		if err == nil && d.TLSAddr != "" {
			conn.Close()
			conn, err = net.DialTimeout("tcp", d.TLSAddr, time.Second)
		}
		if err == nil {
			conn.Close()
			return
		}
		select {
		case <-exit:
			d.t.Fatalf("dovecot exited at start:\n%s", d.Log())
		default:
		}
		if time.Now().After(deadline) {
			d.stop()
			d.t.Fatalf("dovecot did not listen on %s within 10s: %v\n%s", d.Addr, err, d.Log())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop ends the Dovecot master (which ends its children) and waits.
func (d *Dovecot) stop() {
	if d.cmd == nil {
		return
	}
	pid := d.cmd.Process.Pid
	// SIGTERM to the whole group: the master alone would wait about a
	// second for its children.
	syscall.Kill(-pid, syscall.SIGTERM)
	select {
	case <-d.exit:
	case <-time.After(5 * time.Second):
		<-d.exit
	}
	d.dropIdle()
	// Children of the master that outlive it (an imap process serving a
	// client) would keep old sessions alive: end the process group that
	// start created.
	syscall.Kill(-pid, syscall.SIGKILL)
	d.cmd = nil
	if d.t.Failed() {
		d.t.Logf("dovecot log:\n%s", d.Log())
	}
}

// Stop stops Dovecot now (it is also stopped when the test ends). Start it
// again with Restart.
func (d *Dovecot) Stop() { d.stop() }

// Restart stops Dovecot, if running, and starts it again on the same port
// with the same mail: clients see their connections dropped.
func (d *Dovecot) Restart() {
	d.t.Helper()
	d.stop()
	d.start()
}

// Log returns Dovecot's log so far.
func (d *Dovecot) Log() string {
	b, _ := os.ReadFile(filepath.Join(d.dir, "dovecot.log"))
	e, _ := os.ReadFile(filepath.Join(d.dir, "stderr.log"))
	return string(b) + string(e)
}

// Deliver appends msg to user's INBOX over IMAP, as that user. Its
// signature fits localmail.Config.Deliver, so that the embedded SMTP
// server can deliver into Dovecot. It is safe for concurrent use.
//
// Deliveries reuse logged-in connections, as a mail server's delivery
// agent keeps its LMTP connections: a login costs Dovecot about 11 ms
// (two processes and an authentication) and an APPEND about 2.5 ms, so
// logging in for each mail made the test harness, not icepost, most of
// what the mail benchmarks measured.
func (d *Dovecot) Deliver(ctx context.Context, user string, msg []byte) error {
	c, gen, err := d.takeIdle(ctx, user)
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { c.Close() })
	err = appendOn(c, user, "INBOX", msg)
	if !stop() {
		err = errors.Join(ctx.Err(), err)
	}
	if err != nil {
		c.Close() // its state is unknown: never reused
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if gen != d.gen {
		c.Close()
		return nil
	}
	if d.idle == nil {
		d.idle = map[string][]*imapclient.Client{}
	}
	d.idle[user] = append(d.idle[user], c)
	return nil
}

// takeIdle returns an idle delivery connection for user, or a new one.
func (d *Dovecot) takeIdle(ctx context.Context, user string) (*imapclient.Client, int, error) {
	d.mu.Lock()
	gen := d.gen
	if n := len(d.idle[user]); n > 0 {
		c := d.idle[user][n-1]
		d.idle[user] = d.idle[user][:n-1]
		d.mu.Unlock()
		return c, gen, nil
	}
	d.mu.Unlock()
	c, err := localmail.Login(ctx, d.Addr, user, d.Users[user])
	return c, gen, err
}

// dropIdle closes the idle delivery connections (Dovecot is stopping).
func (d *Dovecot) dropIdle() {
	d.mu.Lock()
	idle := d.idle
	d.idle = nil
	d.gen++
	d.mu.Unlock()
	for _, cs := range idle {
		for _, c := range cs {
			c.Close()
		}
	}
}

// Messages returns the messages of user's mailbox (INBOX if ""), oldest
// first, without changing their flags.
func (d *Dovecot) Messages(ctx context.Context, user, mailbox string) ([]localmail.Message, error) {
	return localmail.ReadMailbox(ctx, d.Addr, user, d.Users[user], mailbox)
}

// appendOn appends msg to mailbox on a logged-in connection.
func appendOn(c *imapclient.Client, user, mailbox string, msg []byte) error {
	cmd := c.Append(mailbox, int64(len(msg)), nil)
	if _, err := cmd.Write(msg); err != nil {
		cmd.Close()
		return err
	}
	if err := cmd.Close(); err != nil {
		return err
	}
	if _, err := cmd.Wait(); err != nil {
		return fmt.Errorf("mailtest: append to %s's %s: %w", user, mailbox, err)
	}
	return nil
}

// CPUTime returns the processor time Dovecot has used so far, user and
// system: its master's and every descendant's, those still running and
// those ended (the kernel adds an ended process's time to its parent's
// when the parent reaps it). It reads /proc, so it works on Linux only,
// and is 0 elsewhere; the mail benchmarks report it per mail.
func (d *Dovecot) CPUTime() time.Duration {
	if d.cmd == nil {
		return 0
	}
	type proc struct {
		ppid  int
		ticks int64
	}
	procs := map[int]proc{}
	dirs, _ := os.ReadDir("/proc")
	for _, e := range dirs {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command name, in parentheses, may hold spaces: fields
		// count from the last ')'.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 15 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		var ticks int64
		for _, s := range f[11:15] { // utime stime cutime cstime
			n, _ := strconv.ParseInt(s, 10, 64)
			ticks += n
		}
		procs[pid] = proc{ppid, ticks}
	}
	in := map[int]bool{d.cmd.Process.Pid: true}
	for changed := true; changed; {
		changed = false
		for pid, p := range procs {
			if !in[pid] && in[p.ppid] {
				in[pid], changed = true, true
			}
		}
	}
	var ticks int64
	for pid := range in {
		ticks += procs[pid].ticks
	}
	return time.Duration(ticks) * time.Second / clockTicks
}

// clockTicks is the kernel's USER_HZ, the unit of /proc's times: 100 on
// Linux on amd64 and arm64 (sysconf(_SC_CLK_TCK)).
const clockTicks = 100
