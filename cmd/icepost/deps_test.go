package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The shipped binary links no test code: package testing brings its flags
// and its weight into every program that imports it, and pbem/mailtest
// (the mail servers for tests) and internal/waitfor (the tests' wait for a
// condition) are for tests only. The mail system serve and demo
// run is pbem/localmail.
func TestBinaryLinksNoTestCode(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to list the dependencies with")
	}
	out, err := exec.Command(goTool, "list", "-deps", "icepost/cmd/icepost").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if pkg == "testing" || strings.HasPrefix(pkg, "testing/") || pkg == "icepost/pbem/mailtest" || pkg == "icepost/internal/waitfor" {
			t.Errorf("icepost/cmd/icepost depends on %s (find the import with: go list -deps -f '{{.ImportPath}}: {{.Imports}}' ./cmd/icepost)", pkg)
		}
	}
}
