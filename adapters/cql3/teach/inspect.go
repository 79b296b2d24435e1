package teach

import (
	"context"
	"encoding/hex"
	"fmt"
	"net"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/gocql/gocql"
	"github.com/google/uuid"

	"twissandra/adapters/cql3"
	"twissandra/domain"
	"twissandra/ports/teaching"
)

// The storage inspector's reader: any partition of any table of the Store's keyspace, read as
// CQL rows with a slice of the first clustering column, for the teaching views that show a
// partition beside the wide row it used to be (teaching.CQLInspector). Secrets are hidden here,
// where the values are still typed: a page never receives a password hash or an email.

// The inspector's types are the ports' own.
type (
	InspectColumn  = teaching.CQLColumn
	InspectTable   = teaching.CQLTable
	PartitionSlice = teaching.Slice
	PartitionCell  = teaching.CQLCell
)

// MaxPartitionSlice bounds PartitionSlice.Count.
const MaxPartitionSlice = 1000

// InspectTables describes every table of the Store's keyspace, sorted by name, from
// system_schema.
func (s *Store) InspectTables(ctx context.Context) ([]InspectTable, error) {
	tables, err := s.store.SchemaTables(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]InspectTable, len(tables))
	for i, t := range tables {
		out[i] = inspectTable(t)
	}
	return out, nil
}

// findTable finds name among the keyspace's tables; an unknown name is domain.ErrNotFound.
func (s *Store) findTable(ctx context.Context, name string) (InspectTable, error) {
	t, err := s.store.SchemaTable(ctx, name)
	if err != nil {
		return InspectTable{}, err
	}
	return inspectTable(t), nil
}

func inspectTable(t cql3.SchemaTable) InspectTable {
	cols := func(in []cql3.SchemaColumn) []InspectColumn {
		if in == nil {
			return nil
		}
		out := make([]InspectColumn, len(in))
		for i, c := range in {
			out[i] = InspectColumn(c)
		}
		return out
	}
	return InspectTable{Keyspace: t.Keyspace, Name: t.Name, PartitionKey: cols(t.PartitionKey), Clustering: cols(t.Clustering),
		Static: cols(t.Static), Regular: cols(t.Regular)}
}

// ReadPartition reads the rows of one partition of table: key holds the partition key's
// values as text, one per partition key column (a timeuuid as its UUID, a date as
// 2006-01-02, a timestamp in RFC 3339, a blob as 0x hex). opts slices the first clustering
// column; its bounds are typed like keys, and a timeuuid bound may also be a time in RFC 3339
// (the first or last timeuuid of its microsecond, whichever includes it).
//
// Table and column names go into the statement's text, as names cannot be bind markers: the
// table must be one of InspectTables, and every column name comes from system_schema. Every
// value is a bound parameter. Bad input is domain.ErrInvalid, an unknown table
// domain.ErrNotFound.
func (s *Store) ReadPartition(ctx context.Context, table string, key []string, opts PartitionSlice) ([][]PartitionCell, error) {
	if opts.Count < 1 || opts.Count > MaxPartitionSlice {
		return nil, domain.Invalid("count", "must be from 1 to %d, not %d", MaxPartitionSlice, opts.Count)
	}
	if err := refusePrivate(table); err != nil {
		return nil, err
	}
	t, err := s.findTable(ctx, table)
	if err != nil {
		return nil, err
	}
	stmt, args, err := partitionQuery(t, key, opts)
	if err != nil {
		return nil, err
	}
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	q := sess.ContextQuery(ctx, stmt, nil).Bind(args...)
	q.PageSize(opts.Count)
	iter := q.Query.Iter()
	defer q.Release()
	cols := iter.Columns()
	dest := make([]any, len(cols))
	for i, c := range cols {
		dest[i] = scanDest(c.TypeInfo)
	}
	// The columns are the table's, then the WRITETIME and TTL of some: those go into the cells.
	cells := len(cols)
	for i, c := range cols {
		if strings.HasPrefix(c.Name, "writetime(") {
			cells = i
			break
		}
	}
	var rows [][]PartitionCell
	for len(rows) < opts.Count && iter.Scan(dest...) {
		row := make([]PartitionCell, cells)
		for i, c := range cols {
			p := reflect.ValueOf(dest[i]).Elem()
			if i >= cells {
				if !p.IsNil() {
					meta, name, _ := strings.Cut(strings.TrimSuffix(c.Name, ")"), "(")
					if j := slices.IndexFunc(row, func(pc PartitionCell) bool { return pc.Name == name }); j >= 0 {
						n := reflect.ValueOf(p.Elem().Interface()).Convert(reflect.TypeFor[int64]()).Int()
						if meta == "writetime" {
							row[j].Timestamp = n
						} else {
							row[j].TTL = int(n)
						}
					}
				}
				p.SetZero()
				continue
			}
			row[i].Name = c.Name
			if p.IsNil() {
				row[i].Value, row[i].Null = "null", true
			} else {
				row[i].Value = renderShown(c.Name, c.TypeInfo, p.Elem())
			}
			p.SetZero()
		}
		rows = append(rows, row)
	}
	if err := iter.Close(); err != nil {
		return nil, wrap("read partition of "+table, err)
	}
	return rows, nil
}

