package models

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/web"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
)

// The storage inspector on the cql3 backend: one partition of a CQL3 table, as CQL rows and as
// the wide row it was in Cassandra 1.2-2.x (reference, section 6).

type tableChoice struct {
	Name     string
	Selected bool
}

type keyField struct {
	Name, Type, Value string
}

type cqlInspectData struct {
	Keyspace   string
	Tables     []tableChoice
	Table      string
	Def        string
	Comparator string
	KeyFields  []keyField
	User       string
	UserHelp   bool // the partition key is a username
	Start      string
	Finish     string
	Reversed   bool
	Count      int
	BoundHelp  string
	Clustering string // the first clustering column, "" when the table has none
	Error      string
	Ran        bool
	Returned   int
	CQLLines   []frame.NotationLine
	WideLines  []frame.NotationLine
	Keys       []keyLink
	KeyToken   keyToken // the inspected partition key's token
}

type keyLink struct {
	Label, Href string
	Token       string // the partition key's token, "" when unknown
}

func (h *Handler) inspectCQL(c *gin.Context) {
	ctx := c.Request.Context()
	d := cqlInspectData{Count: inspectDefaultCount, Table: c.DefaultQuery("table", "timeline")}
	d.User = strings.TrimSpace(c.Query("user"))
	d.Start, d.Finish = strings.TrimSpace(c.Query("start")), strings.TrimSpace(c.Query("finish"))
	d.Reversed = c.Query("reversed") != ""
	page := func(status int) {
		h.Site.Render(c, status, site.Page{Title: "Storage inspector", Nav: "models", Content: inspectCQLView(d)})
	}

	tables, err := h.Deps.CQL.InspectTables(ctx)
	if err != nil {
		d.Error = "Reading the schema failed: " + err.Error()
		page(StatusOf(err))
		return
	}
	var t *frame.CQLTable
	for i := range tables {
		d.Keyspace = tables[i].Keyspace
		d.Tables = append(d.Tables, tableChoice{Name: tables[i].Name, Selected: tables[i].Name == d.Table})
		if tables[i].Name == d.Table {
			t = &tables[i]
		}
	}
	if t == nil {
		d.Error = fmt.Sprintf("There is no table %q in keyspace %s.", d.Table, d.Keyspace)
		page(http.StatusBadRequest)
		return
	}
	d.Def, d.Comparator = tableDefinition(t), CompositeComparator(t)
	d.UserHelp = len(t.PartitionKey) == 1 && t.PartitionKey[0].Name == "username"
	if len(t.Clustering) > 0 {
		d.Clustering = t.Clustering[0].Name
		d.BoundHelp = cqlBoundHelp(t.Clustering[0].Type)
	}
	values := c.QueryArray("key")
	key := make([]string, len(t.PartitionKey))
	empty := true
	for i, col := range t.PartitionKey {
		if i < len(values) {
			key[i] = values[i]
		}
		empty = empty && key[i] == ""
		d.KeyFields = append(d.KeyFields, keyField{Name: col.Name, Type: col.Type, Value: key[i]})
	}
	if s := c.Query("count"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > inspectMaxCount {
			d.Error = fmt.Sprintf("Count must be a number from 1 to %d.", inspectMaxCount)
			page(http.StatusBadRequest)
			return
		}
		d.Count = n
	}
	if d.User != "" {
		if !d.UserHelp {
			d.Error = fmt.Sprintf("The partition key of %s is %s, not a username.", t.Name, columnList(t.PartitionKey))
			page(http.StatusBadRequest)
			return
		}
		key[0], d.KeyFields[0].Value, empty = d.User, d.User, false
	}
	if empty {
		keys, err := h.Deps.CQL.PartitionKeys(ctx, t.Name, inspectKeyList)
		if err != nil {
			d.Error = "Listing partition keys failed: " + err.Error()
			page(StatusOf(err))
			return
		}
		toks := h.tokensOf(c, t.Name, keys)
		for i, k := range keys {
			q := url.Values{"table": {t.Name}, "key": k}
			d.Keys = append(d.Keys, keyLink{Label: strings.Join(k, " : "), Href: "/models/inspect?" + q.Encode()})
			if toks != nil {
				d.Keys[i].Token = toks[i]
			}
		}
		page(http.StatusOK)
		return
	}
	if toks := h.tokensOf(c, t.Name, [][]string{key}); len(toks) == 1 && toks[0] != "" {
		d.KeyToken = keyToken{Token: toks[0]}
		if len(t.PartitionKey) == 1 && t.PartitionKey[0].Type == "text" { // the lesson places text keys
			d.KeyToken.Ring = tokensLessonURL(key[0])
		}
	}
	rows, err := h.Deps.CQL.ReadPartition(ctx, t.Name, key, frame.CQLSlice{Start: d.Start, Finish: d.Finish, Reversed: d.Reversed, Count: d.Count})
	if err != nil {
		status := StatusOf(err)
		if status >= http.StatusInternalServerError {
			h.Log.Error("inspect partition", "table", t.Name, "err", err)
		}
		d.Error = site.Sentence(strings.TrimPrefix(err.Error(), "cql3: "))
		page(status)
		return
	}
	d.Ran, d.Returned = true, len(rows)
	d.CQLLines = CqlNotation(t, key, rows)
	d.WideLines = WideRowNotation(t, key, rows)
	page(http.StatusOK)
}

