package frame_test

import (
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"twissandra/internal/testkit/cqltest"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
)

// shownTable is a table as a page defines it: its name, its columns ("name type", " static"
// after a static one), its PRIMARY KEY clause and its clustering order ("" for none).
type shownTable struct {
	Name       string
	Cols       []string
	Key, Order string
}

// readShownTable reads a definition as the pages write one, on one line or a column a line:
// `[CREATE TABLE ][ks.]name (col type, ..., PRIMARY KEY (...))[ WITH CLUSTERING ORDER BY (...)][;]`.
func readShownTable(def string) shownTable {
	def = strings.TrimSuffix(strings.Join(strings.Fields(def), " "), ";")
	def = strings.TrimPrefix(def, "CREATE TABLE ")
	name, rest, _ := strings.Cut(def, " (")
	if _, after, ok := strings.Cut(name, "."); ok {
		name = after
	}
	t := shownTable{Name: name}
	depth, end := 1, len(rest)
	for i, r := range rest {
		if r == '(' {
			depth++
		} else if r == ')' {
			if depth--; depth == 0 {
				end = i
				break
			}
		}
	}
	for _, part := range frame.SplitTop(rest[:end], ',') {
		if strings.HasPrefix(part, "PRIMARY KEY") {
			t.Key = part
			continue
		}
		t.Cols = append(t.Cols, part)
	}
	slices.Sort(t.Cols)
	t.Order = strings.TrimSpace(rest[min(end+1, len(rest)):])
	return t
}

// nodeTables reads system_schema on the node: every table of keyspace (the migrations' own
// record left out) as the pages must show it.
func nodeTables(t *testing.T, keyspace string) map[string]shownTable {
	t.Helper()
	hosts, port := cqltest.Node(t)
	cl := gocql.NewCluster(hosts...)
	cl.Port, cl.Timeout = port, 20*time.Second
	sess, err := cl.CreateSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	type col struct {
		name, kind, typ, order string
		pos                    int
	}
	cols := map[string][]col{}
	iter := sess.Query("SELECT table_name, column_name, kind, position, type, clustering_order FROM system_schema.columns WHERE keyspace_name = ?", keyspace).Iter()
	var table string
	var c col
	for iter.Scan(&table, &c.name, &c.kind, &c.pos, &c.typ, &c.order) {
		cols[table] = append(cols[table], c)
	}
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	out := map[string]shownTable{}
	for table, cs := range cols {
		if table == "gocqlx_migrate" || table == "schema_lease" { // the migrations' own bookkeeping
			continue
		}
		slices.SortFunc(cs, func(a, b col) int { return a.pos - b.pos })
		st := shownTable{Name: table}
		var pk, ck, order []string
		for _, c := range cs {
			def := c.name + " " + c.typ
			switch c.kind {
			case "partition_key":
				pk = append(pk, c.name)
			case "clustering":
				ck = append(ck, c.name)
				order = append(order, c.name+" "+strings.ToUpper(c.order))
			case "static":
				def += " static"
			}
			st.Cols = append(st.Cols, def)
		}
		slices.Sort(st.Cols)
		key := strings.Join(pk, ", ")
		if len(pk) > 1 {
			key = "(" + key + ")"
		}
		st.Key = "PRIMARY KEY (" + strings.Join(append([]string{key}, ck...), ", ") + ")"
		if len(ck) > 0 {
			st.Order = "WITH CLUSTERING ORDER BY (" + strings.Join(order, ", ") + ")"
		}
		out[table] = st
	}
	return out
}

var (
	schemaBlock  = regexp.MustCompile(`(?s)<pre class="code" id="schema-cql">(.*?)</pre>`)
	mappedTables = regexp.MustCompile(`<p class="mapped-table">(?:<a [^>]*>)?<code>(.*?)</code>`)
	tableDef     = regexp.MustCompile(`<code id="table-def">(.*?)</code>`)
)

