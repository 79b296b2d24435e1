package portgen

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// directive is a go:generate line that runs portgen, with its kind.
var directive = regexp.MustCompile(`(?m)^//go:generate go run twissandra/internal/portgen/cmd/portgen -kind (\w+)$`)

// Every file portgen writes is what it would write now: a port changed without `go generate
// ./...` fails here, as `go generate ./... && git diff --exit-code` would.
func TestGeneratedFilesAreFresh(t *testing.T) {
	root, err := ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]string{} // dir -> kind
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range directive.FindAllSubmatch(src, -1) {
			found[filepath.Dir(path)] = string(m[1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{filepath.Join(root, "web", "metrics"): "metrics", filepath.Join(root, "adapters", "compare"): "compare"}
	for dir, kind := range want {
		if found[dir] != kind {
			t.Errorf("%s: no go:generate directive of kind %s (found %v)", dir, kind, found)
		}
	}
	for dir, kind := range found {
		got, err := Generate(kind, dir, filepath.Join(root, "ports"), FileName)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		committed, err := os.ReadFile(filepath.Join(dir, FileName))
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		if !bytes.Equal(got, committed) {
			t.Errorf("%s is stale: run go generate ./... and commit what it writes", filepath.Join(dir, FileName))
		}
	}
}

// Every port of ports.Stores is read, with every method, its parameters and its results.
func TestReadPorts(t *testing.T) {
	root, err := ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	ps, imports, err := ReadPorts(filepath.Join(root, "ports"))
	if err != nil {
		t.Fatal(err)
	}
	var fields []string
	for _, p := range ps {
		fields = append(fields, p.Field+":"+p.Type)
	}
	if got := strings.Join(fields, " "); got != "Users:UserStore Tweets:TweetStore Lines:LineStore Authors:AuthorStore Entries:EntryStore Tags:TagIndex Comments:CommentStore Sessions:SessionStore" {
		t.Fatalf("ports: %s", got)
	}
	var appendM Method
	for _, m := range ps[2].Methods {
		if m.Name == "Append" {
			appendM = m
		}
	}
	if len(appendM.Params) != 2 || appendM.Params[0].Type != "domain.LineEntry" || !appendM.Params[1].Variadic || appendM.Params[1].Type != "[]domain.LineKey" || len(appendM.Results) != 1 {
		t.Fatalf("LineStore.Append read as %+v", appendM)
	}
	if imports["domain"] != "twissandra/domain" || imports["model"] != "twissandra/domain/blog/model" {
		t.Fatalf("imports %v", imports)
	}
}

// boxing finds an interface of anything or reflection in generated code.
var boxing = regexp.MustCompile(`\bany\b|interface\{\}|"reflect"`)

// A method the package writes by hand is left out of the generated file; the others are typed
// calls, with no argument boxed into an interface.
func TestHandWrittenMethodsAreSkipped(t *testing.T) {
	root, err := ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, kind, skipped, kept string }{
		{"web/metrics", "metrics", "func (w *lineStore) Append(", "func (w *lineStore) Slice("},
		{"adapters/compare", "compare", "func (w userStore) Friends(", "func (w userStore) PulledFriends("},
	} {
		src, err := Generate(c.kind, filepath.Join(root, c.dir), filepath.Join(root, "ports"), FileName)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(src, []byte(c.skipped)) || !bytes.Contains(src, []byte(c.kept)) {
			t.Errorf("%s: skipped %q: %v, kept %q: %v", c.kind, c.skipped, !bytes.Contains(src, []byte(c.skipped)), c.kept, bytes.Contains(src, []byte(c.kept)))
		}
		if boxing.Match(src) {
			t.Errorf("%s: the generated code boxes or reflects", c.kind)
		}
	}
}

func TestNames(t *testing.T) {
	for in, want := range map[string]string{"CreateUser": "create_user", "SliceMany": "slice_many", "Append": "append", "GetTweets": "get_tweets"} {
		if got := SnakeCase(in); got != want {
			t.Errorf("SnakeCase(%s) = %s, want %s", in, got, want)
		}
	}
	for in, want := range map[string]string{"domain.User": "userKey", "[]domain.User": "listKey(userKey)", "[][]domain.LineEntry": "listKey(listKey(lineEntryKey))", "int64": "int64Key", "[]string": "listKey(stringKey)"} {
		if got := keyFunc(in); got != want {
			t.Errorf("keyFunc(%s) = %s, want %s", in, got, want)
		}
	}
	if _, err := Generate("nonsense", ".", ".", FileName); err == nil {
		t.Error("an unknown kind is not refused")
	}
}

// A port that embeds interfaces of the ports package has their methods, where it embeds them;
// an embedding portgen cannot write wrappers for (another package's interface, a cycle, a method
// twice) is refused.
func TestEmbeddedInterfaces(t *testing.T) {
	const head = "package ports\n\nimport \"context\"\n\ntype Stores struct{ Things ThingStore }\n\n"
	read := func(t *testing.T, src string) ([]Port, error) {
		t.Helper()
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "ports.go"), []byte(head+src), 0o644); err != nil {
			t.Fatal(err)
		}
		ps, _, err := ReadPorts(dir)
		return ps, err
	}
	ps, err := read(t, `type ThingStore interface {
	ThingReader
	Put(ctx context.Context, name string) error
	ThingWriter
}
type ThingReader interface {
	Get(ctx context.Context, name string) (string, error)
	Namer
}
type Namer interface{ Names(ctx context.Context) ([]string, error) }
type ThingWriter interface{ Drop(ctx context.Context, name string) error }
`)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range ps[0].Methods {
		names = append(names, m.Name)
	}
	if got := strings.Join(names, " "); got != "Get Names Put Drop" {
		t.Errorf("ThingStore's methods: %s, want Get Names Put Drop", got)
	}
	for name, src := range map[string]string{
		"another package's": "type ThingStore interface{ io.Reader }\n",
		"a cycle":           "type ThingStore interface{ A }\ntype A interface{ B }\ntype B interface{ A }\n",
		"a method twice": "type ThingStore interface{ A; B }\n" +
			"type A interface{ Get(ctx context.Context) error }\ntype B interface{ Get(ctx context.Context) error }\n",
		"no such interface": "type ThingStore interface{ Missing }\n",
	} {
		if _, err := read(t, src); err == nil {
			t.Errorf("%s embedding: not refused", name)
		}
	}
}