// StatusOf maps an inspector error to the page's status: bad input 400, the storage not
// answering 503, anything else 500.
func StatusOf(err error) int {
	if errors.Is(err, domain.ErrNotFound) {
		return http.StatusBadRequest // what the form named is not there: the form's answer
	}
	return web.MapError(err).Status
}

func columnList(cols []frame.CQLColumn) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name + " (" + c.Type + ")"
	}
	return strings.Join(names, ", ")
}

// tableDefinition is the table's CREATE TABLE, one line.
func tableDefinition(t *frame.CQLTable) string {
	var cols []string
	for _, group := range [][]frame.CQLColumn{t.PartitionKey, t.Clustering, t.Static, t.Regular} {
		for _, c := range group {
			s := c.Name + " " + c.Type
			if slices.Contains(t.Static, c) {
				s += " static"
			}
			cols = append(cols, s)
		}
	}
	names := func(cs []frame.CQLColumn) []string {
		out := make([]string, len(cs))
		for i, c := range cs {
			out[i] = c.Name
		}
		return out
	}
	pk := strings.Join(names(t.PartitionKey), ", ")
	if len(t.PartitionKey) > 1 {
		pk = "(" + pk + ")"
	}
	key := append([]string{pk}, names(t.Clustering)...)
	s := fmt.Sprintf("CREATE TABLE %s.%s (%s, PRIMARY KEY (%s))", t.Keyspace, t.Name, strings.Join(cols, ", "), strings.Join(key, ", "))
	if len(t.Clustering) > 0 {
		order := make([]string, len(t.Clustering))
		for i, c := range t.Clustering {
			order[i] = c.Name + " ASC"
			if c.Desc {
				order[i] = c.Name + " DESC"
			}
		}
		s += " WITH CLUSTERING ORDER BY (" + strings.Join(order, ", ") + ")"
	}
	return s
}

// marshalTypes are the Cassandra 1.2-2.x comparator types of the CQL types.
var marshalTypes = map[string]string{
	"text": "UTF8Type", "varchar": "UTF8Type", "ascii": "AsciiType", "timeuuid": "TimeUUIDType",
	"uuid": "UUIDType", "bigint": "LongType", "int": "Int32Type", "timestamp": "TimestampType",
	"date": "SimpleDateType", "blob": "BytesType", "boolean": "BooleanType", "double": "DoubleType",
	"float": "FloatType", "inet": "InetAddressType", "varint": "IntegerType", "decimal": "DecimalType",
	"counter": "CounterColumnType", "smallint": "ShortType", "tinyint": "ByteType", "time": "TimeType",
}

func marshalType(cqlType string) string {
	if m, ok := marshalTypes[cqlType]; ok {
		return m
	}
	return "BytesType /* " + cqlType + " */"
}

// CompositeComparator is the comparator the table's wide rows had in 1.2-2.x: a CompositeType
// of the clustering columns' types (ReversedType for DESC) and UTF8Type for the CQL column name.
func CompositeComparator(t *frame.CQLTable) string {
	parts := make([]string, 0, len(t.Clustering)+1)
	for _, c := range t.Clustering {
		m := marshalType(c.Type)
		if c.Desc {
			m = "ReversedType(" + m + ")"
		}
		parts = append(parts, m)
	}
	return "CompositeType(" + strings.Join(append(parts, "UTF8Type"), ", ") + ")"
}

