package engine

import (
	"strings"
	"testing"
	"time"
)

func TestEmbeddedSchema(t *testing.T) {
	t.Parallel()
	s := DefaultSchema()
	if s.Partitioner != RandomPartitioner || s.CommitLogSync != SyncBatch || s.XML != DefaultSchemaXML {
		t.Fatalf("settings: %v %v", s.Partitioner, s.CommitLogSync)
	}
	if !strings.Contains(s.XML, `<ColumnFamily CompareWith="UTF8Type"  Name="User"/>`) {
		t.Fatal("the raw XML is not the article's text")
	}
	describe := func(ks string) []string {
		k, ok := s.Keyspace(ks)
		if !ok {
			t.Fatalf("no keyspace %s", ks)
		}
		var out []string
		for _, cf := range k.ColumnFamilies {
			d := cf.Name + " " + cf.ColumnType() + " " + cf.CompareWith.String()
			if cf.Super {
				d += " " + cf.CompareSubcolumnsWith.String()
			}
			out = append(out, d)
		}
		return out
	}
	want := map[string][]string{
		"Twissandra": {"User Standard UTF8Type", "Username Standard BytesType", "Friends Standard BytesType",
			"Followers Standard BytesType", "Tweet Standard UTF8Type", "Userline Standard LongType", "Timeline Standard LongType"},
		"BloggyAppy": {"Authors Standard BytesType", "BlogEntries Standard BytesType", "TaggedPosts Standard TimeUUIDType",
			"Comments Super TimeUUIDType BytesType"},
		"Scratch": {"Bytes Standard BytesType", "Ascii Standard AsciiType", "UTF8s Standard UTF8Type", "Longs Standard LongType",
			"LexicalUUIDs Standard LexicalUUIDType", "TimeUUIDs Standard TimeUUIDType", "AddressBook Super UTF8Type UTF8Type"},
	}
	for ks, w := range want {
		if got := describe(ks); !equalStrings(got, w) {
			t.Errorf("%s: got %q\nwant %q", ks, got, w)
		}
	}
	// The one tuning attribute: the fan-out reads whole Followers rows and every timeline page
	// reads whole Tweet rows, so they are row-cached.
	k, _ := s.Keyspace("Twissandra")
	for _, cf := range k.ColumnFamilies {
		if want := map[string]int{"Followers": 1000, "Tweet": 100000}[cf.Name]; cf.RowsCached != want {
			t.Errorf("%s: RowsCached %d, want %d", cf.Name, cf.RowsCached, want)
		}
	}
}

