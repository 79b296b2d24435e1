package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"twissandra/internal/testkit/cqltest"
	"twissandra/tools/dump"
	"twissandra/tools/migrate"
)

// cqlKeyspace names a keyspace of this test only on the cql3 test node (internal/testkit/cqltest: skips
// without a node, fails under CI), dropped when the test ends; hosts and port as flags take them.
func cqlKeyspace(t *testing.T) (hosts, port, ks string) {
	t.Helper()
	ks, h, p := cqltest.KeyspaceName(t, "twissandra_test_cmd_")
	return strings.Join(h, ","), strconv.Itoa(p), ks
}

// cqlFlags are the flags of a cql3 side of a command: prefix "" for --cql-..., "to-" for
// --to-cql-... and so on.
func cqlFlags(prefix, hosts, port, keyspace string) []string {
	return []string{
		"--" + prefix + "cql-hosts", hosts, "--" + prefix + "cql-port", port,
		"--" + prefix + "cql-keyspace", keyspace, "--" + prefix + "cql-replication", "SimpleStrategy:1",
		"--" + prefix + "cql-timeout", "20s",
	}
}

// widerow (the articles and a synthetic set) -> cql3 through `migrate`, verified; again, with
// nothing changing; the tables dumped; then cql3 -> memory, whose dump is the dump of
// widerow -> memory.
func TestMigrateWiderowCQL3Memory(t *testing.T) {
	hosts, port, ks := cqlKeyspace(t)
	wdir := t.TempDir()
	mustRun(t, "seed", "--data-dir", wdir, "--articles", "--users", "12", "--tweets", "60", "--span", "24h",
		"--until", fixedUntil, "--seed", "5", "--quiet", "--bcrypt-cost", "4")

	toCQL := append([]string{"migrate", "--from", "widerow", "--from-data-dir", wdir, "--to", "cql3",
		"--checkpoint", filepath.Join(t.TempDir(), "cp.json"), "--quiet"}, cqlFlags("to-", hosts, port, ks)...)
	dumpCQL := append([]string{"dump", "--backend", "cql3", "--format", "jsonl", "--show-secrets"}, cqlFlags("", hosts, port, ks)...)
	out := mustRun(t, toCQL...)
	if !strings.Contains(out, "verified: the target matches the source") || !strings.Contains(out, "target: 14 users") ||
		!regexp.MustCompile(`filled [1-9][0-9]* of [1-9][0-9]* cql3 line rows with their tweets \(0 left\)`).MatchString(out) {
		t.Fatalf("migrate output %q", out)
	}
	// fill-lines finds nothing left to do, and says so; a bad flag is a usage error.
	fill := append([]string{"fill-lines", "--quiet"}, cqlFlags("", hosts, port, ks)...)
	if out := mustRun(t, fill...); !regexp.MustCompile(`^scanned [1-9][0-9]* line rows in .*: filled 0, 0 name a tweet that does not exist .*verified: 0 still lacking their tweet\n$`).MatchString(out) {
		t.Fatalf("fill-lines output %q", out)
	}
	first := mustRun(t, dumpCQL...)
	out = mustRun(t, toCQL...)
	if !strings.Contains(out, "verified: the target matches the source") {
		t.Fatalf("second migrate output %q", out)
	}
	if again := mustRun(t, dumpCQL...); again != first {
		t.Fatal("a second migrate changed the cql3 store")
	}
	if !strings.Contains(first, `"username":"jericevans"`) || !strings.Contains(first, `"kind":"entry"`) {
		t.Fatalf("ports dump of cql3 lacks the articles' data:\n%.2000s", first)
	}

	t.Run("dump tables", func(t *testing.T) {
		users := mustRun(t, append([]string{"dump", "--backend", "cql3", "--table", "users"}, cqlFlags("", hosts, port, ks)...)...)
		for _, want := range []string{"// keyspace " + ks + ", table users, PRIMARY KEY ((username))\nusers : {\n", "    'jericevans' : {\n", "        password : '<bcrypt hash, 60 bytes>'", "        id : "} {
			if !strings.Contains(users, want) {
				t.Errorf("users notation lacks %q:\n%s", want, users)
			}
		}
		// The hashes themselves only behind --show-secrets.
		shown := mustRun(t, append([]string{"dump", "--backend", "cql3", "--table", "users", "--show-secrets"}, cqlFlags("", hosts, port, ks)...)...)
		if strings.Contains(users, "0x2432") || !strings.Contains(shown, "        password : 0x2432") {
			t.Errorf("users notation, with and without --show-secrets:\n%s\n%s", users, shown)
		}
		if strings.Count(users, "\n    '") != 14 || !strings.HasSuffix(users, "\n    }\n}\n") {
			t.Errorf("users notation:\n%s", users)
		}
		timeline := mustRun(t, append([]string{"dump", "--backend", "cql3", "--table", "timeline", "--page-size", "7"}, cqlFlags("", hosts, port, ks)...)...)
		if !strings.Contains(timeline, "PRIMARY KEY ((username), time)") || !strings.Contains(timeline, "            tweet_id : ") {
			t.Errorf("timeline notation:\n%.3000s", timeline)
		}
		lines := mustRun(t, append([]string{"dump", "--backend", "cql3", "--table", "blog_entries", "--format", "jsonl"}, cqlFlags("", hosts, port, ks)...)...)
		sc := bufio.NewScanner(strings.NewReader(lines))
		n := 0
		for sc.Scan() {
			var l dump.TableLine
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Fatalf("%q: %v", sc.Text(), err)
			}
			if l.Table != "blog_entries" || l.Row["slug"] == nil || l.Row["author"] != "Arin Sarkissian" {
				t.Errorf("line %s", sc.Text())
			}
			n++
		}
		if n != 3 {
			t.Errorf("%d entries, want 3:\n%s", n, lines)
		}
		for _, bad := range []string{"nope", "users; DROP KEYSPACE " + ks, `users"`, "system_schema.tables", "USERS"} {
			code, _, errOut := runCmd(t, append([]string{"dump", "--backend", "cql3", "--table", bad}, cqlFlags("", hosts, port, ks)...)...)
			if code == 0 || !strings.Contains(errOut, "has no table") {
				t.Errorf("--table %q: exit %d, %s", bad, code, errOut)
			}
		}
	})

	// cql3 -> memory and widerow -> memory, in this process (a memory store dies with it).
	ctx := context.Background()
	open := func(args ...string) *openedBackend {
		t.Helper()
		cfg := &Config{}
		fs := newFlagSet("test", io.Discard)
		bindFlags(fs, cfg)
		if err := parseConfig(fs, append(args, "--bcrypt-cost", "4"), func(string) string { return "" }); err != nil {
			t.Fatal(err)
		}
		b, err := openBackend(ctx, cfg, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := b.close(); err != nil {
				t.Error(err)
			}
		})
		return b
	}
	toMemory := func(src *openedBackend) string {
		t.Helper()
		mem := open("--backend", "memory")
		if err := migrate.Copy(ctx, src.stores, mem.stores, migrate.Options{}); err != nil {
			t.Fatal(err)
		}
		r, err := migrate.Verify(ctx, src.stores, mem.stores, migrate.VerifyOptions{Sample: 1000})
		if err != nil || r.Total != 0 {
			t.Fatalf("verify: %v %v", err, r.Differences)
		}
		var buf bytes.Buffer
		if err := dump.Ports(ctx, &buf, mem.stores, dump.PortsOptions{ShowSecrets: true}); err != nil {
			t.Fatal(err)
		}
		return buf.String()
	}
	cql := open(append([]string{"--backend", "cql3"}, cqlFlags("", hosts, port, ks)...)...)
	assertScanners(t, cql)
	fromCQL := toMemory(cql)
	fromWiderow := toMemory(open("--backend", "widerow", "--data-dir", wdir))
	if fromCQL != fromWiderow || fromCQL != first {
		t.Fatalf("the memory dumps differ: via cql3 %d bytes, from widerow %d bytes, cql3 itself %d bytes", len(fromCQL), len(fromWiderow), len(first))
	}
}
