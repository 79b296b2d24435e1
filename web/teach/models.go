package teach

import (
	_ "embed"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web/site"
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
	d := modelsData{Running: h.deps.Backend, Mappings: mappings, Queries: accessPatterns, Inspector: h.deps.Wide != nil || h.deps.CQL != nil,
		InspectCF: h.deps.Wide != nil, InspectTable: h.deps.CQL != nil}
	if h.deps.Wide != nil {
		d.LiveXML = h.deps.Wide.SchemaXML()
		d.LiveNote = "The running engine's storage-conf.xml."
	}
	if d.LiveXML == "" {
		d.LiveXML = h.deps.StorageConf
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
	h.site.Render(c, http.StatusOK, site.Page{Title: "Models", Nav: "models", Content: modelsView(d)})
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
	// NameHref and ValueHref link a UUID to what it names: a tweet's places, a user's row.
	NameHref, ValueHref string
	// Tombstone marks a deleted column: it shows its deletion time and no value.
	Tombstone bool
	List      bool // the line opens or closes a list: `[`, `],`
}

// closing is a closing line after its indent: `}` or `]`, and a comma inside another map.
func (l notationLine) closing() string {
	s := "}"
	if l.List {
		s = "]"
	}
	return s + when(l.Indent != "", ",")
}

// opening is what follows an opening line's name: a colon inside another map, then `{` or `[`.
func (l notationLine) opening() string {
	s := when(l.Indent != "" && l.Name != "", ":") + when(l.Name != "", " ")
	if l.List {
		return s + "["
	}
	return s + "{"
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
	// Stored is the row as the engine keeps it, tombstones included, when it has any.
	Stored      []notationLine
	StoredCells int
	Tombstones  int
}

// countCells is how many cells c is as the engine stores them: one for a column or a
// tombstone, each subcolumn (and the deletion of the super column, if any) for a super column.
func countCells(c teaching.WideColumn) int {
	if c.Columns == nil {
		return 1
	}
	n := 0
	for _, sub := range c.Columns {
		n += countCells(sub)
	}
	return n
}

func countDeleted(c teaching.WideColumn) int {
	n := 0
	if c.Deleted {
		n++
	}
	for _, sub := range c.Columns {
		n += countDeleted(sub)
	}
	return n
}

func (h *handler) inspect(c *gin.Context) {
	if h.deps.CQL != nil {
		h.inspectCQL(c)
		return
	}
	d := inspectData{Available: h.deps.Wide != nil, Count: inspectDefaultCount, Backend: h.deps.Backend}
	page := func(status int) {
		h.site.Render(c, status, site.Page{Title: "Storage inspector", Nav: "models", Content: inspectView(d)})
	}
	if h.deps.Wide == nil {
		page(http.StatusOK)
		return
	}
	d.Keyspace = c.DefaultQuery("ks", "Twissandra")
	d.CF = c.DefaultQuery("cf", "Timeline")
	d.Key, d.User = c.Query("key"), strings.TrimSpace(c.Query("user"))
	d.Start, d.Finish = c.Query("start"), c.Query("finish")
	d.Reversed = c.Query("reversed") != ""
	if v := c.Query("cf_path"); v != "" { // the combined select "Keyspace.CF"
		d.Keyspace, d.CF, _ = strings.Cut(v, ".")
	}
	var cf *teaching.WideCF
	for _, ks := range h.deps.Wide.Keyspaces() {
		for i := range ks.ColumnFamilies {
			def := &ks.ColumnFamilies[i]
			selected := ks.Name == d.Keyspace && def.Name == d.CF
			d.Choices = append(d.Choices, cfChoice{Keyspace: ks.Name, Name: def.Name, Label: ks.Name + "." + def.Name, Selected: selected})
			if selected {
				cf = def
			}
		}
	}
	if cf == nil {
		d.Error = "There is no column family " + d.Keyspace + "." + d.CF + " in this schema."
		page(http.StatusBadRequest)
		return
	}
	d.Def, d.StartHelp = cf.Definition, cf.BoundHelp
	if s := c.Query("count"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > inspectMaxCount {
			d.Error = fmt.Sprintf("Count must be a number from 1 to %d.", inspectMaxCount)
			page(http.StatusBadRequest)
			return
		}
		d.Count = n
	}
	ctx := c.Request.Context()
	if d.User != "" {
		id, err := h.deps.Wide.UserRowKey(ctx, d.User)
		if err != nil {
			d.Error = site.Sentence(inspectError(err))
			page(statusOf(err))
			return
		}
		d.Key = id
	}
	if d.Key == "" {
		keys, err := h.deps.Wide.RowKeys(ctx, d.Keyspace, d.CF, inspectKeyList)
		if err != nil {
			d.Error = "Listing keys failed: " + err.Error()
		}
		d.Keys = keys
		page(http.StatusOK)
		return
	}
	cols, err := h.deps.Wide.ReadRow(ctx, d.Keyspace, d.CF, d.Key, teaching.Slice{Start: d.Start, Finish: d.Finish, Reversed: d.Reversed, Count: d.Count})
	if err != nil {
		d.Error = site.Sentence(inspectError(err))
		page(statusOf(err))
		return
	}
	d.Ran, d.Returned = true, len(cols)
	d.Lines = notation(cf.Name, d.Key, cols)
	// What the row stores before a read reconciles it: shown when it holds tombstones, the
	// deletions get_slice reads past.
	if stored, err := h.deps.Wide.StoredRow(ctx, d.Keyspace, d.CF, d.Key, inspectMaxCount); err == nil {
		for _, c := range stored {
			d.Tombstones += countDeleted(c)
			d.StoredCells += countCells(c)
		}
		if d.Tombstones > 0 {
			d.Stored = notation(cf.Name, d.Key, stored)
		}
	}
	page(http.StatusOK)
}

// uuidLinks links the UUIDs of a column of cf (a column family or a table) to what they name,
// as the seeds' layout defines them: a line's tweet ID to the tweet's places, a user UUID (a
// Username id, a Friends or Followers column name) to the user's User row.
func uuidLinks(cf, name, value string) (nameHref, valueHref string) {
	id := func(s string) (uuid.UUID, bool) {
		u, err := uuid.Parse(strings.Trim(s, `"'`))
		return u, err == nil && len(strings.Trim(s, `"'`)) == 36
	}
	user := func(u uuid.UUID) string {
		return "/models/inspect?" + url.Values{"cf_path": {"Twissandra.User"}, "key": {u.String()}}.Encode()
	}
	switch cf {
	case "Userline", "Timeline", "userline", "timeline", "public_line", "tweets":
		if u, ok := id(value); ok && (name == "tweet_id" || cf == "Userline" || cf == "Timeline") {
			valueHref = "/models/where?tweet=" + u.String()
		}
	case "Username":
		if u, ok := id(value); ok {
			valueHref = user(u)
		}
	case "Friends", "Followers":
		if u, ok := id(name); ok {
			nameHref = user(u)
		}
	}
	return nameHref, valueHref
}

// inspectError is an inspector's error as a learner reads it: what was wrong, without the
// layers' prefixes.
func inspectError(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, "InvalidRequestException: "); i >= 0 {
		return msg[i+len("InvalidRequestException: "):]
	}
	for _, p := range []string{"widerow: ", "widerow inspect: ", "invalid: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	return strings.TrimSuffix(msg, ": "+domain.ErrNotFound.Error())
}

// notation renders a row as the seed articles write rows:
//
//	Timeline = {
//	    "<row key>": {
//	        1273656000123456 /* 2010-05-12 09:20:00.123456 UTC */: "<tweet uuid>",
//	    },
//	}
func notation(cf, key string, cols []teaching.WideColumn) []notationLine {
	const ind = "    "
	lines := []notationLine{{Name: cf + " =", Open: true}}
	lines = append(lines, notationLine{Indent: ind, Name: strconv.Quote(key), Note: "row key", Open: true})
	for _, c := range cols {
		if c.Columns == nil {
			lines = append(lines, columnLine(cf, ind+ind, c))
			continue
		}
		lines = append(lines, notationLine{Indent: ind + ind, Name: c.Name, Note: c.Note, Open: true})
		for _, sc := range c.Columns {
			l := columnLine(cf, ind+ind+ind, sc)
			if sc.Name == "" {
				l.Name = "(the super column's deletion: every subcolumn written before it)"
			}
			lines = append(lines, l)
		}
		lines = append(lines, notationLine{Indent: ind + ind, Close: true})
	}
	lines = append(lines, notationLine{Indent: ind, Close: true})
	lines = append(lines, notationLine{Close: true})
	return lines
}

func columnLine(cf, indent string, c teaching.WideColumn) notationLine {
	l := notationLine{Indent: indent, Name: c.Name, Note: c.Note, Value: c.Value, TS: timestampNote(c.Timestamp)}
	l.NameHref, l.ValueHref = uuidLinks(cf, c.Name, c.Value)
	if l.Name == "" {
		l.Name = "(the row's deletion: every column written before it)"
	}
	if c.Deleted {
		l.Value, l.TS, l.Tombstone = "", "tombstone, deleted at "+strings.TrimPrefix(l.TS, "timestamp "), true
	}
	return l
}

// timestampNote shows a column's timestamp: the number the write gave, and its date when it is
// one (Twissandra writes microseconds since 1970; a client may give any number).
func timestampNote(ts int64) string {
	if d := domain.MicrosDate(ts); d != "" {
		return "timestamp " + strconv.FormatInt(ts, 10) + ", " + d
	}
	return "timestamp " + strconv.FormatInt(ts, 10)
}
