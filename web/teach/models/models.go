package models

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
)

// mapping is one column family and the CQL3 tables that hold the same data. The comparator
// comes from the storage-conf.xml the page shows, each table's definition from the cql3
// adapter's migrations; RowKey, Columns and Names say how this application lays its rows out
// (a test holds Names to the rows the widerow store writes).
type mapping struct {
	Keyspace, CF, RowKey, Columns string
	// Names are the columns of every row of a static column family (or the subcolumns of each
	// super column), nil for a dynamic one.
	Names   []string
	Tables  []string
	Explain string
}

// Mappings follow the reference's section 6: how CQL3 tables sat on the same storage.
var Mappings = []mapping{
	{"Twissandra", "User", "user UUID", "id, username, password, created_at, followers (the follower count)",
		[]string{"id", "username", "password", "created_at", "followers"}, []string{"users"},
		"A static column family: every row has the same few named columns. CQL3 declares them as typed columns (a timestamp beside its microseconds, created_at_us: CQL timestamps count milliseconds); on disk each is still one cell of the row, named by the column's name. The follower count moves to the followers table, as its static column follower_count."},
	{"Twissandra", "Username", "username", "id → user UUID", []string{"id"}, nil,
		"The hand-made inverted index of seed 001: 0.6 had no secondary indexes. users is keyed by username, which makes it unnecessary; keeping UUID keys would need a second table written beside the first."},
	{"Twissandra", "Friends", "user UUID", "friend UUID → since", nil, []string{"friends"},
		"A dynamic wide row, one column per friend. The column name becomes the clustering column friend (a username here, not a UUID), the value the regular columns since and since_us; in 1.2–2.x each CQL row was the composite cells [friend:\"\"] (the row marker), [friend:\"since\"] and [friend:\"since_us\"]."},
	{"Twissandra", "Followers", "user UUID, or !PULLED!", "follower UUID → since; the !PULLED! row: pulled author UUID → \"\"", nil, []string{"followers", "pulled_authors"},
		"The other side of each follow: denormalised, since there are no joins. On 0.6 one batch_mutate writes both sides and the count (the User row's followers column). CQL3 adds the static column follower_count, one cell per partition, which a follow sets in one conditional batch with its followers row; the friends row is written after it. The !PULLED! row, the set of authors the hybrid fan-out pulls, becomes the one partition of pulled_authors."},
	{"Twissandra", "Tweet", "tweet UUID", "id, user_id, body, _ts", []string{"id", "user_id", "body", "_ts"}, []string{"tweets"},
		"Static again: one row per tweet. On widerow every page of a line fetches its tweets from it with multiget_slice; on cql3 the line rows carry their tweets, and tweets serves the lookup by ID."},
	{"Twissandra", "Userline", "user UUID, or !PUBLIC!", "time (8-byte μs) → tweet UUID", nil, []string{"userline", "public_line", "public_days"},
		"The comparator becomes the clustering column's type, and DESC wraps it in ReversedType: here time is a timeuuid, the tweet's ID (0.6 named the column by a LongType of microseconds). Each row carries what a page shows of its tweet (author, body, created_at: migration 004, query first), so a page is one query. The public line is not a !PUBLIC! partition of userline: it is public_line, one partition per day, and public_days lists the days that have tweets, so no partition grows without bound."},
	{"Twissandra", "Timeline", "user UUID", "time (8-byte μs) → tweet UUID", nil, []string{"timeline"},
		"The home timeline, materialised by fan-out on write, its rows carrying their tweets as the userline's do. A tweet's time is the same in every line, which is what makes unfollow cleanup exact."},
	{"BloggyAppy", "Authors", "author name", "one column per profile attribute, numPosts", nil, []string{"authors"},
		"Free-form columns become a map collection; CQL3 stores each map entry as one cell named profile:key, much like the 0.6 columns. numPosts becomes posts, changed by compare-and-set."},
	{"BloggyAppy", "BlogEntries", "slug", "id, title, body, author, tags, pubDate, slug", []string{"id", "title", "body", "author", "tags", "pubDate", "slug"}, []string{"blog_entries"},
		"The comma-separated tags column becomes a set<text>, pubDate the timestamp published_at."},
	{"BloggyAppy", "TaggedPosts", "tag, or __notag__", "entry TimeUUID → slug", nil, []string{"tagged_posts"},
		"A TimeUUIDType wide row is a timeuuid clustering column, time (the entry's ID); the newest-first listing is a reversed slice in 0.6 and the clustering order in CQL3."},
	{"BloggyAppy", "Comments", "slug", "comment TimeUUID → {commenter, email, comment, commentTime}", []string{"commenter", "email", "comment", "commentTime"}, []string{"comments"},
		"A super column becomes a clustering column: its name, the comment's TimeUUID, is time, and its subcolumns the regular columns name, email, body and created_at. CQL3 has no super columns; a composite comparator replaced them. Comments are read oldest first, so the clustering order is ASC."},
	{"Sessions", "LoginAttempts", "user:<name>, or addr:<address>", "attempt TimeUUID → forget after (μs)", nil, []string{"login_attempts"},
		"Not the seeds': the log-in limit's counts, one column per attempt, so the attempts of the last minute are one slice from the TimeUUID of a minute ago. 0.6 had no TTL: the server sweeps the columns whose time has passed. CQL3 writes each row USING TTL of the limit's window, and the node forgets it by itself."},
	{"Sessions", "EndedSessions", "the day of expiry, 2026-11-26", "session id → expires (μs)", nil, []string{"ended_sessions"},
		"Not the seeds': the sessions a logout ended. One row per day of expiry, so that the server drops a day's row whole once the day has passed (0.6 had no TTL). CQL3 keys a row by the session's id, with a TTL of what was left of the session's life."},
	{"Sessions", "Progress", "username", "first done (8-byte μs), then v or p, then the lesson or the exercise → ''", nil, []string{"course_progress"},
		"Not the seeds': each signed-in learner's progress through the course. A column named by the time it was first done, so one slice returns the row in that order; a record reads the row and writes only what it lacks, and a read keeps the first of each, since two servers may both write one (0.6 had no compare-and-set). CQL3 keys a row by (kind, item) and writes it with INSERT … IF NOT EXISTS, so the first time stays; the reader orders the partition by that time."},
	{"Sessions", "Classes", "the class", "username → ''", nil, []string{"class_members"},
		"Not the seeds': an instructor's classes, a row per class and a column per account made for it, so the roster is one slice. CQL3 keys a partition by the class and a row by the username."},
	{"Sessions", "Activity", "user:<name>", "last → the action, at → when (8-byte μs), statements → how many (8 bytes)", nil, []string{"class_activity"},
		"Not the seeds': each signed-in learner's last action and console statements, one row each. 0.6 had no counters: a statement reads the count and writes it one more, as CQL3's row does (a counter column could not be reset by a delete and counted again)."},
	{"Scratch", "UTF8s", "race:<name>", "owner (the uniqueness race's claims)", []string{"owner"}, []string{"race_names"},
		"The uniqueness race's sandbox: one row per name claimed. On cql3 the claim is INSERT … IF NOT EXISTS, and every claim expires after a day (the table's default_time_to_live)."},
}

