package dump

import (
	"bufio"
	"cmp"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/gocql/gocql"

	"twissandra/adapters/cql3"
	"twissandra/domain"
	"twissandra/internal/notation"
)

// TableSource is what CQLTable reads: the cql3 Store.
type TableSource interface {
	ScanTable(ctx context.Context, name string, pageSize int, describe func(cql3.TableInfo) error, fn func(cql3.TableRow) error) error
}

// CQLOptions select what CQLTable prints.
type CQLOptions struct {
	Table    string
	Format   string // Notation or JSONL
	PageSize int    // rows per page the driver fetches; 0 = 500
	// ShowSecrets prints password hashes and emails as stored; by default they show as what
	// they are (domain.RedactColumn).
	ShowSecrets bool
}

// TableLine is one JSON line of a table dump: the row's columns as JSON values (blobs as 0x
// hex, UUIDs as text, timestamps as RFC 3339 in UTC, dates as YYYY-MM-DD, null as null).
type TableLine struct {
	Keyspace string         `json:"keyspace"`
	Table    string         `json:"table"`
	Row      map[string]any `json:"row"`
}

// CQLTable prints every row of one table of a cql3 keyspace, in token order: as JSON lines, or
// in a notation after the articles' (one entry per partition, its rows under their clustering
// key):
//
//	users : {
//	    'jericevans' : {
//	        created_at : '2010-05-12T00:00:00.000Z',
//	        id : 6f3b8ac0-5d44-4d63-8b0c-30a0e4f2e1a8,
//	        password : 0x2432612431302e2e2e
//	    }
//	}
func CQLTable(ctx context.Context, w io.Writer, src TableSource, o CQLOptions) error {
	if o.Format == "" {
		o.Format = Notation
	}
	if o.Format != Notation && o.Format != JSONL {
		return fmt.Errorf("format %q: want %s or %s", o.Format, Notation, JSONL)
	}
	bw := bufio.NewWriter(w)
	var n notationWriter
	describe := func(info cql3.TableInfo) error {
		n = notationWriter{w: bw, info: info, types: map[string]string{}}
		for _, c := range info.Columns() {
			n.types[c.Name] = c.Type
		}
		if o.Format == Notation {
			n.header()
		}
		return nil
	}
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	each := func(row cql3.TableRow) error {
		if !o.ShowSecrets {
			redactRow(row)
		}
		if o.Format == Notation {
			n.row(row)
			return nil
		}
		out := make(map[string]any, len(row))
		for k, v := range row {
			out[k] = jsonValue(v, n.types[k])
		}
		return enc.Encode(TableLine{Keyspace: n.info.Keyspace, Table: n.info.Name, Row: out})
	}
	if err := src.ScanTable(ctx, o.Table, o.PageSize, describe, each); err != nil {
		return err
	}
	if o.Format == Notation {
		n.end()
	}
	return bw.Flush()
}

// notationWriter prints rows as they come, grouping the consecutive rows of a partition (a
// token-ordered scan returns a partition's rows together).
type notationWriter struct {
	w       *bufio.Writer
	info    cql3.TableInfo
	types   map[string]string
	lastKey string
	rows    int
}

func (n *notationWriter) header() {
	key := func(cs []cql3.TableColumn) string {
		names := make([]string, len(cs))
		for i, c := range cs {
			names[i] = c.Name
		}
		return strings.Join(names, ", ")
	}
	pk := "(" + key(n.info.PartitionKey) + ")"
	if len(n.info.Clustering) > 0 {
		pk += ", " + key(n.info.Clustering)
	}
	fmt.Fprintf(n.w, "// keyspace %s, table %s, PRIMARY KEY (%s)\n%s : {", n.info.Keyspace, n.info.Name, pk, n.info.Name)
}

func (n *notationWriter) key(row cql3.TableRow, cols []cql3.TableColumn) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = Literal(row[c.Name], c.Type)
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func (n *notationWriter) columns(row cql3.TableRow, cols []cql3.TableColumn, indent string) {
	if len(cols) == 0 {
		n.w.WriteString("{ }")
		return
	}
	n.w.WriteString("{")
	for i, c := range cols {
		if i > 0 {
			n.w.WriteString(",")
		}
		fmt.Fprintf(n.w, "\n%s%s : %s", indent+notation.Indent, c.Name, Literal(row[c.Name], c.Type))
	}
	fmt.Fprintf(n.w, "\n%s}", indent)
}

