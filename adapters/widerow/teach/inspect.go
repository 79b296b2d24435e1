package teach

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/ports/teaching"
)

// Inspector shows the engine's rows in the 0.6 model's own terms, for the teaching views: it
// implements teaching.WideRowInspector (the storage inspector) and teaching.Locator (where a record
// lives). It reads the engine directly, never the adapters' caches, so what it shows is stored.
type Inspector struct{ node *engine.Node }

// NewInspector inspects node.
func NewInspector(node *engine.Node) *Inspector { return &Inspector{node: node} }

const (
	inspectCL     = engine.ONE
	inspectRowMax = 200 // columns of a whole-row placement (a profile, a tweet)
)

// SchemaXML implements teaching.WideRowInspector.
func (in *Inspector) SchemaXML() string { return in.node.Schema().XML }

// Compaction implements teaching.WideRowInspector.
func (in *Inspector) Compaction() (gcGraceSeconds int64, every time.Duration) {
	return int64(in.node.GCGrace() / time.Second), in.node.CompactionInterval()
}

// Keyspaces implements teaching.WideRowInspector.
func (in *Inspector) Keyspaces() []teaching.WideKeyspace {
	var out []teaching.WideKeyspace
	for _, ks := range in.node.Schema().Keyspaces {
		k := teaching.WideKeyspace{Name: ks.Name}
		for i := range ks.ColumnFamilies {
			cf := &ks.ColumnFamilies[i]
			k.ColumnFamilies = append(k.ColumnFamilies, teaching.WideCF{Name: cf.Name, Super: cf.Super, Comparator: cf.CompareWith.String(),
				Definition: cfDefinition(cf), BoundHelp: boundHelp(cf.CompareWith)})
		}
		out = append(out, k)
	}
	return out
}

func (in *Inspector) cf(keyspace, name string) (*engine.ColumnFamilyDef, error) {
	if keyspace == widerow.KeyspaceSessions {
		// Who tried to log in and from which address, the sessions logged out, and what each
		// learner did in the course: the schema shows the keyspace, no page shows its rows.
		return nil, fmt.Errorf("widerow: %w", domain.Invalid("column family", "%s.%s holds who tried to log in and from which address, the sessions logged out, or the learners' progress: its rows are private, so no page shows them", keyspace, name))
	}
	if ks, ok := in.node.Schema().Keyspace(keyspace); ok {
		if cf, ok := ks.ColumnFamily(name); ok {
			return cf, nil
		}
	}
	return nil, fmt.Errorf("widerow: %w", domain.Invalid("column family", "there is no column family %s.%s in this schema", keyspace, name))
}

// ReadRow implements teaching.WideRowInspector.
func (in *Inspector) ReadRow(ctx context.Context, keyspace, cfName, key string, s teaching.Slice) ([]teaching.WideColumn, error) {
	cf, err := in.cf(keyspace, cfName)
	if err != nil {
		return nil, err
	}
	start, err := parseBound(cf.CompareWith, s.Start)
	if err != nil {
		return nil, domain.Invalid("start", "%s", err)
	}
	finish, err := parseBound(cf.CompareWith, s.Finish)
	if err != nil {
		return nil, domain.Invalid("finish", "%s", err)
	}
	cols, err := in.node.GetSlice(ctx, keyspace, key, engine.ColumnParent{ColumnFamily: cfName},
		engine.SlicePredicate{SliceRange: &engine.SliceRange{Start: start, Finish: finish, Reversed: s.Reversed, Count: int32(s.Count)}}, inspectCL)
	if err != nil {
		return nil, widerow.Wrap("inspect", err)
	}
	return wideColumns(cf, cols), nil
}

