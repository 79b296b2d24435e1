// Package notation prints wide rows the way the seed articles draw them,
//
//	Timeline : {
//	    "jericevans" : {
//	        1270000000000000 : "a4a70900-24e1-11df-8924-001ff3591711"
//	    }
//	}
//
// with every column name decoded by its column family's comparator (LongType as numbers, the
// UUID types as UUID text, the byte types as quoted text, or as hex when they are not printable
// text), and the same rows as JSON values for machine reading.
package notation

import (
	"encoding/binary"
	"encoding/hex"

	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"

	"twissandra/adapters/widerow/engine"
)

// Indent is one level of indentation, four spaces as in the articles.
const Indent = "    "

// Name renders a column or super column name under comparator c.
func Name(c engine.Comparator, b []byte) string {
	switch c {
	case engine.LongType:
		if len(b) == 8 {
			return strconv.FormatInt(int64(binary.BigEndian.Uint64(b)), 10)
		}
	case engine.LexicalUUIDType, engine.TimeUUIDType:
		if u, err := uuid.FromBytes(b); err == nil {
			return u.String()
		}
	}
	return Value(b)
}

// Value renders a value (values have no type in 0.6): quoted text when it is printable UTF-8,
// else 0x and the hex digits.
func Value(b []byte) string {
	if Printable(b) {
		return strconv.Quote(string(b))
	}
	return "0x" + hex.EncodeToString(b)
}

// Key renders a row key (always text in 0.6).
func Key(k string) string { return strconv.Quote(k) }

// Printable reports whether b is valid UTF-8 holding only printable characters and spaces.
func Printable(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, r := range string(b) {
		if !unicode.IsPrint(r) && r != ' ' {
			return false
		}
	}
	return true
}

// Row is one row of a column family as read from the engine.
type Row struct {
	Key     string
	Columns []engine.ColumnOrSuperColumn
}

// Style says how columns are written: as name : value, the articles' pairs, or with
// Timestamps as the triples every seed defines a column to be (name, value, timestamp).
type Style struct {
	Timestamps bool
}

// WriteCF writes CF : { rows } in the articles' pairs.
func WriteCF(w io.Writer, cf *engine.ColumnFamilyDef, rows []Row) error {
	return Style{}.WriteCF(w, cf, rows)
}

// WriteRows writes rows in the articles' pairs (Style.WriteRows).
func WriteRows(w io.Writer, cf *engine.ColumnFamilyDef, rows []Row, first bool) error {
	return Style{}.WriteRows(w, cf, rows, first)
}

// WriteColumns writes columns in the articles' pairs (Style.WriteColumns).
func WriteColumns(sb *strings.Builder, cf *engine.ColumnFamilyDef, cols []engine.ColumnOrSuperColumn, depth int) {
	Style{}.WriteColumns(sb, cf, cols, depth)
}

// WriteSuperColumn writes one super column in the articles' pairs (Style.WriteSuperColumn).
func WriteSuperColumn(sb *strings.Builder, cf *engine.ColumnFamilyDef, sc engine.SuperColumn, depth int) {
	Style{}.WriteSuperColumn(sb, cf, sc, depth)
}

// ColumnText is name : value.
func ColumnText(c engine.Comparator, col engine.Column) string { return Style{}.ColumnText(c, col) }

// WriteCF writes CF : { rows } at the given depth of indentation.
func (st Style) WriteCF(w io.Writer, cf *engine.ColumnFamilyDef, rows []Row) error {
	var sb strings.Builder
	sb.WriteString(cf.Name + " : {")
	if len(rows) == 0 {
		sb.WriteString("}\n")
		_, err := io.WriteString(w, sb.String())
		return err
	}
	sb.WriteString("\n")
	for i, r := range rows {
		st.writeRow(&sb, cf, r, 1)
		if i < len(rows)-1 {
			sb.WriteString(",")
		}
		sb.WriteString("\n")
	}
	sb.WriteString("}\n")
	_, err := io.WriteString(w, sb.String())
	return err
}

// WriteRows writes the rows one after another without the CF wrapper, at depth 1; dump uses it
// to stream a column family page by page.
func (st Style) WriteRows(w io.Writer, cf *engine.ColumnFamilyDef, rows []Row, first bool) error {
	var sb strings.Builder
	for _, r := range rows {
		if !first {
			sb.WriteString(",\n")
		}
		first = false
		st.writeRow(&sb, cf, r, 1)
	}
	_, err := io.WriteString(w, sb.String())
	return err
}

func (st Style) writeRow(sb *strings.Builder, cf *engine.ColumnFamilyDef, r Row, depth int) {
	pad := strings.Repeat(Indent, depth)
	sb.WriteString(pad + Key(r.Key) + " : ")
	st.WriteColumns(sb, cf, r.Columns, depth)
}

