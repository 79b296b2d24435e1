package teaching

import (
	"errors"
	"strings"
	"testing"

	"twissandra/domain"
)

const hashtagTable = "CREATE TABLE t (tag text, day date, time timeuuid, author text, body text, PRIMARY KEY (tag, time)) WITH CLUSTERING ORDER BY (time DESC)"

func TestParseDesignReadsAKeyAndAQuery(t *testing.T) {
	d, err := ParseDesign("hashtag", hashtagTable+"; SELECT * FROM t WHERE tag = ? AND time > ? ORDER BY time DESC LIMIT 5;")
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Key.String(); got != "PRIMARY KEY (tag, time) WITH CLUSTERING ORDER BY (time DESC)" {
		t.Errorf("key %s", got)
	}
	if len(d.Query.Where) != 2 || d.Query.Where[1].Op != ">" || d.Query.Limit != 5 || len(d.Query.Order) != 1 || !d.Query.Order[0].Desc {
		t.Errorf("query %+v", d.Query)
	}
}

func TestDesignTextIsReadBackAsItsKey(t *testing.T) {
	for _, p := range DesignPatterns() {
		for _, k := range []KeyChoice{p.Answer(), RulesKey(p)} {
			d, err := ParseDesign(p.ID, DesignText(p, k))
			if err != nil || d.Key.String() != k.String() {
				t.Errorf("%s: %v, %s; want %s", p.ID, err, d.Key, k)
			}
		}
	}
}

// TestRulesKeyIsThePatternsKey: the method's mapping rules, applied to each pattern's columns,
// give the key of its running table; change what the query names and the key changes.
func TestRulesKeyIsThePatternsKey(t *testing.T) {
	for _, p := range DesignPatterns() {
		if got := RulesKey(p).String(); got != p.Answer().String() {
			t.Errorf("%s: rules %s, table %s", p.ID, got, p.Answer())
		}
	}
	p, _ := LookupPattern("mentions")
	p.Columns = append([]KeyColumn{}, p.Columns...)
	p.Columns[3].Role = Given // the query names the author too
	if got := RulesKey(p).String(); got != "PRIMARY KEY ((mentioned, author), time) WITH CLUSTERING ORDER BY (time DESC)" {
		t.Errorf("with the author given: %s", got)
	}
}

func TestParseDesignRefuses(t *testing.T) {
	for _, tc := range []struct{ name, text, says string }{
		{"ASecondStatement", hashtagTable + "; SELECT * FROM t WHERE tag = ?; DROP TABLE t", "nothing after"},
		{"AQualifiedName", "CREATE TABLE twissandra.t (tag text)", "qualified"},
		{"AQualifiedSelect", hashtagTable + "; SELECT * FROM system.local", "qualified"},
		{"AFunctionCall", hashtagTable + "; SELECT * FROM t WHERE tag = now()", "function"},
		{"AFunctionSelected", hashtagTable + "; SELECT token(tag) FROM t", "function"},
		{"ALineComment", hashtagTable + "; SELECT * FROM t -- WHERE tag = ?", "comment"},
		{"ABlockComment", hashtagTable + "; /* x */ SELECT * FROM t", "comment"},
		{"AnUnknownColumn", "CREATE TABLE t (password text, PRIMARY KEY (password)); SELECT * FROM t", "no column"},
		{"AnUnknownType", "CREATE TABLE t (tag frozen, PRIMARY KEY (tag)); SELECT * FROM t", "unknown type"},
		{"AWrongType", "CREATE TABLE t (tag int, PRIMARY KEY (tag)); SELECT * FROM t", "holds text"},
		{"AMissingColumn", "CREATE TABLE t (tag text, PRIMARY KEY (tag)); SELECT * FROM t", "lacks column"},
		{"NoKey", "CREATE TABLE t (tag text, day date, time timeuuid, author text, body text); SELECT * FROM t", "no PRIMARY KEY"},
		{"AnotherTable", hashtagTable + "; SELECT * FROM users", "not the table"},
		{"AnOption", hashtagTable + " AND gc_grace_seconds = 0; SELECT * FROM t", "expected"},
		{"AQuotedName", `CREATE TABLE "T" (tag text)`, "quoted"},
		{"AnUpdate", "UPDATE t SET tag = 'x'", "CREATE"},
		{"AHugeLimit", hashtagTable + "; SELECT * FROM t LIMIT 100000", "from 1 to"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseDesign("hashtag", tc.text)
			if !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("%v, want domain.ErrInvalid saying %q", err, tc.says)
			}
		})
	}
}

func TestParseKeyChoice(t *testing.T) {
	k, err := ParseKeyChoice("followers", "partition: username; clustering: follower")
	if err != nil || k.String() != "PRIMARY KEY (username, follower) WITH CLUSTERING ORDER BY (follower ASC)" {
		t.Errorf("%s, %v", k, err)
	}
	for _, bad := range []string{"username", "partition: nope", "partition: username; clustering: follower sideways", "partition: ; x", "a: b; c: d; e: f"} {
		if _, err := ParseKeyChoice("followers", bad); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("%q: %v, want domain.ErrInvalid", bad, err)
		}
	}
}

// FuzzParseDesign: whatever the text, the parser either refuses it as invalid or returns a
// design whose every name is a column of the pattern, and which it reads back the same.
func FuzzParseDesign(f *testing.F) {
	for _, p := range DesignPatterns() {
		f.Add(p.ID, DesignText(p, p.Answer()))
	}
	f.Add("hashtag", hashtagTable+"; SELECT * FROM t WHERE tag IN (?, 'a''b', 3) AND time >= ? ORDER BY time ASC LIMIT 3 ALLOW FILTERING")
	f.Add("hashtag", hashtagTable+"; SELECT * FROM t; DROP KEYSPACE twissandra")
	f.Add("user", "CREATE TABLE t (id uuid, username text PRIMARY KEY, created_at timestamp); SELECT * FROM t WHERE username = 'x' /*")
	f.Fuzz(func(t *testing.T, pattern, text string) {
		d, err := ParseDesign(pattern, text)
		if err != nil {
			if !errors.Is(err, domain.ErrInvalid) {
				t.Fatalf("%v: not domain.ErrInvalid", err)
			}
			return
		}
		p, _ := LookupPattern(pattern)
		names := append([]string{}, d.Key.Partition...)
		for _, c := range d.Key.Clustering {
			names = append(names, c.Column)
		}
		for _, r := range d.Query.Where {
			names = append(names, r.Column)
		}
		for _, o := range d.Query.Order {
			names = append(names, o.Column)
		}
		for _, n := range names {
			if _, ok := p.Column(n); !ok {
				t.Fatalf("%q: name %q is not a column of %s", text, n, pattern)
			}
		}
		again, err := ParseDesign(pattern, DesignText(p, d.Key))
		if err != nil || again.Key.String() != d.Key.String() {
			t.Fatalf("%q: its key %s read back as %s, %v", text, d.Key, again.Key, err)
		}
	})
}
