package pages

import (
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
)

//go:embed schema/equivalent.cql
var equivalentCQL string

// mapping is one column family and the CQL3 table that holds the same data.
type mapping struct {
	Keyspace, CF, Comparator, RowKey, Columns string
	Table, Explain                            string
}

// mappings follow the reference's section 6: how CQL3 tables sat on the same storage.
var mappings = []mapping{
	{"Twissandra", "User", "UTF8Type", "user UUID", "id, username, password, created_at",
		"users (username PRIMARY KEY, id, password, created_at)",
		"A static column family: every row has the same few named columns. CQL3 declares them as typed columns; on disk each is still one cell of the row, named by the column's name."},
	{"Twissandra", "Username", "BytesType", "username", "id → user UUID",
		"(none: users is keyed by username)",
		"The hand-made inverted index of seed 001: 0.6 had no secondary indexes. Keying users by username makes it unnecessary; keeping UUID keys would need a second table written beside the first."},
	{"Twissandra", "Friends", "BytesType", "user UUID", "friend UUID → since",
		"friends (username, friend, since, PRIMARY KEY (username, friend))",
		"A dynamic wide row, one column per friend. The column name becomes the clustering column friend, the value the regular column since; in 1.2–2.x each CQL row was the composite cells [friend:\"\"] (the row marker) and [friend:\"since\"]."},
	{"Twissandra", "Followers", "BytesType", "user UUID", "follower UUID → since",
		"followers (username, follower, since, PRIMARY KEY (username, follower))",
		"The other side of each follow, written in the same batch: denormalised, since there are no joins."},
	{"Twissandra", "Tweet", "UTF8Type", "tweet UUID", "id, user_id, body, _ts",
		"tweets (tweet_id PRIMARY KEY, username, body, created_at)",
		"Static again: one row per tweet, fetched many at a time with multiget_slice (CQL: SELECT … WHERE tweet_id IN (…) or concurrent single-partition reads)."},
	{"Twissandra", "Userline", "LongType", "user UUID, or !PUBLIC!", "time (8-byte μs) → tweet UUID",
		"userline (username, time, tweet_id, PRIMARY KEY (username, time)) WITH CLUSTERING ORDER BY (time DESC)",
		"The comparator becomes the clustering column's type; DESC wraps it in ReversedType. WITH COMPACT STORAGE and one clustering column this table is exactly the 0.6 column family: the comparator is the clustering type and tweet_id is the cell value. The public line is the !PUBLIC! row / partition."},
	{"Twissandra", "Timeline", "LongType", "user UUID", "time (8-byte μs) → tweet UUID",
		"timeline (username, time, tweet_id, PRIMARY KEY (username, time)) WITH CLUSTERING ORDER BY (time DESC)",
		"The home timeline, materialised by fan-out on write. The time shared with the userline is what makes unfollow cleanup exact."},
	{"BloggyAppy", "Authors", "BytesType", "author name", "one column per profile attribute, numPosts",
		"authors (name PRIMARY KEY, profile map<text,text>, posts)",
		"Free-form columns become a map collection; CQL3 stores each map entry as one cell named profile:key, much like the 0.6 columns."},
	{"BloggyAppy", "BlogEntries", "BytesType", "slug", "title, body, author, tags, pubDate, slug, id",
		"blog_entries (slug PRIMARY KEY, id, title, body, author, tags set<text>, published_at)",
		"The comma-separated tags column becomes a set<text>."},
	{"BloggyAppy", "TaggedPosts", "TimeUUIDType", "tag, or __notag__", "entry TimeUUID → slug",
		"tagged_posts (tag, id, slug, PRIMARY KEY (tag, id)) WITH CLUSTERING ORDER BY (id DESC)",
		"A TimeUUIDType wide row is a timeuuid clustering column; the newest-first listing is a reversed slice in 0.6 and the clustering order in CQL3."},
	{"BloggyAppy", "Comments", "Super: TimeUUIDType / BytesType", "slug", "comment TimeUUID → {commenter, email, comment, commentTime}",
		"comments (slug, id, name, email, text, PRIMARY KEY (slug, id))",
		"A super column is a clustering column: its name is id, its subcolumns are the regular columns. CQL3 has no super columns; a composite comparator replaced them."},
}

type modelsData struct {
	Running   string
	LiveXML   string
	LiveNote  string
	CQL       string
	CQLNote   string
	Mappings  []mapping
	Queries   []accessPattern
	Inspector bool
	// InspectCF links each column family to the widerow inspector, InspectTable each table to
	// the cql3 one.
	InspectCF, InspectTable bool
}

