// Package architecture holds the test that keeps ARCHITECTURE.md true: its table of rooms says,
// for every package of the module, what it may import, and the test holds every package's
// imports (from `go list`) to it. generated_test.go holds every generated file marked
// linguist-generated in .gitattributes.
package architecture

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "twissandra"

// room is one row of the table: the packages it covers, and the packages of this module they
// and their tests may import.
type room struct {
	line       int
	packages   []string
	imports    []string
	testsAlso  []string
	anything   bool // "anything of ours"
	testsOnly  bool // the row's packages are only tests
	testsAnyOf bool // its tests may import anything but cmd/...
}

// pattern matching: "x" is the package x, "x/..." is x and every package below it.
func matches(pattern, pkg string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return pkg == base || strings.HasPrefix(pkg, base+"/")
	}
	return pkg == pattern
}

// specificity ranks a pattern: an exact package beats any x/..., a longer x/... a shorter one.
func specificity(pattern string) int {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return len(base)
	}
	return 1 << 20
}

// quoted returns the `backquoted` words of a table cell.
func quoted(cell string) []string {
	var out []string
	for {
		_, rest, ok := strings.Cut(cell, "`")
		if !ok {
			return out
		}
		word, after, ok := strings.Cut(rest, "`")
		if !ok {
			return out
		}
		out = append(out, word)
		cell = after
	}
}

// readRooms parses the table under "## The rooms" in ARCHITECTURE.md.
func readRooms(t *testing.T, path string) []room {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rooms []room
	in := false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == "## The rooms"
			continue
		case !in || !strings.HasPrefix(line, "|") || strings.HasPrefix(line, "|---") || strings.HasPrefix(line, "| package"):
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 4 {
			t.Fatalf("ARCHITECTURE.md:%d: a row of the rooms has 4 cells: %q", n, line)
		}
		r := room{line: n, packages: quoted(cells[0]), imports: quoted(cells[2]), testsAlso: quoted(cells[3])}
		r.anything = strings.Contains(cells[2], "anything of ours")
		r.testsOnly = strings.Contains(cells[2], "only tests")
		r.testsAnyOf = strings.Contains(cells[3], "anything but")
		if len(r.packages) == 0 {
			t.Fatalf("ARCHITECTURE.md:%d: a row names no package", n)
		}
		rooms = append(rooms, r)
	}
	if len(rooms) < 10 {
		t.Fatalf("ARCHITECTURE.md: %d rows under \"## The rooms\"; the table is missing or moved", len(rooms))
	}
	return rooms
}

type pkg struct {
	ImportPath   string
	Imports      []string
	TestImports  []string
	XTestImports []string
	GoFiles      []string
}

func listPackages(t *testing.T, root string) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", "./...")
	cmd.Dir = root
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

func ours(imports []string) []string {
	var out []string
	for _, im := range imports {
		if im == module || strings.HasPrefix(im, module+"/") {
			out = append(out, strings.TrimPrefix(im, module+"/"))
		}
	}
	return out
}

// roomOf is the most specific row covering p.
func roomOf(rooms []room, p string) (room, bool) {
	best, score := room{}, -1
	for _, r := range rooms {
		for _, pat := range r.packages {
			if matches(pat, p) && specificity(pat) > score {
				best, score = r, specificity(pat)
			}
		}
	}
	return best, score >= 0
}

func allowed(patterns []string, p string) bool {
	return slices.ContainsFunc(patterns, func(pat string) bool { return matches(pat, p) })
}

// Every package of the module is in a room of ARCHITECTURE.md, and imports only what its room
// may: its own code (Imports) what the row's third cell names, its tests that or the fourth's.
func TestImportsFollowTheRooms(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	rooms := readRooms(t, filepath.Join(root, "ARCHITECTURE.md"))
	pkgs := listPackages(t, root)
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages", len(pkgs))
	}
	for _, p := range pkgs {
		name := strings.TrimPrefix(p.ImportPath, module+"/")
		r, ok := roomOf(rooms, name)
		if !ok {
			t.Errorf("%s is in no room of ARCHITECTURE.md: add it to the table", name)
			continue
		}
		check := func(what string, imports []string, ok func(string) bool) {
			for _, im := range ours(imports) {
				if im != name && !ok(im) {
					t.Errorf("%s %s %s, which its room (ARCHITECTURE.md:%d) does not allow", name, what, im, r.line)
				}
			}
		}
		// A room's packages may import each other (porttest the social use cases' suite helpers,
		// a tool another tool), and what the row names.
		own := func(im string) bool { return r.anything || allowed(r.imports, im) || allowed(r.packages, im) }
		if r.testsOnly && len(p.GoFiles) > 1 {
			t.Errorf("%s is a room of tests only, and has code: %v", name, p.GoFiles)
		}
		check("imports", p.Imports, own)
		tests := func(im string) bool {
			if r.testsAnyOf {
				return !matches("cmd/...", im)
			}
			return own(im) || allowed(r.testsAlso, im)
		}
		check("is imported by its tests:", append(slices.Clone(p.TestImports), p.XTestImports...), tests)
	}
}

// The rules below the table, checked directly: the floor and the inner rings use no framework of
// the outer ones.
func TestInnerRingsUseNoOuterFramework(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	outer := []string{"github.com/gin-gonic/", "github.com/gocql/", "github.com/scylladb/", "github.com/cockroachdb/pebble", "go.uber.org/fx", "github.com/prometheus/"}
	for _, p := range listPackages(t, root) {
		name := strings.TrimPrefix(p.ImportPath, module+"/")
		if !matches("domain/...", name) && !matches("ports/...", name) {
			continue
		}
		for _, im := range p.Imports {
			for _, o := range outer {
				if strings.HasPrefix(im, o) {
					t.Errorf("%s imports %s: the domain and its contracts know no framework", name, im)
				}
			}
		}
	}
}
