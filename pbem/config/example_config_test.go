package config_test

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"icepost/pbem"
	"icepost/pbem/config"
)

// deploy/icepost.toml, the operators' example, parses as it stands and
// names every key a config can hold (set, or commented out), so that a
// new setting cannot be left out of it.
func TestExampleConfig(t *testing.T) {
	path := filepath.Join("..", "..", "deploy", "icepost.toml")
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatalf("the example does not load: %v", err)
	}
	if cfg.Address != "games@example.org" || cfg.IMAP.TLS != "tls" || cfg.SMTP.TLS != "starttls" {
		t.Errorf("the example read as %+v", cfg)
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The keys of each table, as the file names them (# key = ... too).
	named := map[string]bool{}
	section := ""
	head := regexp.MustCompile(`^\[(\w+)\]`)
	key := regexp.MustCompile(`^#?\s*(\w+)\s*=`)
	for _, line := range strings.Split(string(text), "\n") {
		line = strings.TrimSpace(line)
		if m := head.FindStringSubmatch(line); m != nil {
			section = m[1] + "."
			continue
		}
		if m := key.FindStringSubmatch(line); m != nil {
			named[section+m[1]] = true
		}
	}
	for _, k := range tomlKeys(reflect.TypeOf(config.Config{}), "") {
		if !named[k] {
			t.Errorf("deploy/icepost.toml does not name %s", k)
		}
	}
}

// tomlKeys lists the keys of a config struct, tables as "table.key".
func tomlKeys(typ reflect.Type, prefix string) []string {
	var out []string
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if name == "" || name == "-" {
			continue
		}
		if f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeOf(pbem.Duration{}) {
			out = append(out, tomlKeys(f.Type, prefix+name+".")...)
			continue
		}
		out = append(out, prefix+name)
	}
	return out
}