func wideColumns(cf *engine.ColumnFamilyDef, cols []engine.ColumnOrSuperColumn) []teaching.WideColumn {
	out := make([]teaching.WideColumn, 0, len(cols))
	for _, c := range cols {
		switch {
		case c.Column != nil:
			out = append(out, wideColumn(cf.CompareWith, *c.Column))
		case c.SuperColumn != nil:
			name, note := decodeName(cf.CompareWith, c.SuperColumn.Name)
			sc := teaching.WideColumn{Name: name, Note: note}
			for _, sub := range c.SuperColumn.Columns {
				sc.Columns = append(sc.Columns, wideColumn(cf.CompareSubcolumnsWith, sub))
			}
			out = append(out, sc)
		}
	}
	return out
}

func wideColumn(cmp engine.Comparator, c engine.Column) teaching.WideColumn {
	name, note := decodeName(cmp, c.Name)
	return teaching.WideColumn{Name: name, Note: note, Value: shownValue(c.Name, c.Value), Timestamp: c.Timestamp}
}

// StoredRow implements teaching.WideRowInspector.
func (in *Inspector) StoredRow(ctx context.Context, keyspace, cfName, key string, limit int) ([]teaching.WideColumn, error) {
	cf, err := in.cf(keyspace, cfName)
	if err != nil {
		return nil, err
	}
	cells, err := in.node.StoredCells(ctx, keyspace, cfName, key, limit)
	if err != nil {
		return nil, widerow.Wrap("inspect", err)
	}
	var out []teaching.WideColumn
	for _, c := range cells {
		var col teaching.WideColumn
		switch {
		case c.SuperColumn == nil && c.Name == nil: // the row's deletion marker
		case c.SuperColumn == nil:
			col = wideColumn(cf.CompareWith, engine.Column{Name: c.Name, Value: c.Value})
		default:
			name, note := decodeName(cf.CompareWith, c.SuperColumn)
			if n := len(out); n == 0 || out[n-1].Name != name || out[n-1].Columns == nil {
				out = append(out, teaching.WideColumn{Name: name, Note: note, Columns: []teaching.WideColumn{}})
			}
			sub := teaching.WideColumn{Timestamp: c.Timestamp, Deleted: c.Tombstone}
			if c.Name != nil {
				sub = wideColumn(cf.CompareSubcolumnsWith, engine.Column{Name: c.Name, Value: c.Value})
			}
			sub.Timestamp, sub.Deleted, sub.Received = c.Timestamp, c.Tombstone, c.DeletedAt
			last := &out[len(out)-1]
			last.Columns = append(last.Columns, sub)
			continue
		}
		col.Timestamp, col.Deleted, col.Received = c.Timestamp, c.Tombstone, c.DeletedAt
		if col.Deleted {
			col.Value = ""
		}
		out = append(out, col)
	}
	return out, nil
}

// UserRowKey implements teaching.WideRowInspector.
func (in *Inspector) UserRowKey(ctx context.Context, username string) (string, error) {
	cols, err := in.node.GetSlice(ctx, widerow.KeyspaceTwissandra, username, engine.ColumnParent{ColumnFamily: widerow.CFUsername},
		engine.SlicePredicate{ColumnNames: [][]byte{[]byte("id")}}, inspectCL)
	if err != nil {
		return "", widerow.Wrap("inspect", err)
	}
	if len(cols) == 0 || cols[0].Column == nil {
		return "", fmt.Errorf("widerow: no user is named %q (the Username row has no id column): %w", username, domain.ErrNotFound)
	}
	return string(cols[0].Column.Value), nil
}

// RowKeys implements teaching.WideRowInspector: get_range_slices, skipping the rows that hold only
// tombstones (range ghosts).
func (in *Inspector) RowKeys(ctx context.Context, keyspace, cf string, limit int) ([]string, error) {
	if _, err := in.cf(keyspace, cf); err != nil {
		return nil, err
	}
	rows, err := in.node.GetRangeSlices(ctx, keyspace, engine.ColumnParent{ColumnFamily: cf},
		engine.SlicePredicate{SliceRange: &engine.SliceRange{Count: 1}}, engine.KeyRange{Count: int32(limit)}, inspectCL)
	if err != nil {
		return nil, widerow.Wrap("inspect", err)
	}
	var keys []string
	for _, r := range rows {
		if len(r.Columns) > 0 {
			keys = append(keys, r.Key)
		}
	}
	return keys, nil
}