// mappedTable is one CQL3 table of a mapping, defined as the migrations leave it.
type mappedTable struct {
	Name, DDL string
}

// mappingRow is a mapping as the page shows it.
type mappingRow struct {
	mapping
	Comparator string
	CQL        []mappedTable
}

// MappingRows joins the mappings to the storage-conf.xml conf (the comparators) and the
// migrations ddl (the tables).
func MappingRows(conf, ddl string) []mappingRow {
	cfs := frame.StorageConfCFs(conf)
	tables := map[string]frame.ChebTable{}
	for _, t := range frame.ParseSchema(ddl) {
		tables[t.Name] = t
	}
	out := make([]mappingRow, len(Mappings))
	for i, m := range Mappings {
		out[i] = mappingRow{mapping: m, Comparator: cfs[m.Keyspace+"."+m.CF].Comparator()}
		for _, name := range m.Tables {
			if t, ok := tables[name]; ok {
				out[i].CQL = append(out[i].CQL, mappedTable{Name: name, DDL: frame.TableDDL(t, false)})
			}
		}
	}
	return out
}

type modelsData struct {
	Running  string
	LiveXML  string
	LiveNote string
	// CQL is the tables the migrations leave, Migrations the migrations as written.
	CQL, Migrations string
	CQLNote         string
	Mappings        []mappingRow
	Queries         []frame.AccessPattern
	Inspector       bool
	// InspectCF links each column family to the widerow inspector, InspectTable each table to
	// the cql3 one.
	InspectCF, InspectTable bool
}

func (h *Handler) Models(c *gin.Context) {
	d := modelsData{Running: h.Deps.Backend, Queries: frame.AccessPatterns, Inspector: h.Deps.Wide != nil || h.Deps.CQL != nil,
		InspectCF: h.Deps.Wide != nil, InspectTable: h.Deps.CQL != nil}
	if h.Deps.Wide != nil {
		d.LiveXML = h.Deps.Wide.SchemaXML()
		d.LiveNote = "The running engine's storage-conf.xml."
	}
	if d.LiveXML == "" {
		d.LiveXML = h.Deps.StorageConf
		d.LiveNote = "The widerow engine's storage-conf.xml (not the running backend)."
	}
	d.Migrations = h.CqlDDL()
	d.CQL = frame.SchemaTables(d.Migrations)
	d.CQLNote = "The tables the cql3 adapter's migrations leave, read from the migrations this server applies (below them, as written)."
	if h.Deps.Backend == "cql3" {
		d.CQLNote += " This is the running backend."
	}
	d.Mappings = MappingRows(d.LiveXML, d.Migrations)
	h.Site.Render(c, http.StatusOK, site.Page{Title: "Models", Nav: "models", Content: modelsView(d)})
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
	Lines     []frame.NotationLine
	Returned  int
	Keys      []string
	// KeyTokens are the tokens of Keys (nil when unknown); KeyToken the inspected row's.
	KeyTokens []string
	KeyToken  keyToken
	StartHelp string
	// Stored is the row as the engine keeps it, tombstones included, when it has any.
	Stored      []frame.NotationLine
	StoredCells int
	Tombstones  int
	// GCGrace is the engine's GCGraceSeconds, CompactEvery how often it compacts (0: never).
	GCGrace      int64
	CompactEvery time.Duration
}

