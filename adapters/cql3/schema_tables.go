package cql3

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"twissandra/domain"
)

// SchemaColumn is one column of a table: its name, its CQL type as system_schema spells it, and
// whether a clustering column is in descending order.
type SchemaColumn struct {
	Name string
	Type string
	Desc bool
}

// SchemaTable describes a table as system_schema does: its key columns in key order, then its
// static and regular columns.
type SchemaTable struct {
	Keyspace     string
	Name         string
	PartitionKey []SchemaColumn
	Clustering   []SchemaColumn
	Static       []SchemaColumn
	Regular      []SchemaColumn
}

const (
	stSchemaTables  = "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?"
	stSchemaColumns = "SELECT table_name, column_name, kind, position, type, clustering_order FROM system_schema.columns WHERE keyspace_name = ?"
)

// SchemaTables describes every table of the Store's keyspace, sorted by name, from
// system_schema.
func (s *Store) SchemaTables(ctx context.Context) ([]SchemaTable, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	ks := s.cfg.Keyspace
	byName := map[string]*SchemaTable{}
	iter := sess.ContextQuery(ctx, stSchemaTables, nil).Bind(ks).Iter()
	var name string
	for iter.Scan(&name) {
		byName[name] = &SchemaTable{Keyspace: ks, Name: name}
	}
	if err := iter.Close(); err != nil {
		return nil, wrap("list tables", err)
	}
	type col struct {
		SchemaColumn
		kind string
		pos  int
	}
	cols := map[string][]col{}
	iter = sess.ContextQuery(ctx, stSchemaColumns, nil).Bind(ks).Iter()
	var (
		table, order string
		c            col
	)
	for iter.Scan(&table, &c.Name, &c.kind, &c.pos, &c.Type, &order) {
		c.Desc = strings.EqualFold(order, "desc")
		cols[table] = append(cols[table], c)
	}
	if err := iter.Close(); err != nil {
		return nil, wrap("describe tables", err)
	}
	out := make([]SchemaTable, 0, len(byName))
	for name, t := range byName { // views and indexes have columns but are no tables: skipped
		cs := cols[name]
		slices.SortFunc(cs, func(a, b col) int { return cmp.Or(cmp.Compare(a.pos, b.pos), cmp.Compare(a.Name, b.Name)) })
		for _, c := range cs {
			switch c.kind {
			case "partition_key":
				t.PartitionKey = append(t.PartitionKey, c.SchemaColumn)
			case "clustering":
				t.Clustering = append(t.Clustering, c.SchemaColumn)
			case "static":
				t.Static = append(t.Static, c.SchemaColumn)
			default:
				t.Regular = append(t.Regular, c.SchemaColumn)
			}
		}
		out = append(out, *t)
	}
	slices.SortFunc(out, func(a, b SchemaTable) int { return cmp.Compare(a.Name, b.Name) })
	return out, nil
}

// SchemaTable finds name among the keyspace's tables; an unknown name is domain.ErrNotFound.
func (s *Store) SchemaTable(ctx context.Context, name string) (SchemaTable, error) {
	tables, err := s.SchemaTables(ctx)
	if err != nil {
		return SchemaTable{}, err
	}
	i := slices.IndexFunc(tables, func(t SchemaTable) bool { return t.Name == name })
	if i < 0 {
		names := make([]string, len(tables))
		for i, t := range tables {
			names[i] = t.Name
		}
		return SchemaTable{}, fmt.Errorf("keyspace %s has no table %q (it has %s): %w",
			s.cfg.Keyspace, name, strings.Join(names, ", "), domain.ErrNotFound)
	}
	if len(tables[i].PartitionKey) == 0 {
		return SchemaTable{}, fmt.Errorf("table %s has no partition key in system_schema: %w", name, domain.ErrNotFound)
	}
	return tables[i], nil
}
