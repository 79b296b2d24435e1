package cql3

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"twissandra/domain"
)

// The table scans let the tools (dump) read any table of the keyspace row by row, whatever its
// columns, for teaching and debugging: what a CQL3 table holds, next to the column families of
// the widerow model.

// TableColumn is one column of a table.
type TableColumn struct {
	Name string
	// Type is the CQL type as the schema spells it: text, uuid, map<text, text>, ...
	Type string
}

// TableInfo describes a table: its partition key and clustering columns in key order, then
// the static and regular columns by name.
type TableInfo struct {
	Keyspace, Name string
	PartitionKey   []TableColumn
	Clustering     []TableColumn
	Static         []TableColumn
	Regular        []TableColumn
}

// Columns are every column: key columns first, in key order, then static, then regular ones.
func (t TableInfo) Columns() []TableColumn {
	return slices.Concat(t.PartitionKey, t.Clustering, t.Static, t.Regular)
}

// TableRow is one row: a value per column name, nil where the column is null. Values have the
// driver's Go types: string, []byte, gocql.UUID, time.Time, int, int64, bool, float64,
// map[string]string, []string, ...
type TableRow map[string]any

// tableNamePattern is what any CQL table name looks like (the schema allows no other
// characters). Names are taken from the schema, and this is checked on top.
var tableNamePattern = regexp.MustCompile(`^\w{1,222}$`)

// Tables lists the tables of the Store's keyspace, sorted.
func (s *Store) Tables(ctx context.Context) ([]string, error) {
	tables, err := s.SchemaTables(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(tables))
	for i, t := range tables {
		out[i] = t.Name
	}
	return out, nil
}

// Table describes the table name of the Store's keyspace; a name the keyspace does not have is
// domain.ErrNotFound.
func (s *Store) Table(ctx context.Context, name string) (TableInfo, error) {
	t, err := s.SchemaTable(ctx, name)
	if err != nil {
		return TableInfo{}, err
	}
	if !tableNamePattern.MatchString(name) {
		return TableInfo{}, fmt.Errorf("cql3: table name %q: %w", name, domain.ErrNotFound)
	}
	cols := func(in []SchemaColumn) []TableColumn {
		out := make([]TableColumn, len(in))
		for i, c := range in {
			out[i] = TableColumn{Name: c.Name, Type: c.Type}
		}
		return out
	}
	return TableInfo{Keyspace: t.Keyspace, Name: t.Name, PartitionKey: cols(t.PartitionKey),
		Clustering: cols(t.Clustering), Static: cols(t.Static), Regular: cols(t.Regular)}, nil
}

// ScanTable reads every row of the table name (see Table) with SELECT *, in token order, the
// driver fetching pageSize rows at a time, and calls fn with each row. It returns the table's
// description first through describe, if not nil, before any row.
//
// The table name is the one place a name from outside goes into CQL text (a table cannot be a
// bind marker): it is used only once it is found in the keyspace's list in system_schema.
func (s *Store) ScanTable(ctx context.Context, name string, pageSize int, describe func(TableInfo) error, fn func(TableRow) error) error {
	info, err := s.Table(ctx, name)
	if err != nil {
		return err
	}
	if describe != nil {
		if err := describe(info); err != nil {
			return err
		}
	}
	sess, err := s.sess()
	if err != nil {
		return err
	}
	if pageSize <= 0 {
		pageSize = 500
	}
	cols := info.Columns()
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = fmt.Sprintf("%q", c.Name)
	}
	// The keyspace passed Config's pattern, the table and column names come from the schema.
	stmt := fmt.Sprintf(`SELECT %s FROM %s.%q`, strings.Join(names, ", "), info.Keyspace, info.Name)
	q := sess.ContextQuery(ctx, stmt, nil)
	q.PageSize(pageSize)
	iter := q.Query.Iter()
	dest := make([]any, len(cols))
	for i, c := range iter.Columns() {
		zero, err := c.TypeInfo.NewWithError()
		if err != nil {
			_ = iter.Close()
			return fmt.Errorf("cql3: table %s, column %s: %w", name, c.Name, err)
		}
		// A pointer to a pointer of the column's Go type, so that null reads as nil.
		dest[i] = reflect.New(reflect.PointerTo(reflect.TypeOf(zero).Elem())).Interface()
	}
	for iter.Scan(dest...) {
		row := make(TableRow, len(cols))
		for i, c := range cols {
			p := reflect.ValueOf(dest[i]).Elem()
			if p.IsNil() {
				row[c.Name] = nil
			} else {
				row[c.Name] = p.Elem().Interface()
			}
			p.SetZero()
		}
		if err := fn(row); err != nil {
			_ = iter.Close()
			return err
		}
	}
	if err := iter.Close(); err != nil {
		return wrap("scan table "+name, err)
	}
	return nil
}