// Every CQL3 table a page shows is the table a real node holds once the cql3 adapter's
// migrations have run (in a test keyspace), as system_schema describes it: the same tables, the
// same columns and types, the same partition and clustering columns in the same order, the same
// clustering order and static columns. The models page shows them whatever the backend (its
// schema block and each column family's tables), and the cql3 inspector each table's own.
func TestPagesShowTheNodesSchema(t *testing.T) {
	st, store := webkit.CQL3Stores(t)
	node := nodeTables(t, store.Keyspace())
	if len(node) < 12 {
		t.Fatalf("the node holds %d tables", len(node))
	}
	c := teachkit.NewApp(t, st).Client(t)
	onCQL := c.Get("/models").Body
	onWide := teachkit.NewApp(t, webkit.WiderowStores(t)).Client(t).Get("/models").Body

	m := schemaBlock.FindStringSubmatch(onCQL)
	if m == nil {
		t.Fatalf("no schema block on the models page:\n%s", onCQL)
	}
	if w := schemaBlock.FindStringSubmatch(onWide); w == nil || w[1] != m[1] {
		t.Errorf("the models page on widerow shows another schema than on cql3")
	}
	shown := map[string]shownTable{}
	for def := range strings.SplitSeq(html.UnescapeString(m[1]), "CREATE TABLE ") {
		if strings.TrimSpace(def) == "" {
			continue
		}
		st := readShownTable(def)
		shown[st.Name] = st
	}
	for name, want := range node {
		got, ok := shown[name]
		if !ok {
			t.Errorf("the models page does not show table %s", name)
			continue
		}
		if !equalTables(got, want) {
			t.Errorf("the models page shows\n  %+v\nthe node holds\n  %+v", got, want)
		}
	}
	for name := range shown {
		if _, ok := node[name]; !ok {
			t.Errorf("the models page shows table %s, which the node does not hold", name)
		}
	}

	mapped := mappedTables.FindAllStringSubmatch(onCQL, -1)
	mappedNames := map[string]bool{}
	for _, mt := range mapped {
		got := readShownTable(html.UnescapeString(mt[1]))
		mappedNames[got.Name] = true
		if want, ok := node[got.Name]; !ok || !equalTables(got, want) {
			t.Errorf("the mapping shows\n  %+v\nthe node holds\n  %+v", got, want)
		}
	}
	// Every table sits under its column family but action_records, which has none: the embedded
	// stores keep what an action cost in the server's memory.
	for name := range node {
		if !mappedNames[name] && name != "action_records" {
			t.Errorf("table %s is under no column family of the mapping", name)
		}
	}

	for name, want := range node {
		r := c.Get("/models/inspect?table=" + name)
		d := tableDef.FindStringSubmatch(r.Body)
		if d == nil {
			t.Errorf("the inspector of %s shows no definition:\n%s", name, r.Body)
			continue
		}
		if got := readShownTable(html.UnescapeString(d[1])); !equalTables(got, want) {
			t.Errorf("the inspector shows\n  %+v\nthe node holds\n  %+v", got, want)
		}
	}
}

func equalTables(a, b shownTable) bool {
	return a.Name == b.Name && slices.Equal(a.Cols, b.Cols) && a.Key == b.Key && a.Order == b.Order
}

// The table definitions are read back as the node test reads them.
func TestReadShownTable(t *testing.T) {
	t.Parallel()
	for _, def := range []string{
		"CREATE TABLE ks.followers (username text, follower text, since timestamp, since_us int, follower_count int static, PRIMARY KEY (username, follower)) WITH CLUSTERING ORDER BY (follower ASC)",
		"followers (\n    username text,\n    follower text,\n    since timestamp,\n    since_us int,\n    follower_count int static,\n    PRIMARY KEY (username, follower)\n) WITH CLUSTERING ORDER BY (follower ASC);",
	} {
		got := readShownTable(def)
		want := shownTable{Name: "followers", Cols: []string{"follower text", "follower_count int static", "since timestamp", "since_us int", "username text"},
			Key: "PRIMARY KEY (username, follower)", Order: "WITH CLUSTERING ORDER BY (follower ASC)"}
		if !equalTables(got, want) {
			t.Errorf("%q read as %+v", def, got)
		}
	}
	if got := readShownTable("authors (name text, profile map<text, text>, posts bigint, PRIMARY KEY (name))"); !slices.Contains(got.Cols, "profile map<text, text>") || got.Order != "" {
		t.Errorf("a map column: %+v", got)
	}
}