func cqlBoundHelp(typ string) string {
	switch typ {
	case "timeuuid":
		return "a timeuuid like 6ba7b810-9dad-11d1-80b4-00c04fd430c8, or a time like 2010-05-12T09:20:00Z"
	case "uuid":
		return "a UUID like 6ba7b810-9dad-11d1-80b4-00c04fd430c8"
	case "date":
		return "a date like 2010-05-12"
	case "timestamp":
		return "a time like 2010-05-12T09:20:00Z"
	case "bigint", "int", "smallint", "tinyint":
		return "a whole number"
	case "blob":
		return "hex bytes written 0x…"
	}
	return "text"
}

// cellNote explains a value where that helps: the time inside a timeuuid.
func cellNote(typ, value string) string {
	if typ != "timeuuid" {
		return ""
	}
	u, err := uuid.Parse(value)
	if err != nil || u.Version() != 1 {
		return ""
	}
	sec, nsec := u.Time().UnixTime()
	return time.Unix(sec, nsec).UTC().Format("2006-01-02 15:04:05.000000 UTC")
}

func columnTypes(t *frame.CQLTable) map[string]frame.CQLColumn {
	m := map[string]frame.CQLColumn{}
	for _, group := range [][]frame.CQLColumn{t.PartitionKey, t.Clustering, t.Static, t.Regular} {
		for _, c := range group {
			m[c.Name] = c
		}
	}
	return m
}