// PartitionKeys lists up to limit partition keys of table (SELECT DISTINCT, in token order),
// each as the text values ReadPartition takes.
func (s *Store) PartitionKeys(ctx context.Context, table string, limit int) ([][]string, error) {
	if limit < 1 || limit > MaxPartitionSlice {
		return nil, domain.Invalid("limit", "must be from 1 to %d, not %d", MaxPartitionSlice, limit)
	}
	if err := refusePrivate(table); err != nil {
		return nil, err
	}
	t, err := s.findTable(ctx, table)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(t.PartitionKey))
	for i, c := range t.PartitionKey {
		names[i] = quoteIdent(c.Name)
	}
	stmt := fmt.Sprintf("SELECT DISTINCT %s FROM %s.%s LIMIT ?", strings.Join(names, ", "), t.Keyspace, quoteIdent(t.Name))
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	q := sess.ContextQuery(ctx, stmt, nil).Bind(limit)
	defer q.Release()
	iter := q.Query.Iter()
	cols := iter.Columns()
	dest := make([]any, len(cols))
	for i, c := range cols {
		dest[i] = scanDest(c.TypeInfo)
	}
	var out [][]string
	for iter.Scan(dest...) {
		key := make([]string, len(cols))
		for i, c := range cols {
			p := reflect.ValueOf(dest[i]).Elem()
			if !p.IsNil() {
				key[i] = keyText(c.TypeInfo, p.Elem())
			}
			p.SetZero()
		}
		out = append(out, key)
	}
	if err := iter.Close(); err != nil {
		return nil, wrap("list partition keys of "+table, err)
	}
	return out, nil
}

