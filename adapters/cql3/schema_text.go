package cql3

import (
	"io/fs"
	"sort"
	"strings"
)

// SchemaText is the CQL the adapter applies, its migrations in order, for teaching views that
// show the schema beside the Thrift-era one.
func SchemaText() string {
	names, _ := fs.Glob(Migrations(), "*.cql")
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		data, err := fs.ReadFile(Migrations(), n)
		if err != nil {
			continue
		}
		b.WriteString("-- " + n + "\n")
		text := strings.TrimRight(string(data), " \t\n")
		b.WriteString(text)
		if !strings.HasSuffix(text, ";") {
			// The driver runs a file's last statement without one; joined to the next
			// file's, the text needs it.
			b.WriteString(";")
		}
		b.WriteString("\n")
	}
	return b.String()
}