func (h *handler) models(c *gin.Context) {
	d := modelsData{Running: h.deps.Backend, Mappings: mappings, Queries: accessPatterns, Inspector: h.deps.Node != nil || h.deps.CQL != nil,
		InspectCF: h.deps.Node != nil, InspectTable: h.deps.CQL != nil}
	if h.deps.Node != nil {
		d.LiveXML = h.deps.Node.Schema().XML
		d.LiveNote = "The running engine's storage-conf.xml."
	}
	if d.LiveXML == "" {
		d.LiveXML = engine.DefaultSchemaXML
		d.LiveNote = "The widerow engine's storage-conf.xml (not the running backend)."
	}
	if h.deps.CQLSchema != "" {
		d.CQL = h.deps.CQLSchema
		d.CQLNote = "The cql3 adapter's migrations."
	} else {
		d.CQL = equivalentCQL
		d.CQLNote = "The equivalent CQL3 tables."
	}
	if h.deps.Backend == "cql3" {
		d.CQLNote += " This is the running backend."
	}
	h.render(c, http.StatusOK, "models", "Models", "models", d)
}

// The storage inspector.

const (
	inspectDefaultCount = 20
	inspectMaxCount     = 1000
	inspectKeyList      = 20
)

type cfChoice struct {
	Keyspace, Name, Label string
	Selected              bool
}

type notationLine struct {
	Indent string
	Name   string
	Note   string
	Value  string
	// TS is a column's timestamp as the seeds write a column (name, value, timestamp): the
	// write's microseconds, with the date they stand for.
	TS    string
	Open  bool // the line opens a map: `name: {`
	Close bool // the line closes a map: `},`
	List  bool // the line opens or closes a list: `[`, `],`
}

type inspectData struct {
	Available bool
	Backend   string
	Choices   []cfChoice
	Keyspace  string
	CF        string
	Def       string
	Key       string
	User      string
	Start     string
	Finish    string
	Reversed  bool
	Count     int
	Error     string
	Ran       bool
	Lines     []notationLine
	Returned  int
	Keys      []string
	StartHelp string
}

func (h *handler) inspect(c *gin.Context) {
	if h.deps.CQL != nil {
		h.inspectCQL(c)
		return
	}
	d := inspectData{Available: h.deps.Node != nil, Count: inspectDefaultCount, Backend: h.deps.Backend}
	if h.deps.Node == nil {
		h.render(c, http.StatusOK, "inspect", "Storage inspector", "models", d)
		return
	}
	schema := h.deps.Node.Schema()
	d.Keyspace = c.DefaultQuery("ks", "Twissandra")
	d.CF = c.DefaultQuery("cf", "Timeline")
	d.Key, d.User = c.Query("key"), strings.TrimSpace(c.Query("user"))
	d.Start, d.Finish = c.Query("start"), c.Query("finish")
	d.Reversed = c.Query("reversed") != ""
	if v := c.Query("cf_path"); v != "" { // the combined select "Keyspace.CF"
		d.Keyspace, d.CF, _ = strings.Cut(v, ".")
	}
	for _, ks := range schema.Keyspaces {
		for _, cf := range ks.ColumnFamilies {
			d.Choices = append(d.Choices, cfChoice{Keyspace: ks.Name, Name: cf.Name, Label: ks.Name + "." + cf.Name,
				Selected: ks.Name == d.Keyspace && cf.Name == d.CF})
		}
	}
	ks, ok := schema.Keyspace(d.Keyspace)
	var cf *engine.ColumnFamilyDef
	if ok {
		cf, ok = ks.ColumnFamily(d.CF)
	}
	if !ok {
		d.Error = "There is no column family " + d.Keyspace + "." + d.CF + " in this schema."
		h.render(c, http.StatusBadRequest, "inspect", "Storage inspector", "models", d)
		return
	}
	d.Def = cfDefinition(cf)
	d.StartHelp = boundHelp(cf.CompareWith)
	if s := c.Query("count"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > inspectMaxCount {
			d.Error = fmt.Sprintf("Count must be a number from 1 to %d.", inspectMaxCount)
			h.render(c, http.StatusBadRequest, "inspect", "Storage inspector", "models", d)
			return
		}
		d.Count = n
	}
	ctx := c.Request.Context()
	if d.User != "" {
		id, err := h.resolveUser(c, d.User)
		if err != nil {
			d.Error = err.Error()
			h.render(c, http.StatusBadRequest, "inspect", "Storage inspector", "models", d)
			return
		}
		d.Key = id
	}
	if d.Key == "" {
		keys, err := h.someKeys(c, d.Keyspace, d.CF)
		if err != nil {
			d.Error = "Listing keys failed: " + err.Error()
		}
		d.Keys = keys
		h.render(c, http.StatusOK, "inspect", "Storage inspector", "models", d)
		return
	}
	start, err := parseBound(cf.CompareWith, d.Start)
	if err == nil {
		var finish []byte
		finish, err = parseBound(cf.CompareWith, d.Finish)
		if err == nil {
			rng := &engine.SliceRange{Start: start, Finish: finish, Reversed: d.Reversed, Count: int32(d.Count)}
			var cols []engine.ColumnOrSuperColumn
			cols, err = h.deps.Node.GetSlice(ctx, d.Keyspace, d.Key, engine.ColumnParent{ColumnFamily: d.CF},
				engine.SlicePredicate{SliceRange: rng}, engine.ONE)
			if err == nil {
				d.Ran, d.Returned = true, len(cols)
				d.Lines = notation(cf, d.Key, cols)
			}
		}
	}
	if err != nil {
		d.Error = sentence(strings.TrimPrefix(err.Error(), "InvalidRequestException: "))
		h.render(c, http.StatusBadRequest, "inspect", "Storage inspector", "models", d)
		return
	}
	h.render(c, http.StatusOK, "inspect", "Storage inspector", "models", d)
}