// partitionQuery builds the SELECT of ReadPartition and its bound values.
func partitionQuery(t InspectTable, key []string, opts PartitionSlice) (string, []any, error) {
	if len(key) != len(t.PartitionKey) {
		return "", nil, domain.Invalid("key", "table %s has %d partition key column(s) (%s), got %d value(s)",
			t.Name, len(t.PartitionKey), columnNames(t.PartitionKey), len(key))
	}
	var (
		where []string
		args  []any
	)
	for i, c := range t.PartitionKey {
		v, err := parseCQLValue(c.Type, key[i])
		if err != nil {
			return "", nil, domain.Invalid(c.Name, "%s", err)
		}
		where = append(where, quoteIdent(c.Name)+" = ?")
		args = append(args, v)
	}
	order := ""
	if len(t.Clustering) == 0 {
		if opts.Start != "" || opts.Finish != "" {
			return "", nil, domain.Invalid("start", "table %s has no clustering column: a partition is one row, and start and finish do not apply", t.Name)
		}
	} else {
		ck := t.Clustering[0]
		desc := ck.Desc != opts.Reversed // the order the rows come back in
		lowName, lowText, highName, highText := "start", opts.Start, "finish", opts.Finish
		if desc {
			lowName, lowText, highName, highText = highName, highText, lowName, lowText
		}
		if lowText != "" {
			v, err := parseBound(ck.Type, lowText, false)
			if err != nil {
				return "", nil, domain.Invalid(lowName, "%s", err)
			}
			where = append(where, quoteIdent(ck.Name)+" >= ?")
			args = append(args, v)
		}
		if highText != "" {
			v, err := parseBound(ck.Type, highText, true)
			if err != nil {
				return "", nil, domain.Invalid(highName, "%s", err)
			}
			where = append(where, quoteIdent(ck.Name)+" <= ?")
			args = append(args, v)
		}
		dir := "ASC"
		if desc {
			dir = "DESC"
		}
		order = " ORDER BY " + quoteIdent(ck.Name) + " " + dir
	}
	// The keyspace passed Config's pattern; the table and column names come from system_schema.
	// Every cell's timestamp and TTL beside it: the triple (name, value, timestamp) of the seeds.
	// A non-frozen collection or user type has one per element or field (multiCell), which
	// WRITETIME cannot return as one value (Cassandra 5.0 returns a list of them).
	// CQL has no "*, more": the columns are listed, in the order SELECT * gives them.
	var sel, meta []string
	for _, cols := range [][]InspectColumn{t.PartitionKey, t.Clustering, t.Static, t.Regular} {
		for _, c := range cols {
			sel = append(sel, quoteIdent(c.Name))
		}
	}
	for _, c := range append(append([]InspectColumn(nil), t.Static...), t.Regular...) {
		if !multiCell(c.Type) {
			meta = append(meta, "WRITETIME("+quoteIdent(c.Name)+")", "TTL("+quoteIdent(c.Name)+")")
		}
	}
	sel = append(sel, meta...)
	stmt := fmt.Sprintf("SELECT %s FROM %s.%s WHERE %s%s LIMIT ?", strings.Join(sel, ", "), t.Keyspace, quoteIdent(t.Name), strings.Join(where, " AND "), order)
	return stmt, append(args, opts.Count), nil
}

// isCollection reports whether a CQL type is a multi-cell collection (a frozen one is one cell).
func isCollection(typ string) bool {
	return strings.HasPrefix(typ, "map<") || strings.HasPrefix(typ, "set<") || strings.HasPrefix(typ, "list<")
}

// nativeTypes are CQL's types that are one cell whatever their value.
var nativeTypes = map[string]bool{"ascii": true, "bigint": true, "blob": true, "boolean": true, "counter": true, "date": true,
	"decimal": true, "double": true, "duration": true, "float": true, "inet": true, "int": true, "smallint": true, "text": true,
	"time": true, "timestamp": true, "timeuuid": true, "tinyint": true, "uuid": true, "varchar": true, "varint": true}

// multiCell reports whether a column of type typ, as system_schema spells it, stores a cell per
// element or field: a collection or a user type that is not frozen (system_schema names a
// non-frozen user type by its name alone; a frozen value, a tuple or a vector is one cell).
func multiCell(typ string) bool {
	if isCollection(typ) {
		return true
	}
	return !strings.Contains(typ, "<") && !nativeTypes[typ]
}

func columnNames(cols []InspectColumn) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// quoteIdent quotes a CQL name, so that a name from the schema reads back exactly.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// parseBound is parseCQLValue, plus times for timeuuid bounds: the first timeuuid of the
// microsecond for a low bound, the last for a high one, so that the bound includes it.
func parseBound(typ, s string, high bool) (any, error) {
	if typ != "timeuuid" {
		return parseCQLValue(typ, s)
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		if _, uerr := uuid.Parse(s); uerr != nil {
			return nil, fmt.Errorf("%q is neither a timeuuid nor a time like 2010-05-12T09:20:00Z", s)
		}
		return parseCQLValue(typ, s)
	}
	if high {
		return gu(cql3.MaxTimeUUID(t.UnixMicro())), nil
	}
	return gu(cql3.MinTimeUUID(t.UnixMicro())), nil
}