func TestParseSchema(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, xml, err string
	}{
		{"articles' fragment", `<Keyspaces><Keyspace Name="Twissandra"><ColumnFamily CompareWith="UTF8Type" Name="User"/></Keyspace></Keyspaces>`, ""},
		{"class names", `<Keyspaces><Keyspace Name="K"><ColumnFamily CompareWith="org.apache.cassandra.db.marshal.LongType" Name="C"/></Keyspace></Keyspaces>`, ""},
		{"CompareSubcolumnsWith on standard", `<Keyspaces><Keyspace Name="K"><ColumnFamily CompareWith="UTF8Type" CompareSubcolumnsWith="UTF8Type" Name="C"/></Keyspace></Keyspaces>`,
			"CompareSubcolumnsWith is only a valid attribute on super columnfamilies (not regular columnfamily K.C)"},
		{"bad comparator", `<Keyspaces><Keyspace Name="K"><ColumnFamily CompareWith="IntType" Name="C"/></Keyspace></Keyspaces>`, `unknown comparator "IntType"`},
		{"bad column type", `<Keyspaces><Keyspace Name="K"><ColumnFamily ColumnType="Wide" Name="C"/></Keyspace></Keyspaces>`, "ColumnType must be either Standard or Super"},
		{"duplicate CF", `<Keyspaces><Keyspace Name="K"><ColumnFamily Name="C"/><ColumnFamily Name="C"/></Keyspace></Keyspaces>`, "defined twice"},
		{"bad partitioner", `<Storage><Keyspaces><Keyspace Name="K"><ColumnFamily Name="C"/></Keyspace></Keyspaces><Partitioner>Foo</Partitioner></Storage>`, "unsupported Partitioner"},
		{"bad root", `<Config/>`, "root element"},
		{"not XML", `<Keyspaces>`, "storage-conf"},
		{"no keyspaces", `<Keyspaces></Keyspaces>`, "no <Keyspace>"},
		{"rows cached", `<Keyspaces><Keyspace Name="K"><ColumnFamily Name="C" RowsCached="200"/></Keyspace></Keyspaces>`, ""},
		{"rows cached as a share", `<Keyspaces><Keyspace Name="K"><ColumnFamily Name="C" RowsCached="10%"/></Keyspace></Keyspaces>`,
			`RowsCached must be a number of rows (0 or more), not "10%"`},
		{"rows cached negative", `<Keyspaces><Keyspace Name="K"><ColumnFamily Name="C" RowsCached="-1"/></Keyspace></Keyspaces>`, "RowsCached must be a number"},
	}
	for _, tt := range tests {
		s, err := ParseSchema([]byte(tt.xml))
		if tt.err == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: got %v, %v; want error containing %q", tt.name, s, err, tt.err)
		}
	}
	s, err := ParseSchema([]byte(`<Keyspaces><Keyspace Name="K"><ColumnFamily Name="C"/><ColumnFamily Name="S" ColumnType="Super"/></Keyspace></Keyspaces>`))
	if err != nil {
		t.Fatal(err)
	}
	ks, _ := s.Keyspace("K")
	c, _ := ks.ColumnFamily("C")
	sc, _ := ks.ColumnFamily("S")
	if c.CompareWith != BytesType || sc.CompareSubcolumnsWith != BytesType || s.Partitioner != RandomPartitioner {
		t.Fatalf("defaults: %+v %+v", c, sc)
	}
}

// GCGraceSeconds is one setting of <Storage> (0.6), ten days when absent; Options.GCGrace
// overrides it, and the schema's text then says the grace the node runs with.
func TestSchemaGCGraceSeconds(t *testing.T) {
	if s := DefaultSchema(); s.GCGraceSeconds != 864000 || !strings.Contains(s.XML, "<GCGraceSeconds>864000</GCGraceSeconds>") {
		t.Fatalf("default: %d", s.GCGraceSeconds)
	}
	s, err := ParseSchema([]byte(`<Storage><Keyspaces><Keyspace Name="K"><ColumnFamily Name="C"/></Keyspace></Keyspaces><GCGraceSeconds>60</GCGraceSeconds></Storage>`))
	if err != nil || s.GCGraceSeconds != 60 {
		t.Fatalf("parsed: %+v, %v", s, err)
	}
	if _, err := ParseSchema([]byte(`<Storage><Keyspaces><Keyspace Name="K"><ColumnFamily Name="C"/></Keyspace></Keyspaces><GCGraceSeconds>-1</GCGraceSeconds></Storage>`)); err == nil || !strings.Contains(err.Error(), "GCGraceSeconds") {
		t.Fatalf("a negative grace: %v", err)
	}
	n, err := Open(Options{GCGrace: time.Hour, CompactionInterval: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close()
	if n.GCGrace() != time.Hour || n.Schema().GCGraceSeconds != 3600 || !strings.Contains(n.Schema().XML, "<GCGraceSeconds>3600</GCGraceSeconds>") ||
		strings.Contains(n.Schema().XML, "864000") || n.CompactionInterval() != time.Minute {
		t.Fatalf("overridden: %v, %d, interval %v", n.GCGrace(), n.Schema().GCGraceSeconds, n.CompactionInterval())
	}
	if DefaultSchema().GCGraceSeconds != 864000 {
		t.Fatal("the override changed the default schema")
	}
}