// resolveUser reads Twissandra.Username[name]['id'], the inverted index of seed 001.
func (h *handler) resolveUser(c *gin.Context, name string) (string, error) {
	ctx := c.Request.Context()
	cols, err := h.deps.Node.GetSlice(ctx, "Twissandra", name, engine.ColumnParent{ColumnFamily: "Username"},
		engine.SlicePredicate{ColumnNames: [][]byte{[]byte("id")}}, engine.ONE)
	if err != nil {
		return "", fmt.Errorf("looking up %q failed: %s", name, strings.TrimPrefix(err.Error(), "InvalidRequestException: "))
	}
	if len(cols) == 0 || cols[0].Column == nil {
		return "", fmt.Errorf("no user is named %q (the Username row has no id column)", name)
	}
	return string(cols[0].Column.Value), nil
}

// someKeys lists a few row keys of the column family (get_range_slices), to pick from.
func (h *handler) someKeys(c *gin.Context, ks, cf string) ([]string, error) {
	ctx := c.Request.Context()
	rows, err := h.deps.Node.GetRangeSlices(ctx, ks, engine.ColumnParent{ColumnFamily: cf},
		engine.SlicePredicate{SliceRange: &engine.SliceRange{Count: 1}}, engine.KeyRange{Count: inspectKeyList}, engine.ONE)
	if err != nil {
		return nil, err
	}
	var keys []string
	for _, r := range rows {
		if len(r.Columns) > 0 { // skip range ghosts: rows holding only tombstones
			keys = append(keys, r.Key)
		}
	}
	return keys, nil
}

func cfDefinition(cf *engine.ColumnFamilyDef) string {
	s := fmt.Sprintf(`<ColumnFamily Name=%q CompareWith=%q`, cf.Name, cf.CompareWith.String())
	if cf.Super {
		s += fmt.Sprintf(` ColumnType="Super" CompareSubcolumnsWith=%q`, cf.CompareSubcolumnsWith.String())
	}
	if cf.RowsCached > 0 {
		s += fmt.Sprintf(` RowsCached="%d"`, cf.RowsCached)
	}
	return s + "/>"
}

func boundHelp(cmp engine.Comparator) string {
	switch cmp {
	case engine.LongType:
		return "a number (e.g. microseconds 1273656000123456) or a date like 2010-05-12T09:20:00Z"
	case engine.TimeUUIDType, engine.LexicalUUIDType:
		return "a UUID like 6ba7b810-9dad-11d1-80b4-00c04fd430c8"
	case engine.BytesType:
		return "text, or hex bytes written 0x…"
	}
	return "text"
}

// parseBound turns a slice bound typed in the form into a column name of the comparator.
func parseBound(cmp engine.Comparator, s string) ([]byte, error) {
	if s == "" {
		return nil, nil
	}
	switch cmp {
	case engine.LongType:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t, terr := time.Parse(time.RFC3339Nano, s)
			if terr != nil {
				return nil, fmt.Errorf("%q is neither a number nor a date like 2010-05-12T09:20:00Z", s)
			}
			n = t.UnixMicro()
		}
		b := make([]byte, 8)
		binary.BigEndian.PutUint64(b, uint64(n))
		return b, nil
	case engine.TimeUUIDType, engine.LexicalUUIDType:
		u, err := uuid.Parse(s)
		if err != nil {
			return nil, fmt.Errorf("%q is not a UUID", s)
		}
		return u[:], nil
	case engine.BytesType:
		if h, ok := strings.CutPrefix(s, "0x"); ok {
			b, err := hex.DecodeString(h)
			if err != nil {
				return nil, fmt.Errorf("%q is not hex bytes", s)
			}
			return b, nil
		}
	}
	return []byte(s), nil
}