// parseCQLValue reads text as a value of the CQL type typ, for binding.
func parseCQLValue(typ, s string) (any, error) {
	switch typ {
	case "text", "varchar":
		return s, nil
	case "ascii":
		for _, r := range s {
			if r > unicode.MaxASCII {
				return nil, fmt.Errorf("%q is not ASCII", s)
			}
		}
		return s, nil
	case "uuid", "timeuuid":
		u, err := uuid.Parse(s)
		if err != nil || len(s) != 36 {
			return nil, fmt.Errorf("%q is not a %s (want one like 6ba7b810-9dad-11d1-80b4-00c04fd430c8)", s, typ)
		}
		if typ == "timeuuid" && u.Version() != 1 {
			return nil, fmt.Errorf("%s is a version %d UUID, and a timeuuid is version 1", s, u.Version())
		}
		return gu(u), nil
	case "date":
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return nil, fmt.Errorf("%q is not a date like 2010-05-12", s)
		}
		return d, nil
	case "timestamp":
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			return t, nil
		}
		ms, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a time like 2010-05-12T09:20:00Z or milliseconds since 1970", s)
		}
		return time.UnixMilli(ms), nil
	case "bigint", "counter", "int", "smallint", "tinyint":
		bits := map[string]int{"bigint": 64, "counter": 64, "int": 32, "smallint": 16, "tinyint": 8}[typ]
		n, err := strconv.ParseInt(s, 10, bits)
		if err != nil {
			return nil, fmt.Errorf("%q is not a %d-bit integer (%s)", s, bits, typ)
		}
		return n, nil
	case "boolean":
		b, err := strconv.ParseBool(s)
		if err != nil {
			return nil, fmt.Errorf("%q is not true or false", s)
		}
		return b, nil
	case "double", "float":
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", s)
		}
		if typ == "float" {
			return float32(f), nil
		}
		return f, nil
	case "blob":
		h, ok := strings.CutPrefix(s, "0x")
		b, err := hex.DecodeString(h)
		if !ok || err != nil {
			return nil, fmt.Errorf("%q is not a blob written 0x and hex digits", s)
		}
		return b, nil
	case "inet":
		ip := net.ParseIP(s)
		if ip == nil {
			return nil, fmt.Errorf("%q is not an IP address", s)
		}
		return ip, nil
	}
	return nil, fmt.Errorf("values of type %s cannot be typed in here", typ)
}

// scanDest is where a column of type ti scans: a pointer to a pointer of its Go type, so that
// null reads as nil. A type the driver has no Go type for scans as its bytes.
func scanDest(ti gocql.TypeInfo) any {
	v, err := ti.NewWithError()
	if err != nil {
		v = new([]byte)
	}
	return reflect.New(reflect.TypeOf(v)).Interface()
}

// keyText renders a key value as the text parseCQLValue reads back.
func keyText(ti gocql.TypeInfo, v reflect.Value) string {
	switch x := v.Interface().(type) {
	case string:
		return x
	case time.Time:
		if ti.Type() == gocql.TypeDate {
			return x.UTC().Format(time.DateOnly)
		}
		return x.UTC().Format(time.RFC3339Nano)
	}
	return renderValue(ti, v)
}

// renderShown renders the value of column name as renderValue does, a secret (a password hash,
// an email, an email among a map's entries) as what it is (domain.RedactColumn).
func renderShown(name string, ti gocql.TypeInfo, v reflect.Value) string {
	if raw, ok := rawBytes(v); ok {
		if shown, ok := domain.RedactColumn(name, raw); ok {
			return shown
		}
	}
	if ti.Type() == gocql.TypeMap && v.Kind() == reflect.Map && v.Type().Key().Kind() == reflect.String && !v.IsNil() {
		hidden := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			val := it.Value()
			if raw, ok := rawBytes(val); ok {
				if shown, ok := domain.RedactColumn(it.Key().String(), raw); ok && val.Kind() == reflect.String {
					val = reflect.ValueOf(shown).Convert(val.Type())
				}
			}
			hidden.SetMapIndex(it.Key(), val)
		}
		v = hidden
	}
	return renderValue(ti, v)
}

// rawBytes is the bytes of a text or blob value.
func rawBytes(v reflect.Value) ([]byte, bool) {
	switch x := v.Interface().(type) {
	case string:
		return []byte(x), true
	case []byte:
		return x, true
	}
	return nil, false
}