// The rendering of names, values and bounds by comparator.

func cfDefinition(cf *engine.ColumnFamilyDef) string {
	s := fmt.Sprintf(`<ColumnFamily Name=%q CompareWith=%q`, cf.Name, cf.CompareWith.String())
	if cf.Super {
		s += fmt.Sprintf(` ColumnType="Super" CompareSubcolumnsWith=%q`, cf.CompareSubcolumnsWith.String())
	}
	if cf.RowsCached > 0 {
		s += fmt.Sprintf(` RowsCached="%d"`, cf.RowsCached)
	}
	return s + "/>"
}

func boundHelp(cmp engine.Comparator) string {
	switch cmp {
	case engine.LongType:
		return "a number (e.g. microseconds 1273656000123456) or a date like 2010-05-12T09:20:00Z"
	case engine.TimeUUIDType, engine.LexicalUUIDType:
		return "a UUID like 6ba7b810-9dad-11d1-80b4-00c04fd430c8"
	case engine.BytesType:
		return "text, or hex bytes written 0x…"
	}
	return "text"
}

// parseBound turns a slice bound typed by a learner into a column name of the comparator.
func parseBound(cmp engine.Comparator, s string) ([]byte, error) {
	if s == "" {
		return nil, nil
	}
	switch cmp {
	case engine.LongType:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t, terr := time.Parse(time.RFC3339Nano, s)
			if terr != nil {
				return nil, fmt.Errorf("%q is neither a number nor a date like 2010-05-12T09:20:00Z", s)
			}
			n = t.UnixMicro()
		}
		return binary.BigEndian.AppendUint64(nil, uint64(n)), nil
	case engine.TimeUUIDType, engine.LexicalUUIDType:
		u, err := uuid.Parse(s)
		if err != nil {
			return nil, fmt.Errorf("%q is not a UUID", s)
		}
		return u[:], nil
	case engine.BytesType:
		if h, ok := strings.CutPrefix(s, "0x"); ok {
			b, err := hex.DecodeString(h)
			if err != nil {
				return nil, fmt.Errorf("%q is not hex bytes", s)
			}
			return b, nil
		}
	}
	return []byte(s), nil
}

// decodeName shows a column name as its comparator reads it, with a note (a date) where one helps.
func decodeName(cmp engine.Comparator, b []byte) (name, note string) {
	switch cmp {
	case engine.LongType:
		if len(b) == 8 {
			n := int64(binary.BigEndian.Uint64(b))
			return strconv.FormatInt(n, 10), domain.MicrosDate(n)
		}
	case engine.TimeUUIDType:
		if u, err := uuid.FromBytes(b); err == nil {
			note := ""
			if u.Version() == 1 {
				sec, nsec := u.Time().UnixTime()
				note = time.Unix(sec, nsec).UTC().Format("2006-01-02 15:04:05.000000 UTC")
			}
			return u.String(), note
		}
	case engine.LexicalUUIDType:
		if u, err := uuid.FromBytes(b); err == nil {
			return u.String(), ""
		}
	case engine.UTF8Type, engine.AsciiType:
		if utf8.Valid(b) {
			return strconv.Quote(string(b)), ""
		}
	}
	return decodeValue(b), ""
}

// shownValue is what a page shows of a stored column: its value decoded, or, for a secret (a
// password hash, an email), what it is (domain.RedactColumn).
func shownValue(name, value []byte) string {
	if shown, ok := domain.RedactColumn(string(name), value); ok {
		return shown
	}
	return decodeValue(value)
}

// decodeValue shows bytes as quoted text when they are printable UTF-8, else as hex.
func decodeValue(b []byte) string {
	if utf8.Valid(b) && !strings.ContainsFunc(string(b), func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) {
		return strconv.Quote(string(b))
	}
	return "0x" + hex.EncodeToString(b)
}
