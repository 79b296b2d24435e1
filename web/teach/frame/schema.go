package frame

import (
	"encoding/xml"
	"strings"

	"twissandra/ports/teaching"
)

// The schemas the pages show come from what the server runs: the CQL3 tables from the cql3
// adapter's migrations (Deps.CQLSchema, cql3.SchemaText(), whatever the backend; parsed by
// parseSchema), the column families from the storage-conf.xml the page shows. Nothing here is a
// second copy of either; a test holds the tables to a real node's system_schema.

// CqlDDL is the CQL the cql3 adapter's migrations apply.
func (h *Base) CqlDDL() string {
	if h.Deps.CQLSchema != "" {
		return h.Deps.CQLSchema
	}
	return h.Deps.QueryFirstDDL
}

// TableDDL is t as one CREATE TABLE: its columns, key columns first (static ones marked), its
// primary key and its clustering order. multiline puts a column a line.
func TableDDL(t ChebTable, multiline bool) string {
	var cols, pk, ck, order []string
	for _, c := range t.Cols {
		col := c.Name + " " + c.Type
		switch c.Mark {
		case "K":
			pk = append(pk, c.Name)
		case "C↑":
			ck, order = append(ck, c.Name), append(order, c.Name+" ASC")
		case "C↓":
			ck, order = append(ck, c.Name), append(order, c.Name+" DESC")
		case "S":
			col += " static"
		}
		cols = append(cols, col)
	}
	key := strings.Join(pk, ", ")
	if len(pk) > 1 {
		key = "(" + key + ")"
	}
	cols = append(cols, "PRIMARY KEY ("+strings.Join(append([]string{key}, ck...), ", ")+")")
	var b strings.Builder
	b.WriteString(t.Name + " (")
	if multiline {
		b.WriteString("\n    " + strings.Join(cols, ",\n    ") + "\n)")
	} else {
		b.WriteString(strings.Join(cols, ", ") + ")")
	}
	if len(ck) > 0 {
		b.WriteString(" WITH CLUSTERING ORDER BY (" + strings.Join(order, ", ") + ")")
	}
	return b.String()
}

// SchemaTables are the tables the migrations leave, each as one CREATE TABLE, in the order the
// migrations create them.
func SchemaTables(ddl string) string {
	var b strings.Builder
	for i, t := range ParseSchema(ddl) {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("CREATE TABLE " + TableDDL(t, true) + ";")
	}
	return b.String()
}

// confCF is a <ColumnFamily> of a storage-conf.xml.
type confCF struct {
	Keyspace, Name, CompareWith, CompareSubcolumnsWith, ColumnType string
}

// Comparator is the column family's comparator as the mapping shows it: "Super: A / B" for a
// super column family.
func (cf confCF) Comparator() string {
	if strings.EqualFold(cf.ColumnType, "Super") {
		return "Super: " + cf.CompareWith + " / " + cf.CompareSubcolumnsWith
	}
	return cf.CompareWith
}

// StorageConfCFs reads the column families of a storage-conf.xml, by "Keyspace.Name".
func StorageConfCFs(conf string) map[string]confCF {
	var doc struct {
		Keyspaces []struct {
			Name           string `xml:"Name,attr"`
			ColumnFamilies []struct {
				Name                  string `xml:"Name,attr"`
				CompareWith           string `xml:"CompareWith,attr"`
				CompareSubcolumnsWith string `xml:"CompareSubcolumnsWith,attr"`
				ColumnType            string `xml:"ColumnType,attr"`
			} `xml:"ColumnFamily"`
		} `xml:"Keyspaces>Keyspace"`
	}
	out := map[string]confCF{}
	if err := xml.Unmarshal([]byte(conf), &doc); err != nil {
		return out
	}
	for _, ks := range doc.Keyspaces {
		for _, cf := range ks.ColumnFamilies {
			out[ks.Name+"."+cf.Name] = confCF{Keyspace: ks.Name, Name: cf.Name, CompareWith: cf.CompareWith,
				CompareSubcolumnsWith: cf.CompareSubcolumnsWith, ColumnType: cf.ColumnType}
		}
	}
	return out
}

// The cql3 inspector's types are the ports'.
type (
	CQLColumn = teaching.CQLColumn
	CQLTable  = teaching.CQLTable
	CQLSlice  = teaching.Slice
	CQLCell   = teaching.CQLCell
)