// renderValue renders a value of type ti in CQL's literal syntax (timestamps in RFC 3339).
func renderValue(ti gocql.TypeInfo, v reflect.Value) string {
	if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Map || v.Kind() == reflect.Slice) && v.IsNil() &&
		ti.Type() != gocql.TypeBlob {
		if ti.Type() == gocql.TypeSet || ti.Type() == gocql.TypeMap {
			return "{}"
		}
		if ti.Type() == gocql.TypeList {
			return "[]"
		}
		return "null"
	}
	switch ti.Type() {
	case gocql.TypeList, gocql.TypeSet:
		ct, ok := ti.(gocql.CollectionType)
		if !ok || v.Kind() != reflect.Slice {
			break
		}
		parts := make([]string, v.Len())
		for i := range parts {
			parts[i] = renderValue(ct.Elem, v.Index(i))
		}
		if ti.Type() == gocql.TypeList {
			return "[" + strings.Join(parts, ", ") + "]"
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case gocql.TypeMap:
		ct, ok := ti.(gocql.CollectionType)
		if !ok || v.Kind() != reflect.Map {
			break
		}
		type kv struct{ k, v string }
		entries := make([]kv, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			entries = append(entries, kv{renderValue(ct.Key, it.Key()), renderValue(ct.Elem, it.Value())})
		}
		slices.SortFunc(entries, func(a, b kv) int { return strings.Compare(a.k, b.k) })
		parts := make([]string, len(entries))
		for i, e := range entries {
			parts[i] = e.k + ": " + e.v
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case gocql.TypeUDT:
		// A user type's value, its fields in the type's order: {street: 'x', zip: 'y'}.
		ut, ok := ti.(gocql.UDTTypeInfo)
		if !ok || v.Kind() != reflect.Map || v.Type().Key().Kind() != reflect.String {
			break
		}
		parts := make([]string, len(ut.Elements))
		for i, f := range ut.Elements {
			fv := v.MapIndex(reflect.ValueOf(f.Name).Convert(v.Type().Key()))
			if !fv.IsValid() || ((fv.Kind() == reflect.Interface || fv.Kind() == reflect.Pointer) && fv.IsNil()) {
				parts[i] = f.Name + ": null"
				continue
			}
			if fv.Kind() == reflect.Interface {
				fv = fv.Elem()
			}
			parts[i] = f.Name + ": " + renderValue(f.Type, fv)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	switch x := v.Interface().(type) {
	case string:
		return quoteText(x)
	case []byte:
		return "0x" + hex.EncodeToString(x)
	case gocql.UUID:
		return x.String()
	case time.Time:
		if ti.Type() == gocql.TypeDate {
			return x.UTC().Format(time.DateOnly)
		}
		return x.UTC().Format(time.RFC3339Nano)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v.Interface())
}

// quoteText writes text as a CQL string literal: single quotes, a quote doubled. Characters
// that do not print are shown as Go escapes, so the rendering stays one readable line.
func quoteText(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch {
		case r == '\'':
			b.WriteString("''")
		case unicode.IsPrint(r) || r == ' ':
			b.WriteRune(r)
		default:
			b.WriteString(strings.Trim(strconv.QuoteRune(r), "'"))
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// privateTables hold who tried to log in and from which address (login_attempts), the sessions
// ended (ended_sessions) and what each learner did in the course (course_progress, class_members,
// class_activity): a teaching
// view names them, and shows none of their rows. Each says what it holds and its migration.
var privateTables = map[string][2]string{
	"login_attempts":  {"who tried to log in and from which address", "006"},
	"ended_sessions":  {"the sessions that were logged out", "006"},
	"course_progress": {"each learner's lessons visited and exercises passed", "008"},
	"class_members":   {"the accounts made for each class", "009"},
	"class_activity":  {"each learner's last action and console statements", "009"},
}

// internalTables are the migrations' own bookkeeping, no part of the application's model.
var internalTables = map[string]bool{"gocqlx_migrate": true, "schema_lease": true}

// refusePrivate refuses to read a private table's rows.
func refusePrivate(table string) error {
	if p, ok := privateTables[table]; ok {
		return domain.Invalid("table", "%s holds %s: its rows are private, so no page shows them (migration %s defines it)", table, p[0], p[1])
	}
	return nil
}
