package dump

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"twissandra/adapters/cql3"
)

func TestLiteral(t *testing.T) {
	id := gocql.UUID{0x6f, 0x3b, 0x8a, 0xc0}
	at := time.Date(2010, 5, 12, 1, 2, 3, 4_000_000, time.UTC)
	for _, c := range []struct {
		v    any
		typ  string
		want string
	}{
		{nil, "text", "null"},
		{"it's", "text", "'it''s'"},
		{[]byte{0, 0xff}, "blob", "0x00ff"},
		{id, "uuid", "6f3b8ac0-0000-0000-0000-000000000000"},
		{at, "timestamp", "'2010-05-12T01:02:03.004Z'"},
		{at, "date", "'2010-05-12'"},
		{int64(3), "bigint", "3"},
		{map[string]string{"b": "2", "a": "1"}, "map<text, text>", "{'a': '1', 'b': '2'}"},
		{[]string{"go", "x"}, "set<text>", "{'go', 'x'}"},
		{[]int{1, 2}, "list<int>", "[1, 2]"},
	} {
		if got := Literal(c.v, c.typ); got != c.want {
			t.Errorf("Literal(%v, %s) = %s, want %s", c.v, c.typ, got, c.want)
		}
	}
}

// fakeTable is a TableSource of fixed rows.
type fakeTable struct {
	info cql3.TableInfo
	rows []cql3.TableRow
}

func (f fakeTable) ScanTable(_ context.Context, _ string, _ int, describe func(cql3.TableInfo) error, fn func(cql3.TableRow) error) error {
	if err := describe(f.info); err != nil {
		return err
	}
	for _, r := range f.rows {
		if err := fn(r); err != nil {
			return err
		}
	}
	return nil
}

func TestCQLTableNotation(t *testing.T) {
	col := func(n, typ string) cql3.TableColumn { return cql3.TableColumn{Name: n, Type: typ} }
	src := fakeTable{
		info: cql3.TableInfo{Keyspace: "ks", Name: "timeline", PartitionKey: []cql3.TableColumn{col("username", "text")},
			Clustering: []cql3.TableColumn{col("time", "int")}, Regular: []cql3.TableColumn{col("tweet_id", "text")}},
		rows: []cql3.TableRow{
			{"username": "a", "time": 2, "tweet_id": "x"},
			{"username": "a", "time": 1, "tweet_id": "y"},
			{"username": "b", "time": 1, "tweet_id": nil},
		},
	}
	var buf bytes.Buffer
	if err := CQLTable(context.Background(), &buf, src, CQLOptions{Table: "timeline"}); err != nil {
		t.Fatal(err)
	}
	want := `// keyspace ks, table timeline, PRIMARY KEY ((username), time)
timeline : {
    'a' : {
        2 : {
            tweet_id : 'x'
        },
        1 : {
            tweet_id : 'y'
        }
    },
    'b' : {
        1 : {
            tweet_id : null
        }
    }
}
`
	if buf.String() != want {
		t.Errorf("got\n%s\nwant\n%s", buf.String(), want)
	}
	buf.Reset()
	src.rows = nil
	if err := CQLTable(context.Background(), &buf, src, CQLOptions{Table: "timeline"}); err != nil || !strings.HasSuffix(buf.String(), "timeline : {}\n") {
		t.Errorf("empty table: %q %v", buf.String(), err)
	}
	buf.Reset()
	src.rows = []cql3.TableRow{{"username": "a", "time": 2, "tweet_id": "x"}}
	if err := CQLTable(context.Background(), &buf, src, CQLOptions{Table: "timeline", Format: JSONL}); err != nil ||
		buf.String() != `{"keyspace":"ks","table":"timeline","row":{"time":2,"tweet_id":"x","username":"a"}}`+"\n" {
		t.Errorf("jsonl: %q %v", buf.String(), err)
	}
}
