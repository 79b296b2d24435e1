package engine

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"slices"
	"testing"

	"github.com/google/uuid"
)

// stores runs f against an in-memory node and an on-disk node.
func stores(t *testing.T, f func(t *testing.T, n *Node)) {
	t.Helper()
	storesWith(t, nil, f)
}

// storesWith runs f on a node in memory, one on disk, and one in memory whose every column
// family has a row cache (small, so rows are filled, dropped and evicted all the time): every
// rule must hold whether a row is read from the storage or from the cache.
func storesWith(t *testing.T, schema *Schema, f func(t *testing.T, n *Node)) {
	t.Helper()
	for _, kind := range []string{"memory", "disk", "rowcache"} {
		t.Run(kind, func(t *testing.T) {
			opts := Options{Schema: schema}
			switch kind {
			case "disk":
				opts.Dir = t.TempDir()
				opts.CommitLogSync = SyncPeriodic
			case "rowcache":
				opts.Schema = everyRowCached(schema, 4)
				opts.RowCacheSize = 1 << 20
			}
			n, err := Open(opts)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			t.Cleanup(func() {
				if err := n.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
			})
			f(t, n)
		})
	}
}

var bg = context.Background()

func long(v int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(v)) }

func mustUUID(s string) []byte {
	u := uuid.MustParse(s)
	return u[:]
}

func insert(t *testing.T, n *Node, ks, cf, key string, sc, name []byte, value string, ts int64) {
	t.Helper()
	if err := n.Insert(bg, ks, key, ColumnPath{ColumnFamily: cf, SuperColumn: sc, Column: name}, []byte(value), ts, ONE); err != nil {
		t.Fatalf("Insert %s/%s/%q/%q: %v", cf, key, sc, name, err)
	}
}

func sliceNames(t *testing.T, n *Node, ks, cf, key string, sc []byte, sr SliceRange) []string {
	t.Helper()
	res, err := n.GetSlice(bg, ks, key, ColumnParent{ColumnFamily: cf, SuperColumn: sc}, SlicePredicate{SliceRange: &sr}, ONE)
	if err != nil {
		t.Fatalf("GetSlice: %v", err)
	}
	return names(res)
}

// sameAsEach checks that GetSliceEach hands over the columns GetSlice returned, res, in order.
func sameAsEach(t *testing.T, n *Node, ks, key string, parent ColumnParent, pred SlicePredicate, res []ColumnOrSuperColumn) {
	t.Helper()
	var got []Column
	count, err := n.GetSliceEach(bg, ks, key, parent, pred, ONE, func(c Column) {
		got = append(got, Column{Name: slices.Clone(c.Name), Value: slices.Clone(c.Value), Timestamp: c.Timestamp})
	})
	if err != nil {
		t.Fatalf("GetSliceEach: %v", err)
	}
	if count != len(got) || len(got) != len(res) {
		t.Fatalf("GetSliceEach: %d columns (said %d), GetSlice %d", len(got), count, len(res))
	}
	for i, c := range got {
		if w := res[i].Column; !bytes.Equal(c.Name, w.Name) || !bytes.Equal(c.Value, w.Value) || c.Timestamp != w.Timestamp {
			t.Fatalf("GetSliceEach column %d: %q=%q@%d, GetSlice %q=%q@%d", i, c.Name, c.Value, c.Timestamp, w.Name, w.Value, w.Timestamp)
		}
	}
}

func names(res []ColumnOrSuperColumn) []string {
	out := []string{}
	for _, c := range res {
		if c.Column != nil {
			out = append(out, string(c.Column.Name))
		} else {
			out = append(out, string(c.SuperColumn.Name))
		}
	}
	return out
}

func wantInvalid(t *testing.T, err error, why string) {
	t.Helper()
	var ire *InvalidRequestError
	if !errors.As(err, &ire) {
		t.Fatalf("got %v, want InvalidRequest %q", err, why)
	}
	if ire.Why != why {
		t.Fatalf("got InvalidRequest %q, want %q", ire.Why, why)
	}
	if !errors.Is(err, ErrInvalidRequest) {
		t.Fatalf("errors.Is(ErrInvalidRequest) false for %v", err)
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// everyRowCached is schema (nil: the default) with RowsCached set on every column family.
func everyRowCached(schema *Schema, rows int) *Schema {
	if schema == nil {
		schema = DefaultSchema()
	}
	c := *schema
	c.Keyspaces = slices.Clone(schema.Keyspaces)
	for i := range c.Keyspaces {
		c.Keyspaces[i].ColumnFamilies = slices.Clone(c.Keyspaces[i].ColumnFamilies)
		for j := range c.Keyspaces[i].ColumnFamilies {
			c.Keyspaces[i].ColumnFamilies[j].RowsCached = rows
		}
	}
	return &c
}
