package dump_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"twissandra/adapters/memory"
	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/ports"
	"twissandra/tools/dump"
	"twissandra/tools/seed"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var small = seed.Options{Users: 4, Tweets: 6, Span: 24 * time.Hour, Until: time.Date(2010, 5, 12, 0, 0, 0, 0, time.UTC), Seed: 42, Concurrency: 2}

func seededNode(t *testing.T, o seed.Options) (*engine.Node, ports.Stores) {
	t.Helper()
	node, err := engine.Open(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = node.Close() })
	st, bs := widerow.NewStore(node), widerow.NewBlogStore(node)
	if _, err := seed.Generate(context.Background(), o, st, social.New(st, st, st, nil, domain.NewPasswordHasher(4))); err != nil {
		t.Fatal(err)
	}
	return node, ports.Stores{Users: st, Tweets: st, Lines: st, Authors: bs, Entries: bs, Tags: bs, Comments: bs}
}

func widerowDump(t *testing.T, node *engine.Node, o dump.WiderowOptions) string {
	t.Helper()
	var buf bytes.Buffer
	if err := dump.Widerow(context.Background(), &buf, node, o); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := "testdata/" + name
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if got != string(want) {
		t.Errorf("dump differs from %s (go test -update rewrites it):\n%s", path, got)
	}
}

// TestWiderowFormats dumps a generated Twissandra keyspace in both formats; generation is
// deterministic, so both are golden files.
func TestWiderowFormats(t *testing.T) {
	t.Parallel()
	node, _ := seededNode(t, small)
	golden(t, "twissandra.notation.golden", widerowDump(t, node, dump.WiderowOptions{Keyspace: "Twissandra", Format: dump.Notation, PageSize: 2}))
	jl := widerowDump(t, node, dump.WiderowOptions{Keyspace: "Twissandra", Format: dump.JSONL, PageSize: 3})
	golden(t, "twissandra.jsonl.golden", jl)
	rows := 0
	for _, line := range strings.Split(strings.TrimSpace(jl), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		rows++
	}
	// 4 User, 4 Username, 6 Tweet rows, the Userline rows of the authors plus the public row,
	// Timeline rows, Friends and Followers rows: page boundaries must neither lose nor repeat.
	if one := widerowDump(t, node, dump.WiderowOptions{Keyspace: "Twissandra", Format: dump.JSONL, PageSize: 1000}); one != jl {
		t.Error("the dump depends on the page size")
	}
	if rows < 4+4+6+1 {
		t.Errorf("only %d rows", rows)
	}
	cf := widerowDump(t, node, dump.WiderowOptions{Keyspace: "Twissandra", CF: "Userline", Format: dump.Notation})
	if !strings.HasPrefix(cf, "// keyspace Twissandra, Standard column family, CompareWith LongType\nUserline : {\n") {
		t.Errorf("one CF:\n%s", cf)
	}
}

// TestSameSeedSameDump: two stores generated from one seed dump alike; another seed does not.
func TestSameSeedSameDump(t *testing.T) {
	t.Parallel()
	o := small
	o.Users, o.Tweets, o.Concurrency = 30, 200, 8
	a, _ := seededNode(t, o)
	b, _ := seededNode(t, o)
	opts := dump.WiderowOptions{Format: dump.JSONL}
	if widerowDump(t, a, opts) != widerowDump(t, b, opts) {
		t.Fatal("two stores of one seed dump differently")
	}
	o.Seed++
	c, _ := seededNode(t, o)
	if widerowDump(t, a, opts) == widerowDump(t, c, opts) {
		t.Fatal("another seed dumps the same")
	}
}

// TestPortsDumpAcrossBackends: the same generated data on memory and on widerow prints the same
// ports dump, whatever each store's own order.
func TestPortsDumpAcrossBackends(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	o := small
	o.Users, o.Tweets = 15, 60
	_, wr := seededNode(t, o)
	mem, mb := memory.New(), memory.NewBlog()
	if _, err := seed.Generate(ctx, o, mem, social.New(mem, mem, mem, nil, domain.NewPasswordHasher(4))); err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := dump.Ports(ctx, &a, wr, dump.PortsOptions{ShowSecrets: true}); err != nil {
		t.Fatal(err)
	}
	if err := dump.Ports(ctx, &b, ports.Stores{Users: mem, Tweets: mem, Lines: mem, Authors: mb, Entries: mb, Tags: mb, Comments: mb}, dump.PortsOptions{ShowSecrets: true}); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Fatalf("widerow and memory dumps differ:\n%s\n----\n%s", a.String(), b.String())
	}
	for _, kind := range []string{dump.KindUser, dump.KindFollow, dump.KindTweet, dump.KindLine} {
		if !strings.Contains(a.String(), `"kind":"`+kind+`"`) {
			t.Errorf("no %s records", kind)
		}
	}
}

func TestWiderowErrors(t *testing.T) {
	t.Parallel()
	node, _ := seededNode(t, small)
	for _, o := range []dump.WiderowOptions{{Keyspace: "Nope"}, {Keyspace: "Twissandra", CF: "Nope"}, {CF: "User"}, {Format: "xml"}} {
		if err := dump.Widerow(context.Background(), &bytes.Buffer{}, node, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// With --timestamps the notation shows every column as the seeds define it: name, value and
// timestamp; without, the articles' pairs.
func TestWiderowNotationTimestamps(t *testing.T) {
	t.Parallel()
	node, _ := seededNode(t, small)
	with := widerowDump(t, node, dump.WiderowOptions{Keyspace: "Twissandra", CF: "Tweet", Format: dump.Notation, Timestamps: true})
	without := widerowDump(t, node, dump.WiderowOptions{Keyspace: "Twissandra", CF: "Tweet", Format: dump.Notation})
	stamps := regexp.MustCompile(` /\* timestamp \d+ \*/`)
	if n := len(stamps.FindAllString(with, -1)); n < 4 || stamps.ReplaceAllString(with, "") != without || stamps.MatchString(without) {
		t.Fatalf("%d timestamps; with:\n%s\nwithout:\n%s", n, with, without)
	}
}