// notation renders a row as the seed articles write rows:
//
//	Timeline = {
//	    "<row key>": {
//	        1273656000123456 /* 2010-05-12 09:20:00.123456 UTC */: "<tweet uuid>",
//	    },
//	}
func notation(cf *engine.ColumnFamilyDef, key string, cols []engine.ColumnOrSuperColumn) []notationLine {
	const ind = "    "
	lines := []notationLine{{Name: cf.Name + " =", Open: true}}
	lines = append(lines, notationLine{Indent: ind, Name: strconv.Quote(key), Note: "row key", Open: true})
	for _, c := range cols {
		switch {
		case c.Column != nil:
			n, note := decodeName(cf.CompareWith, c.Column.Name)
			lines = append(lines, notationLine{Indent: ind + ind, Name: n, Note: note, Value: shownValue(c.Column.Name, c.Column.Value), TS: timestampNote(c.Column.Timestamp)})
		case c.SuperColumn != nil:
			n, note := decodeName(cf.CompareWith, c.SuperColumn.Name)
			lines = append(lines, notationLine{Indent: ind + ind, Name: n, Note: note, Open: true})
			for _, sc := range c.SuperColumn.Columns {
				sn, snote := decodeName(cf.CompareSubcolumnsWith, sc.Name)
				lines = append(lines, notationLine{Indent: ind + ind + ind, Name: sn, Note: snote, Value: shownValue(sc.Name, sc.Value), TS: timestampNote(sc.Timestamp)})
			}
			lines = append(lines, notationLine{Indent: ind + ind, Close: true})
		}
	}
	lines = append(lines, notationLine{Indent: ind, Close: true})
	lines = append(lines, notationLine{Close: true})
	return lines
}

// decodeName shows a column name as its comparator reads it, with a note (a date) where one helps.
func decodeName(cmp engine.Comparator, b []byte) (name, note string) {
	switch cmp {
	case engine.LongType:
		if len(b) == 8 {
			n := int64(binary.BigEndian.Uint64(b))
			return strconv.FormatInt(n, 10), microsDate(n)
		}
	case engine.TimeUUIDType:
		if u, err := uuid.FromBytes(b); err == nil {
			note := ""
			if u.Version() == 1 {
				sec, nsec := u.Time().UnixTime()
				note = time.Unix(sec, nsec).UTC().Format("2006-01-02 15:04:05.000000 UTC")
			}
			return u.String(), note
		}
	case engine.LexicalUUIDType:
		if u, err := uuid.FromBytes(b); err == nil {
			return u.String(), ""
		}
	case engine.UTF8Type, engine.AsciiType:
		if utf8.Valid(b) {
			return strconv.Quote(string(b)), ""
		}
	}
	return decodeValue(b), ""
}

// timestampNote shows a column's timestamp: the number the write gave, and its date when it is
// one (Twissandra writes microseconds since 1970; a client may give any number).
func timestampNote(ts int64) string {
	if d := microsDate(ts); d != "" {
		return "timestamp " + strconv.FormatInt(ts, 10) + ", " + d
	}
	return "timestamp " + strconv.FormatInt(ts, 10)
}

// microsDate reads n as microseconds since 1970 when that gives a date between 1990 and 2200.
func microsDate(n int64) string {
	const lo, hi = 631152000000000, 7258118400000000
	if n < lo || n > hi {
		return ""
	}
	return time.UnixMicro(n).UTC().Format("2006-01-02 15:04:05.000000 UTC")
}

// shownValue is what a page shows of a stored column: its value decoded, or, for a secret (a
// password hash, an email), what it is (domain.RedactColumn). Pages are open to anyone.
func shownValue(name, value []byte) string {
	if shown, ok := domain.RedactColumn(string(name), value); ok {
		return shown
	}
	return decodeValue(value)
}

// decodeValue shows bytes as quoted text when they are printable UTF-8, else as hex.
func decodeValue(b []byte) string {
	if utf8.Valid(b) && !strings.ContainsFunc(string(b), func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) {
		return strconv.Quote(string(b))
	}
	return "0x" + hex.EncodeToString(b)
}
