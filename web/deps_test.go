package web

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoDaemon: the site reads the games by mail through their read model
// (pbem/mailgames), never through the mail daemon, which it does not
// need to run and must not be able to change.
func TestNoDaemon(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to list the dependencies:", err)
	}
	out, err := exec.Command(gobin, "list", "-deps", "icepost/web").Output()
	if err != nil {
		t.Fatalf("go list -deps icepost/web: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "icepost/pbem" {
			t.Fatal("icepost/web depends on icepost/pbem: read the games by mail through icepost/pbem/mailgames")
		}
	}
}
