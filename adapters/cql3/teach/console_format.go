package teach

import (
	"encoding/hex"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gocql/gocql"
)

// The CQL console's output, as cqlsh (Cassandra 5.0's pylib/cqlshlib) prints it: a result's
// header left-justified and its values right-justified, columns separated by " | ", a line of
// dashes under the header, then "(N rows)"; values formatted as its formatting.py does (text
// bare, text in a collection quoted, booleans True and False, timestamps with microseconds and
// the zone, blobs in hex, floats with 5 significant digits and doubles with 12).

// cqlshTable prints a header and rows as cqlsh's print_formatted_result does on a terminal.
func cqlshTable(b *strings.Builder, names []string, rows [][]string) {
	widths := make([]int, len(names))
	for i, n := range names {
		widths[i] = utf8.RuneCountInString(n)
	}
	for _, r := range rows {
		for i, v := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(v))
		}
	}
	var hdr []string
	for i, n := range names {
		hdr = append(hdr, n+strings.Repeat(" ", widths[i]-utf8.RuneCountInString(n)))
	}
	b.WriteString(strings.TrimRight(" "+strings.Join(hdr, " | "), " ") + "\n")
	var dashes []string
	for _, w := range widths {
		dashes = append(dashes, strings.Repeat("-", w))
	}
	b.WriteString("-" + strings.Join(dashes, "-+-") + "-\n")
	for _, r := range rows {
		var cells []string
		for i, v := range r {
			cells = append(cells, strings.Repeat(" ", widths[i]-utf8.RuneCountInString(v))+v)
		}
		b.WriteString(" " + strings.Join(cells, " | ") + "\n")
	}
	b.WriteString("\n")
}

// scanTargets makes a destination per column that tells a null from a value (a pointer to a
// pointer of the column's Go type, which the driver leaves nil for a null).
func scanTargets(cols []gocql.ColumnInfo) ([]any, error) {
	out := make([]any, len(cols))
	for i, c := range cols {
		v, err := c.TypeInfo.NewWithError()
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", c.Name, err)
		}
		out[i] = reflect.New(reflect.TypeOf(v)).Interface()
	}
	return out, nil
}

// cqlshValue formats a scanned destination of scanTargets.
func cqlshValue(ti gocql.TypeInfo, dest any) string {
	v := reflect.ValueOf(dest).Elem()
	if v.IsNil() {
		return "null"
	}
	return formatCQL(ti, v.Elem(), false)
}

// formatCQL formats a value of type ti; nested says it is inside a collection or a tuple,
// where cqlsh quotes text.
func formatCQL(ti gocql.TypeInfo, v reflect.Value, nested bool) string {
	if v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return "null"
		}
		return formatCQL(ti, v.Elem(), nested)
	}
	switch ti.Type() {
	case gocql.TypeVarchar, gocql.TypeText, gocql.TypeAscii:
		if nested {
			return "'" + strings.ReplaceAll(v.String(), "'", "''") + "'"
		}
		return v.String()
	case gocql.TypeInet:
		if nested {
			return "'" + fmt.Sprint(v.Interface()) + "'"
		}
		return fmt.Sprint(v.Interface())
	case gocql.TypeBoolean:
		if v.Bool() {
			return "True"
		}
		return "False"
	case gocql.TypeFloat:
		return strconv.FormatFloat(v.Float(), 'g', 5, 32)
	case gocql.TypeDouble:
		return strconv.FormatFloat(v.Float(), 'g', 12, 64)
	case gocql.TypeTimestamp:
		t := v.Interface().(time.Time)
		return t.UTC().Format("2006-01-02 15:04:05.000000-0700")
	case gocql.TypeDate:
		return v.Interface().(time.Time).UTC().Format(time.DateOnly)
	case gocql.TypeTime:
		d := v.Interface().(time.Duration)
		return fmt.Sprintf("%02d:%02d:%02d.%09d", int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60, d%time.Second)
	case gocql.TypeBlob:
		return "0x" + hex.EncodeToString(v.Bytes())
	case gocql.TypeDecimal, gocql.TypeVarint: // *inf.Dec, *big.Int: their String
		if v.CanAddr() {
			return fmt.Sprint(v.Addr().Interface())
		}
	case gocql.TypeList, gocql.TypeSet:
		ct := ti.(gocql.CollectionType)
		var parts []string
		for i := range v.Len() {
			parts = append(parts, formatCQL(ct.Elem, v.Index(i), true))
		}
		if ti.Type() == gocql.TypeList {
			return "[" + strings.Join(parts, ", ") + "]"
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case gocql.TypeMap:
		ct := ti.(gocql.CollectionType)
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return compareKeys(a, b) })
		var parts []string
		for _, k := range keys {
			parts = append(parts, formatCQL(ct.Key, k, true)+": "+formatCQL(ct.Elem, v.MapIndex(k), true))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case gocql.TypeTuple:
		tt := ti.(gocql.TupleTypeInfo)
		var parts []string
		for i := range min(v.Len(), len(tt.Elems)) {
			parts = append(parts, formatCQL(tt.Elems[i], v.Index(i), true))
		}
		return "(" + strings.Join(parts, ", ") + ")"
	case gocql.TypeDuration:
		if d, ok := v.Interface().(gocql.Duration); ok {
			return formatDuration(d)
		}
	}
	return fmt.Sprint(v.Interface())
}

// compareKeys orders a map's keys as Cassandra does for the types a console's map keys have:
// numbers by value, the rest by their text.
func compareKeys(a, b reflect.Value) int {
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return int(min(max(a.Int()-b.Int(), -1), 1))
	case reflect.Float32, reflect.Float64:
		return int(min(max(a.Float()-b.Float(), -1), 1))
	}
	return strings.Compare(fmt.Sprint(a.Interface()), fmt.Sprint(b.Interface()))
}

// formatDuration writes a duration as CQL's literal (1mo2d3h4m5s).
func formatDuration(d gocql.Duration) string {
	var b strings.Builder
	if d.Months < 0 || d.Days < 0 || d.Nanoseconds < 0 {
		b.WriteByte('-')
	}
	abs := func(x int64) int64 { return max(x, -x) }
	if m := abs(int64(d.Months)); m > 0 {
		if m/12 > 0 {
			fmt.Fprintf(&b, "%dy", m/12)
		}
		if m%12 > 0 {
			fmt.Fprintf(&b, "%dmo", m%12)
		}
	}
	if x := abs(int64(d.Days)); x > 0 {
		fmt.Fprintf(&b, "%dd", x)
	}
	ns := abs(d.Nanoseconds)
	for _, u := range []struct {
		n    int64
		name string
	}{{int64(time.Hour), "h"}, {int64(time.Minute), "m"}, {int64(time.Second), "s"}, {int64(time.Millisecond), "ms"}, {int64(time.Microsecond), "us"}, {1, "ns"}} {
		if ns >= u.n {
			fmt.Fprintf(&b, "%d%s", ns/u.n, u.name)
			ns %= u.n
		}
	}
	if b.Len() == 0 || b.String() == "-" {
		return "0s"
	}
	return b.String()
}
