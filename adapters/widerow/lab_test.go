package widerow_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"twissandra/adapters/widerow"
	"twissandra/domain"
	"twissandra/ports"
)

func newLab(t *testing.T) *widerow.Lab {
	t.Helper()
	l, err := widerow.NewLab()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}

func labNames(ns []ports.LabName) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.Name
	}
	return out
}

// The seeds' example: 3, 123, 976 and 832416 sort as numbers under LongType and as text under
// the byte-wise comparators; the UUID comparators refuse them.
func TestLabOrdersTheSeedsExample(t *testing.T) {
	l := newLab(t)
	rows, err := l.Order(context.Background(), []string{"976", "3", "832416", "123"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"LongType":  {"3", "123", "976", "832416"},
		"UTF8Type":  {`"123"`, `"3"`, `"832416"`, `"976"`},
		"AsciiType": {`"123"`, `"3"`, `"832416"`, `"976"`},
		"BytesType": {`"123"`, `"3"`, `"832416"`, `"976"`},
	}
	if len(rows) != 6 {
		t.Fatalf("%d rows, want one per comparator", len(rows))
	}
	for _, r := range rows {
		got := labNames(r.Names)
		if w, ok := want[r.Comparator]; ok {
			if !slices.Equal(got, w) || len(r.Rejected) != 0 {
				t.Errorf("%s: %v (rejected %v), want %v", r.Comparator, got, r.Rejected, w)
			}
			continue
		}
		if len(got) != 0 || len(r.Rejected) != 4 {
			t.Errorf("%s took %v, rejected %v; want all four refused", r.Comparator, got, r.Rejected)
		}
	}
	if rows[3].Names[0].Encoded != "0x0000000000000003" {
		t.Errorf("LongType 3 is stored as %s, want 8 big-endian bytes", rows[3].Names[0].Encoded)
	}
	if _, err := l.Order(context.Background(), nil); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("no names: %v", err)
	}
}

func TestLabSlices(t *testing.T) {
	l := newLab(t)
	ctx := context.Background()
	names := []string{"976", "3", "832416", "123"}
	for _, tc := range []struct {
		cmp  string
		s    ports.Slice
		want []string
	}{
		{"LongType", ports.Slice{Start: "100", Finish: "1000", Count: 10}, []string{"123", "976"}},
		{"LongType", ports.Slice{Start: "1000", Finish: "2000", Count: 10}, nil},
		{"LongType", ports.Slice{Start: "100", Count: 2}, []string{"123", "976"}},
		{"LongType", ports.Slice{Start: "1000", Reversed: true, Count: 10}, []string{"976", "123", "3"}},
		{"UTF8Type", ports.Slice{Start: "4", Count: 10}, []string{`"832416"`, `"976"`}},
		{"BytesType", ports.Slice{Reversed: true, Count: 1}, []string{`"976"`}},
	} {
		got, err := l.Slice(ctx, names, tc.cmp, tc.s)
		if err != nil {
			t.Fatalf("%s %+v: %v", tc.cmp, tc.s, err)
		}
		if g := labNames(got.Names); !slices.Equal(g, tc.want) && !(len(g) == 0 && len(tc.want) == 0) {
			t.Errorf("%s %+v: %v, want %v", tc.cmp, tc.s, g, tc.want)
		}
		if got.Call == "" {
			t.Errorf("%s: no call shown", tc.cmp)
		}
	}
	for _, bad := range []struct {
		cmp string
		s   ports.Slice
	}{
		{"LongType", ports.Slice{Start: "abc", Count: 1}},
		{"TimeUUIDType", ports.Slice{Start: "nope", Count: 1}},
		{"NoType", ports.Slice{Count: 1}},
		{"LongType", ports.Slice{Count: 0}},
		{"LongType", ports.Slice{Start: "10", Finish: "5", Count: 3}}, // start after finish
	} {
		if _, err := l.Slice(ctx, names, bad.cmp, bad.s); !errors.Is(err, domain.ErrInvalid) {
			t.Errorf("%s %+v: %v, want ErrInvalid", bad.cmp, bad.s, err)
		}
	}
}

// Last write wins: the higher timestamp wins whatever the order the writes arrive in; a
// tombstone at a higher timestamp hides the column, and a write older than it stays hidden.
func TestLabLastWriteWins(t *testing.T) {
	l := newLab(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		writes []ports.LabWrite
		found  bool
		value  string
	}{
		{"newer second", []ports.LabWrite{{Value: "old", Timestamp: 10}, {Value: "new", Timestamp: 20}}, true, "new"},
		{"newer first", []ports.LabWrite{{Value: "new", Timestamp: 20}, {Value: "old", Timestamp: 10}}, true, "new"},
		{"tie: larger value", []ports.LabWrite{{Value: "a", Timestamp: 5}, {Value: "b", Timestamp: 5}}, true, "b"},
		{"delete wins", []ports.LabWrite{{Value: "x", Timestamp: 10}, {Delete: true, Timestamp: 15}}, false, ""},
		{"older write stays hidden", []ports.LabWrite{{Delete: true, Timestamp: 15}, {Value: "late", Timestamp: 12}}, false, ""},
		{"newer write revives", []ports.LabWrite{{Delete: true, Timestamp: 15}, {Value: "back", Timestamp: 16}}, true, "back"},
	} {
		fwd, rev, err := l.LastWriteWins(ctx, tc.writes)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, c := range []ports.LabCell{fwd, rev} {
			if c.Found != tc.found || c.Value != tc.value {
				t.Errorf("%s: found %v %q, want %v %q", tc.name, c.Found, c.Value, tc.found, tc.value)
			}
		}
		if tc.found == false && (len(fwd.Stored) != 1 || !fwd.Stored[0].Deleted) {
			t.Errorf("%s: the stored cell %+v should be the tombstone", tc.name, fwd.Stored)
		}
	}
	if _, _, err := l.LastWriteWins(ctx, nil); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("no writes: %v", err)
	}
}
