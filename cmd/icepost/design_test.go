package main

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docs/design.md's list of packages and which way they depend is checked
// against the code, so that it cannot drift: TestDesignDependencies.
//
// The list is the first fenced code block of docs/design.md that holds an
// arrow. Its grammar:
//
//   - An entry starts at the beginning of a line: a package, an arrow
//     (→, or ->), and what the package imports, comma-separated:
//     "pbem/mailbox   → pbem/mailerr, pbem/xoauth2".
//   - A line that starts with a space continues the entry above it; blank
//     lines are ignored.
//   - A package is named by its path in the module, without "icepost/"
//     (which is allowed too): pbem/mailbox, cmd/icepost.
//   - Anything in parentheses is a remark and is ignored; it may span
//     lines: "pbem/localmail (the embedded mail system of serve and demo)",
//     "render → rules (and golang.org/x/image)".
//   - "nothing of icepost" is an empty list: "rules → nothing of icepost".
//   - A leading "and" of an item is ignored: "rules, and each game package".
//   - rules/<game> stands for every game package: each rules/X (one level
//     down) that has no entry of its own. "each game package" in a list is
//     all of them. A rules/X that is not one of rules/games's games (the
//     test game rules/counting, the suite rules/rulestest) has an entry of
//     its own.
//
// An entry lists the package's direct imports among icepost's packages
// (the imports of its non-test files), every one of them and no other;
// every package of the module, test-support packages included, has an
// entry; and imports run down the list: a package imports only packages
// whose entries are below its own.

// designDoc is docs/design.md, from this package's directory.
const designDoc = "../../docs/design.md"

// gamePattern stands for each game package in the list.
const gamePattern = "rules/<game>"

// eachGame is the item "each game package", as designList gives it.
const eachGame = "each game package"

// designEntry is one entry of the list.
type designEntry struct {
	pkg     string   // as written, without "icepost/": "pbem/mailbox", or gamePattern
	line    int      // the line of docs/design.md it starts on
	imports []string // as written (gamePattern, eachGame and packages); none for "nothing of icepost"
}

var (
	designArrow = regexp.MustCompile(`^(\S+)\s+(?:→|->)\s*(.*)$`)
	designItem  = regexp.MustCompile(`^[a-z0-9_.<>/-]+$`)
)

// designList reads the list out of docs/design.md's text.
func designList(doc string) ([]designEntry, error) {
	type raw struct {
		pkg  string
		line int
		text string
	}
	var block []raw
	in, found := false, false
	sc := bufio.NewScanner(strings.NewReader(doc))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			if in && len(block) > 0 {
				found = true
				break
			}
			in = !in
			block = nil
			continue
		}
		if !in || strings.TrimSpace(line) == "" {
			continue
		}
		if m := designArrow.FindStringSubmatch(line); m != nil {
			block = append(block, raw{pkg: strings.TrimPrefix(m[1], "icepost/"), line: n, text: m[2]})
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if len(block) > 0 {
				block[len(block)-1].text += " " + strings.TrimSpace(line)
			}
			// else: an indented line before any entry, in a block that
			// may be another one.
			continue
		}
		if len(block) > 0 {
			return nil, fmt.Errorf("line %d: %q is neither an entry (package → imports) nor its continuation (indented)", n, line)
		}
	}
	if !found {
		return nil, fmt.Errorf("no code block with a line like \"pbem/mailbox → pbem/mailerr, pbem/xoauth2\"")
	}
	var out []designEntry
	seen := map[string]int{}
	for _, r := range block {
		if !designItem.MatchString(r.pkg) {
			return nil, fmt.Errorf("line %d: %q is not a package", r.line, r.pkg)
		}
		if l, ok := seen[r.pkg]; ok {
			return nil, fmt.Errorf("line %d: %s has an entry already, on line %d", r.line, r.pkg, l)
		}
		seen[r.pkg] = r.line
		text, err := dropRemarks(r.text)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", r.line, err)
		}
		e := designEntry{pkg: r.pkg, line: r.line}
		nothing := false
		for _, item := range strings.Split(text, ",") {
			item = strings.Join(strings.Fields(item), " ")
			item = strings.TrimPrefix(item, "and ")
			switch {
			case item == "":
			case item == "nothing of icepost":
				nothing = true
			case item == eachGame:
				e.imports = append(e.imports, eachGame)
			case designItem.MatchString(item):
				e.imports = append(e.imports, strings.TrimPrefix(item, "icepost/"))
			default:
				return nil, fmt.Errorf("line %d: %s → %q: not a package, \"nothing of icepost\" or %q (a remark goes in parentheses)", r.line, r.pkg, item, eachGame)
			}
		}
		switch {
		case nothing && len(e.imports) > 0:
			return nil, fmt.Errorf("line %d: %s imports \"nothing of icepost\" and %s", r.line, r.pkg, strings.Join(e.imports, ", "))
		case !nothing && len(e.imports) == 0:
			return nil, fmt.Errorf("line %d: %s → nothing: write \"nothing of icepost\"", r.line, r.pkg)
		}
		out = append(out, e)
	}
	return out, nil
}

// dropRemarks is s without what stands in parentheses.
func dropRemarks(s string) (string, error) {
	var b strings.Builder
	depth := 0
	for _, c := range s {
		switch {
		case c == '(':
			depth++
		case c == ')':
			if depth == 0 {
				return "", fmt.Errorf("a ) without its (: %q", s)
			}
			depth--
		case depth == 0:
			b.WriteRune(c)
		}
	}
	if depth != 0 {
		return "", fmt.Errorf("a ( without its ): %q", s)
	}
	return b.String(), nil
}

