package collections

import (
	"strings"

	"twissandra/ports/teaching"
)

// formName is how the lesson names a form.
func formName(f teaching.AddressForm) string {
	switch f {
	case teaching.Rows:
		return "Clustering columns"
	case teaching.Map:
		return "A map"
	case teaching.UDT:
		return "A user type"
	}
	return "A frozen user type"
}

func joinNames(ns []string) string { return strings.Join(ns, ", ") }

// seedText is seed 004's entry as the lesson writes it, in the seed's notation.
func seedText() string {
	var fs []string
	for _, f := range teaching.AddressEntry.Fields {
		fs = append(fs, f.Name+": \""+f.Value+"\"")
	}
	return "AddressBook = { // a ColumnFamily of type Super (seed 004)\n    " + teaching.AddressEntry.Owner + ": {\n        " +
		teaching.AddressEntry.Name + ": {" + strings.Join(fs, ", ") + "},\n        ...\n    },\n}"
}

// writtenWhere says where the form writes the entry.
func writtenWhere(d collectionsData) string {
	const node, engine = "in each of the four tables on the node", "as a super column of an AddressBook row of your own on the engine"
	switch {
	case d.OnNode && d.Lab:
		return node + ", and " + engine
	case d.OnNode:
		return node
	}
	return engine
}
