package frame

import (
	"strings"
)

// What lessons 8 to 13 share: the CQL of the cql3 adapter's migrations, read as the server
// applies it (Deps.QueryFirstDDL, cql3.SchemaText), never a copy.

// MigrationDDL is the statements of the migrations that make table: its CREATE TABLE and every
// ALTER TABLE of it, in order, comments removed, each ended by a semicolon.
func MigrationDDL(ddl, table string) string {
	var out []string
	for _, stmt := range strings.Split(ddlComment.ReplaceAllString(ddl, ""), ";") {
		stmt = strings.TrimSpace(stmt)
		flat := strings.Join(strings.Fields(stmt), " ")
		if m := ddlCreate.FindStringSubmatch(flat); m != nil && m[1] == table {
			out = append(out, dedent(stmt)+";")
		} else if m := ddlAlter.FindStringSubmatch(flat); m != nil && m[1] == table {
			out = append(out, flat+";")
		}
	}
	return strings.Join(out, "\n")
}

// dedent trims a statement's lines of trailing space, keeping their indent.
func dedent(stmt string) string {
	lines := strings.Split(stmt, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(lines, "\n")
}

// SchemaTable is a table of the migrations as the inspector describes one: its partition key,
// clustering columns (and their order), static and regular columns; found false when no
// migration makes it.
func SchemaTable(ddl, name string) (CQLTable, bool) {
	for _, t := range ParseSchema(ddl) {
		if t.Name != name {
			continue
		}
		out := CQLTable{Name: t.Name}
		for _, c := range t.Cols {
			col := CQLColumn{Name: c.Name, Type: c.Type}
			switch c.Mark {
			case "K":
				out.PartitionKey = append(out.PartitionKey, col)
			case "C↑":
				out.Clustering = append(out.Clustering, col)
			case "C↓":
				col.Desc = true
				out.Clustering = append(out.Clustering, col)
			case "S":
				out.Static = append(out.Static, col)
			default:
				out.Regular = append(out.Regular, col)
			}
		}
		return out, true
	}
	return CQLTable{}, false
}