func (n *notationWriter) row(row cql3.TableRow) {
	pk := n.key(row, n.info.PartitionKey)
	clustered := len(n.info.Clustering) > 0
	if n.rows == 0 || pk != n.lastKey {
		if n.rows > 0 {
			if clustered {
				fmt.Fprintf(n.w, "\n%s}", notation.Indent)
			}
			n.w.WriteString(",")
		}
		fmt.Fprintf(n.w, "\n%s%s : ", notation.Indent, pk)
		if clustered {
			n.w.WriteString("{")
			if len(n.info.Static) > 0 {
				fmt.Fprintf(n.w, "\n%sstatic : ", notation.Indent+notation.Indent)
				n.columns(row, n.info.Static, notation.Indent+notation.Indent)
				n.w.WriteString(",")
			}
		}
		n.lastKey = pk
	} else {
		n.w.WriteString(",")
	}
	n.rows++
	if !clustered {
		n.columns(row, slices.Concat(n.info.Static, n.info.Regular), notation.Indent)
		return
	}
	fmt.Fprintf(n.w, "\n%s%s : ", notation.Indent+notation.Indent, n.key(row, n.info.Clustering))
	n.columns(row, n.info.Regular, notation.Indent+notation.Indent)
}

func (n *notationWriter) end() {
	if n.rows > 0 {
		if len(n.info.Clustering) > 0 {
			fmt.Fprintf(n.w, "\n%s}", notation.Indent)
		}
		n.w.WriteString("\n")
	}
	n.w.WriteString("}\n")
}

// Literal renders a value of CQL type typ as a CQL literal: 'text' (quotes doubled), 0x blobs,
// bare UUIDs and numbers, timestamps and dates quoted, {k: v} maps, {a, b} sets, [a, b] lists,
// null.
func Literal(v any, typ string) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	case []byte:
		return "0x" + hex.EncodeToString(x)
	case gocql.UUID:
		return x.String()
	case time.Time:
		return "'" + formatTime(x, typ) + "'"
	}
	rv := reflect.ValueOf(v)
	key, elem := collectionTypes(typ)
	switch rv.Kind() {
	case reflect.Map:
		parts := make([]string, 0, rv.Len())
		for _, k := range sortedKeys(rv) {
			parts = append(parts, Literal(k.Interface(), key)+": "+Literal(rv.MapIndex(k).Interface(), elem))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case reflect.Slice, reflect.Array:
		parts := make([]string, rv.Len())
		for i := range rv.Len() {
			parts[i] = Literal(rv.Index(i).Interface(), key)
		}
		if strings.HasPrefix(typ, "set<") {
			return "{" + strings.Join(parts, ", ") + "}"
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

// jsonValue converts a row's value to what a JSON line shows.
func jsonValue(v any, typ string) any {
	switch x := v.(type) {
	case nil, string, bool:
		return x
	case []byte:
		return "0x" + hex.EncodeToString(x)
	case gocql.UUID:
		return x.String()
	case time.Time:
		return formatTime(x, typ)
	}
	rv := reflect.ValueOf(v)
	key, elem := collectionTypes(typ)
	switch rv.Kind() {
	case reflect.Map:
		out := make(map[string]any, rv.Len())
		for _, k := range sortedKeys(rv) {
			ks, ok := jsonValue(k.Interface(), key).(string)
			if !ok {
				ks = fmt.Sprint(k.Interface())
			}
			out[ks] = jsonValue(rv.MapIndex(k).Interface(), elem)
		}
		return out
	case reflect.Slice, reflect.Array:
		out := make([]any, rv.Len())
		for i := range rv.Len() {
			out[i] = jsonValue(rv.Index(i).Interface(), key)
		}
		return out
	}
	return v
}

func formatTime(t time.Time, typ string) string {
	if typ == "date" {
		return t.UTC().Format(time.DateOnly)
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

// collectionTypes reads the key (or element) and value types of map<k, v>, set<e>, list<e>.
func collectionTypes(typ string) (key, elem string) {
	typ = strings.TrimPrefix(strings.TrimSuffix(typ, ">"), "frozen<")
	_, inner, ok := strings.Cut(typ, "<")
	if !ok {
		return "", ""
	}
	inner = strings.TrimSuffix(inner, ">")
	if k, v, ok := strings.Cut(inner, ","); ok && !strings.Contains(k, "<") {
		return strings.TrimSpace(k), strings.TrimSpace(v)
	}
	return strings.TrimSpace(inner), ""
}

func sortedKeys(m reflect.Value) []reflect.Value {
	keys := m.MapKeys()
	slices.SortFunc(keys, func(a, b reflect.Value) int { return cmp.Compare(fmt.Sprint(a.Interface()), fmt.Sprint(b.Interface())) })
	return keys
}

// redactRow replaces, in place, each secret column's value (a password hash, an email) with the
// text that says what it is.
func redactRow(row cql3.TableRow) {
	for name, v := range row {
		var raw []byte
		switch x := v.(type) {
		case []byte:
			raw = x
		case string:
			raw = []byte(x)
		default:
			continue
		}
		if shown, ok := domain.RedactColumn(name, raw); ok {
			row[name] = shown
		}
	}
}