// keyLiteral shows the partition key as the rows show it.
func keyLiteral(t *frame.CQLTable, key []string, rows [][]frame.CQLCell) string {
	if len(rows) > 0 {
		parts := make([]string, 0, len(t.PartitionKey))
		for _, c := range rows[0] {
			if slices.ContainsFunc(t.PartitionKey, func(k frame.CQLColumn) bool { return k.Name == c.Name }) {
				parts = append(parts, c.Value)
			}
		}
		if len(parts) == len(t.PartitionKey) {
			if len(parts) == 1 {
				return parts[0]
			}
			return "(" + strings.Join(parts, ", ") + ")"
		}
	}
	parts := make([]string, len(key))
	for i, k := range key {
		parts[i] = k
		if i < len(t.PartitionKey) && slices.Contains([]string{"text", "varchar", "ascii"}, t.PartitionKey[i].Type) {
			parts[i] = QuoteName(k)
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// CqlNotation renders the partition's CQL rows in the seed articles' notation:
//
//	timeline = {
//	    'jericevans' /* partition key username */: [
//	        {
//	            time /* clustering, 2010-05-12 ... */: 2a3f...,
//	            tweet_id: 2b4c...,
//	        },
//	    ],
//	}
func CqlNotation(t *frame.CQLTable, key []string, rows [][]frame.CQLCell) []frame.NotationLine {
	const ind = "    "
	types := columnTypes(t)
	lines := []frame.NotationLine{{Name: t.Name + " =", Open: true}}
	lines = append(lines, frame.NotationLine{Indent: ind, Name: keyLiteral(t, key, rows), Note: "partition key " + columnNamesOf(t.PartitionKey), Open: true, List: true})
	for _, row := range rows {
		lines = append(lines, frame.NotationLine{Indent: ind + ind, Open: true})
		for _, c := range row {
			col := types[c.Name]
			note := cellNote(col.Type, c.Value)
			switch {
			case slices.Contains(t.PartitionKey, col):
				continue // it is the partition's key, above
			case slices.Contains(t.Clustering, col):
				note = strings.TrimSuffix("clustering, "+note, ", ")
			case slices.Contains(t.Static, col):
				note = strings.TrimSuffix("static, "+note, ", ")
			}
			l := frame.NotationLine{Indent: ind + ind + ind, Name: c.Name, Note: note, Value: c.Value, TS: cellTS(c)}
			l.NameHref, l.ValueHref = frame.UuidLinks(t.Name, c.Name, l.Value)
			lines = append(lines, l)
		}
		lines = append(lines, frame.NotationLine{Indent: ind + ind, Close: true})
	}
	lines = append(lines, frame.NotationLine{Indent: ind, Close: true, List: true})
	return append(lines, frame.NotationLine{Close: true})
}

func columnNamesOf(cols []frame.CQLColumn) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return strings.Join(names, ", ")
}

// WideRowNotation renders the partition as the one wide row it was in Cassandra 1.2-2.x: the
// row key is the partition key; each CQL row is a group of cells named by its clustering values
// (composite cell names [clustering:column]): a row marker, whose column name is empty, and one
// cell per regular column that is not null.
func WideRowNotation(t *frame.CQLTable, key []string, rows [][]frame.CQLCell) []frame.NotationLine {
	const ind = "    "
	types := columnTypes(t)
	lines := []frame.NotationLine{{Name: t.Name + " =", Note: CompositeComparator(t), Open: true}}
	lines = append(lines, frame.NotationLine{Indent: ind, Name: keyLiteral(t, key, rows), Note: "row key", Open: true})
	staticsDone := false
	for _, row := range rows {
		var prefix, notes []string
		cells := []frame.NotationLine{}
		for _, c := range row {
			col := types[c.Name]
			switch {
			case slices.Contains(t.PartitionKey, col):
			case slices.Contains(t.Clustering, col):
				prefix = append(prefix, c.Value)
				if n := cellNote(col.Type, c.Value); n != "" {
					notes = append(notes, c.Name+", "+n)
				} else {
					notes = append(notes, c.Name)
				}
			case slices.Contains(t.Static, col):
				if !staticsDone && !c.Null {
					lines = append(lines, frame.NotationLine{Indent: ind + ind, Name: QuoteName(c.Name), Note: "static: one cell per partition", Value: c.Value, TS: cellTS(c)})
				}
			default:
				if !c.Null {
					cells = append(cells, frame.NotationLine{Name: QuoteName(c.Name), Value: c.Value, Note: collectionNote(col), TS: cellTS(c)})
				}
			}
		}
		staticsDone = true
		if len(t.Clustering) == 0 {
			lines = append(lines, frame.NotationLine{Indent: ind + ind, Name: "''", Note: "row marker", Value: "''"})
			for _, cl := range cells {
				cl.Indent = ind + ind
				lines = append(lines, cl)
			}
			continue
		}
		lines = append(lines, frame.NotationLine{Indent: ind + ind, Name: strings.Join(prefix, ":"), Note: strings.Join(notes, "; "), Open: true})
		lines = append(lines, frame.NotationLine{Indent: ind + ind + ind, Name: "''", Note: "row marker, the cell [" + columnNamesOf(t.Clustering) + ":'']", Value: "''"})
		for _, cl := range cells {
			cl.Indent = ind + ind + ind
			if cl.Note == "" {
				cl.Note = "the cell [" + columnNamesOf(t.Clustering) + ":" + cl.Name + "]"
			}
			lines = append(lines, cl)
		}
		lines = append(lines, frame.NotationLine{Indent: ind + ind, Close: true})
	}
	lines = append(lines, frame.NotationLine{Indent: ind, Close: true})
	return append(lines, frame.NotationLine{Close: true})
}

// QuoteName writes a column name as a UTF8Type cell name component.
func QuoteName(name string) string { return "'" + strings.ReplaceAll(name, "'", "''") + "'" }

func collectionNote(c frame.CQLColumn) string {
	switch {
	case strings.HasPrefix(c.Type, "map<"):
		return "a map: one cell per entry, named [" + c.Name + ":key]"
	case strings.HasPrefix(c.Type, "set<"):
		return "a set: one cell per element, named [" + c.Name + ":element], its value empty"
	case strings.HasPrefix(c.Type, "list<"):
		return "a list: one cell per element, named [" + c.Name + ":timeuuid]"
	}
	return ""
}

// cellTS is a cell's timestamp and TTL as a note: every cell of CQL3 is still a name, a value
// and a timestamp, as in 0.6, and may carry a TTL.
func cellTS(c frame.CQLCell) string {
	if c.Timestamp == 0 {
		return ""
	}
	s := frame.TimestampNote(c.Timestamp)
	if c.TTL > 0 {
		s += fmt.Sprintf(", TTL %d s left", c.TTL)
	}
	return s
}