// graceText says a GCGraceSeconds: seconds, and days when it is a whole number of them.
func graceText(seconds int64) string {
	s := strconv.FormatInt(seconds, 10) + " s"
	if seconds > 0 && seconds%86400 == 0 {
		s += ", " + frame.Plural(int(seconds/86400), "1 day", strconv.FormatInt(seconds/86400, 10)+" days")
	}
	return s
}

// compactText says how often the engine compacts by itself.
func compactText(every time.Duration) string {
	if every <= 0 {
		return "This server compacts only when asked (--compaction-interval 0): until then every tombstone stays."
	}
	text := strings.TrimSuffix(every.String(), "m0s") // 1h0m0s, 5m0s: 1h0, 5
	switch {
	case text == every.String():
	case strings.HasSuffix(text, "h0"):
		text = strings.TrimSuffix(text, "0")
	default:
		text += "m"
	}
	return "This server compacts every " + text + " (--compaction-interval)."
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

func (h *Handler) Inspect(c *gin.Context) {
	if h.Deps.CQL != nil {
		h.inspectCQL(c)
		return
	}
	d := inspectData{Available: h.Deps.Wide != nil, Count: inspectDefaultCount, Backend: h.Deps.Backend}
	page := func(status int) {
		h.Site.Render(c, status, site.Page{Title: "Storage inspector", Nav: "models", Content: inspectView(d)})
	}
	if h.Deps.Wide == nil {
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
	for _, ks := range h.Deps.Wide.Keyspaces() {
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
		id, err := h.Deps.Wide.UserRowKey(ctx, d.User)
		if err != nil {
			d.Error = site.Sentence(InspectError(err))
			page(StatusOf(err))
			return
		}
		d.Key = id
	}
	if d.Key == "" {
		keys, err := h.Deps.Wide.RowKeys(ctx, d.Keyspace, d.CF, inspectKeyList)
		switch {
		case errors.Is(err, domain.ErrInvalid): // a column family whose rows no page shows
			d.Error = site.Sentence(InspectError(err))
		case err != nil:
			d.Error = "Listing keys failed: " + err.Error()
		}
		d.Keys = keys
		rows := make([][]string, len(keys))
		for i, k := range keys {
			rows[i] = []string{k}
		}
		d.KeyTokens = h.tokensOf(c, d.Keyspace+"."+d.CF, rows)
		page(http.StatusOK)
		return
	}
	if toks := h.tokensOf(c, d.Keyspace+"."+d.CF, [][]string{{d.Key}}); len(toks) == 1 && toks[0] != "" {
		d.KeyToken = keyToken{Token: toks[0], Ring: tokensLessonURL(d.Key)}
	}
	cols, err := h.Deps.Wide.ReadRow(ctx, d.Keyspace, d.CF, d.Key, teaching.Slice{Start: d.Start, Finish: d.Finish, Reversed: d.Reversed, Count: d.Count})
	if err != nil {
		d.Error = site.Sentence(InspectError(err))
		page(StatusOf(err))
		return
	}
	d.Ran, d.Returned = true, len(cols)
	d.Lines = frame.Notation(cf.Name, d.Key, cols)
	// What the row stores before a read reconciles it: shown when it holds tombstones, the
	// deletions get_slice reads past.
	if stored, err := h.Deps.Wide.StoredRow(ctx, d.Keyspace, d.CF, d.Key, inspectMaxCount); err == nil {
		for _, c := range stored {
			d.Tombstones += countDeleted(c)
			d.StoredCells += countCells(c)
		}
		if d.Tombstones > 0 {
			d.Stored = frame.Notation(cf.Name, d.Key, stored)
			d.GCGrace, d.CompactEvery = h.Deps.Wide.Compaction()
		}
	}
	page(http.StatusOK)
}

// InspectError is an inspector's error as a learner reads it: what was wrong, without the
// layers' prefixes.
func InspectError(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, "InvalidRequestException: "); i >= 0 {
		return msg[i+len("InvalidRequestException: "):]
	}
	for _, p := range []string{"widerow: ", "widerow inspect: ", "invalid: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	return strings.TrimSuffix(msg, ": "+domain.ErrNotFound.Error())
}