// WriteColumns writes { name : value, ... } (super columns nested) at depth, without a newline
// after the closing brace.
func (st Style) WriteColumns(sb *strings.Builder, cf *engine.ColumnFamilyDef, cols []engine.ColumnOrSuperColumn, depth int) {
	if len(cols) == 0 {
		sb.WriteString("{}")
		return
	}
	pad := strings.Repeat(Indent, depth+1)
	sb.WriteString("{\n")
	for i, c := range cols {
		sb.WriteString(pad)
		if c.SuperColumn != nil {
			sb.WriteString(Name(cf.CompareWith, c.SuperColumn.Name) + " : ")
			st.writeSub(sb, cf.CompareSubcolumnsWith, c.SuperColumn.Columns, depth+1)
		} else {
			sb.WriteString(st.ColumnText(cf.CompareWith, *c.Column))
		}
		if i < len(cols)-1 {
			sb.WriteString(",")
		}
		sb.WriteString("\n")
	}
	sb.WriteString(strings.Repeat(Indent, depth) + "}")
}

// WriteSuperColumn writes name : { subcolumns } of one super column at depth.
func (st Style) WriteSuperColumn(sb *strings.Builder, cf *engine.ColumnFamilyDef, sc engine.SuperColumn, depth int) {
	sb.WriteString(strings.Repeat(Indent, depth) + Name(cf.CompareWith, sc.Name) + " : ")
	st.writeSub(sb, cf.CompareSubcolumnsWith, sc.Columns, depth)
}

func (st Style) writeSub(sb *strings.Builder, c engine.Comparator, cols []engine.Column, depth int) {
	if len(cols) == 0 {
		sb.WriteString("{}")
		return
	}
	pad := strings.Repeat(Indent, depth+1)
	sb.WriteString("{\n")
	for i, col := range cols {
		sb.WriteString(pad + st.ColumnText(c, col))
		if i < len(cols)-1 {
			sb.WriteString(",")
		}
		sb.WriteString("\n")
	}
	sb.WriteString(strings.Repeat(Indent, depth) + "}")
}

// ColumnText is name : value, and with Timestamps the column's timestamp after it, as a
// comment: name : value /* timestamp 1270000000000000 */.
func (st Style) ColumnText(c engine.Comparator, col engine.Column) string {
	s := Name(c, col.Name) + " : " + Value(col.Value)
	if st.Timestamps {
		s += " /* timestamp " + strconv.FormatInt(col.Timestamp, 10) + " */"
	}
	return s
}

// JSONBytes is a name or value as JSON: a string when it is valid UTF-8, else {"hex": "..."};
// never lossy.
func JSONBytes(b []byte) any {
	if utf8.Valid(b) {
		return string(b)
	}
	return map[string]string{"hex": hex.EncodeToString(b)}
}

// JSONName is a column name as JSON under comparator c: LongType as a number, the UUID types as
// UUID text, others as JSONBytes.
func JSONName(c engine.Comparator, b []byte) any {
	switch c {
	case engine.LongType:
		if len(b) == 8 {
			return int64(binary.BigEndian.Uint64(b))
		}
	case engine.LexicalUUIDType, engine.TimeUUIDType:
		if u, err := uuid.FromBytes(b); err == nil {
			return u.String()
		}
	}
	return JSONBytes(b)
}

// JSONColumn is one column of a JSON row.
type JSONColumn struct {
	Name      any          `json:"name"`
	Value     any          `json:"value,omitempty"`
	Timestamp *int64       `json:"timestamp,omitempty"`
	Columns   []JSONColumn `json:"columns,omitempty"`
}

// JSONRow is one row of a column family as a JSON line.
type JSONRow struct {
	Keyspace string       `json:"keyspace"`
	CF       string       `json:"cf"`
	Key      string       `json:"key"`
	Columns  []JSONColumn `json:"columns"`
}

// ToJSON converts a row; withTimestamps adds each column's write timestamp.
func ToJSON(keyspace string, cf *engine.ColumnFamilyDef, r Row, withTimestamps bool) JSONRow {
	out := JSONRow{Keyspace: keyspace, CF: cf.Name, Key: r.Key, Columns: make([]JSONColumn, 0, len(r.Columns))}
	col := func(c engine.Comparator, col engine.Column) JSONColumn {
		jc := JSONColumn{Name: JSONName(c, col.Name), Value: JSONBytes(col.Value)}
		if withTimestamps {
			ts := col.Timestamp
			jc.Timestamp = &ts
		}
		return jc
	}
	for _, c := range r.Columns {
		if c.SuperColumn != nil {
			sc := JSONColumn{Name: JSONName(cf.CompareWith, c.SuperColumn.Name), Columns: make([]JSONColumn, 0, len(c.SuperColumn.Columns))}
			for _, sub := range c.SuperColumn.Columns {
				sc.Columns = append(sc.Columns, col(cf.CompareSubcolumnsWith, sub))
			}
			out.Columns = append(out.Columns, sc)
			continue
		}
		out.Columns = append(out.Columns, col(cf.CompareWith, *c.Column))
	}
	return out
}