// TestDesignListGrammar: the reader of the list, on a list of each kind
// of line.
func TestDesignListGrammar(t *testing.T) {
	doc := "# x\n\n```\nnot a list\n```\n\n```\n" +
		"cmd/icepost    → web, pbem (the daemon\n" +
		"                 and its commands),\n" +
		"                 rules\n" +
		"\n" +
		"icepost/web -> rules/games, and each game package\n" +
		"rules/<game>   → rules (one game)\n" +
		"rules          → nothing of icepost (the interface)\n" +
		"```\n"
	got, err := designList(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := []designEntry{
		{pkg: "cmd/icepost", line: 8, imports: []string{"web", "pbem", "rules"}},
		{pkg: "web", line: 12, imports: []string{"rules/games", eachGame}},
		{pkg: gamePattern, line: 13, imports: []string{"rules"}},
		{pkg: "rules", line: 14},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
	for _, bad := range []string{
		"```\na → b\na → c\n```\n",
		"```\na → b (c\n```\n",
		"```\na → b, the rest\n```\n",
		"```\na → (none)\n```\n",
		"```\na → nothing of icepost, b\n```\n",
		"```\na → b\nc\n```\n",
		"no list\n",
	} {
		if _, err := designList(bad); err == nil {
			t.Errorf("designList(%q): no error", bad)
		}
	}
}

// TestDesignDependencies: docs/design.md's list of packages and their
// imports is the code's (the grammar above designDoc).
func TestDesignDependencies(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool to list the imports with")
	}
	doc, err := os.ReadFile(designDoc)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := designList(string(doc))
	if err != nil {
		t.Fatalf("docs/design.md's list of packages: %v (its grammar: cmd/icepost/design_test.go)", err)
	}
	cmd := exec.Command(goTool, "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "icepost/...")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list icepost/...: %v\n%s", err, stderr.String())
	}
	// real: each package of the module and the module's packages it imports.
	real := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg := strings.TrimPrefix(f[0], "icepost/")
		real[pkg] = []string{}
		for _, imp := range f[1:] {
			if rel, ok := strings.CutPrefix(imp, "icepost/"); ok {
				real[pkg] = append(real[pkg], rel)
			}
		}
	}

	where := map[string]int{} // package, or gamePattern, to its entry's line
	for _, e := range entries {
		where[e.pkg] = e.line
	}
	// The game packages: rules/X without an entry, when rules/<game> has one.
	var gamePkgs []string
	for pkg := range real {
		if rest, ok := strings.CutPrefix(pkg, "rules/"); ok && !strings.Contains(rest, "/") && where[pkg] == 0 && where[gamePattern] != 0 {
			gamePkgs = append(gamePkgs, pkg)
			where[pkg] = where[gamePattern]
		}
	}
	slices.Sort(gamePkgs)
	expand := func(name string) []string {
		if name == gamePattern || name == eachGame {
			return gamePkgs
		}
		return []string{name}
	}

	var problems []string
	fail := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	for _, e := range entries {
		if e.pkg != gamePattern && real[e.pkg] == nil {
			fail("docs/design.md:%d: %s is not a package of icepost (go list ./... does not list it): remove its entry", e.line, e.pkg)
			continue
		}
		// listed: the arrows the entry draws, each to its written form.
		listed := map[string]string{}
		for _, imp := range e.imports {
			for _, to := range expand(imp) {
				listed[to] = imp
			}
			if imp != eachGame && imp != gamePattern && real[imp] == nil {
				fail("docs/design.md:%d: %s → %s: %s is not a package of icepost: remove it from %s's entry", e.line, e.pkg, imp, imp, e.pkg)
			}
		}
		for _, from := range expand(e.pkg) {
			for _, to := range real[from] {
				if _, ok := listed[to]; !ok {
					fail("docs/design.md:%d: %s imports %s: add %s to the entry of %s", e.line, from, to, to, e.pkg)
				}
			}
			for _, to := range slices.Sorted(maps.Keys(listed)) {
				if real[to] == nil {
					continue // told above
				}
				if !slices.Contains(real[from], to) {
					switch {
					case e.pkg == gamePattern:
						fail("docs/design.md:%d: %s (a %s) does not import %s: give %s an entry of its own", e.line, from, gamePattern, to, from)
					case listed[to] == eachGame:
						fail("docs/design.md:%d: %s does not import %s (%s): if %s is not one of rules/games's games, give it an entry of its own", e.line, from, to, eachGame, to)
					default:
						fail("docs/design.md:%d: %s does not import %s: remove %s from the entry of %s", e.line, from, to, to, e.pkg)
					}
					continue
				}
				if where[to] != 0 && where[to] <= e.line {
					fail("docs/design.md:%d: %s → %s points up the list (%s's entry is on line %d): imports run down it; move the entry of %s below line %d", e.line, from, to, to, where[to], to, e.line)
				}
			}
		}
	}
	for _, pkg := range slices.Sorted(maps.Keys(real)) {
		if where[pkg] == 0 {
			imps := "nothing of icepost"
			if len(real[pkg]) > 0 {
				imps = strings.Join(real[pkg], ", ")
			}
			fail("docs/design.md: no entry for %s: add the line \"%s → %s\" below the entries of the packages that import it and above those of the packages it imports", pkg, pkg, imps)
		}
	}
	for _, p := range problems {
		t.Error(p)
	}
	if len(problems) > 0 {
		t.Log("the grammar of docs/design.md's list is written above designDoc in cmd/icepost/design_test.go")
	}
}
