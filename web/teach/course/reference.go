package course

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"
	"golang.org/x/crypto/bcrypt"

	"twissandra/domain/social"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
)

// The course's reference pages, beside the numbered lessons: the glossary every page's jargon
// links to (/learn/glossary#<term>), the timeline of what changed in which version of Cassandra
// (/learn/timeline), and where this application departs from the seed articles
// (/learn/departures), its figures taken from the code.

func (h *handler) registerReference(g *gin.RouterGroup) {
	g.GET("learn/glossary", h.glossary)
	g.GET("learn/timeline", h.timeline)
	g.GET("learn/departures", h.departures)
	h.registerLessonActions(g)
}

// SeeAlso is a link from a glossary entry or a timeline step to a page that shows it.
type SeeAlso struct {
	Label string
	URL   templ.SafeURL
	// Lesson is the slug of the lesson linked to, if it is one.
	Lesson string
}

// LessonSee links to a lesson. Its words are "lesson N" and then label, N the lesson's place in
// the course; or, where label names lessons itself as {slug}, label with each replaced by its
// number ("TTL: lesson {time}"). The numbers are read from the course when the page is drawn.
func LessonSee(slug, label string) SeeAlso {
	if !strings.Contains(label, "{") {
		label = strings.TrimSpace("{" + slug + "} " + label)
		label = "lesson " + label
	}
	return SeeAlso{Label: label, URL: frame.LessonURL(slug), Lesson: slug}
}
func termSee(id, label string) SeeAlso  { return SeeAlso{Label: label, URL: frame.GlossaryURL(id)} }
func pageSee(url, label string) SeeAlso { return SeeAlso{Label: label, URL: templ.SafeURL(url)} }

// lessonRef is a lesson named in a label, {slug}.
var lessonRef = regexp.MustCompile(`\{([a-z0-9-]+)\}`)

// Text is the link's words, each lesson named in them numbered as the course numbers it.
func (s SeeAlso) Text() string {
	if s.Lesson == "" {
		return s.Label
	}
	return lessonRef.ReplaceAllStringFunc(s.Label, func(ref string) string {
		return strconv.Itoa(frame.LessonNumber(ref[1 : len(ref)-1]))
	})
}

// glossaryTerm is one entry: its anchor (lower case, hyphenated), the word as the pages write
// it, and what it means here.
type glossaryTerm struct {
	ID, Term, Def string
	See           []SeeAlso
}

// Glossary is every jargon word of the pages, in alphabetical order of Term.
var Glossary = []glossaryTerm{
	{"access-pattern", "access pattern", "A question the application asks of its data, such as “a user's tweets, newest first”. The seeds list them before they lay out the rows; this server numbers them Q1 to Q9.",
		[]SeeAlso{pageSee("/models#queries", "the access patterns"), LessonSee("query-first", "")}},
	{"allow-filtering", "ALLOW FILTERING", "A CQL clause that lets a query read rows it cannot find by their key and drop those that do not match: a scan of many partitions, on every node of a cluster. Without it Cassandra refuses such a query with an InvalidRequest.",
		[]SeeAlso{LessonSee("query-first", "lets you meet it")}},
	{"append", "Append", "The line store's call that puts one entry into many lines at once (ports.LineStore.Append): a post's fan-out. On widerow it is one batch_mutate, one Pebble batch; on cql3 one INSERT per line, sent concurrently.",
		[]SeeAlso{termSee("fan-out", "fan-out"), termSee("pebble-batch", "Pebble batch")}},
	{"batch-mutate", "batch_mutate", "The Thrift call that applies many inserts and deletions to many rows of one keyspace. 0.6 checked the whole batch first, then applied it row by row: atomic for one row, with no isolation across rows.",
		[]SeeAlso{termSee("pebble-batch", "Pebble batch"), LessonSee("twissandra", "")}},
	{"bcrypt", "bcrypt", "A slow, salted password hash. The seeds stored passwords as given; this application stores only their bcrypt hash.",
		[]SeeAlso{pageSee("/learn/departures#bcrypt", "departures")}},
	{"chebotko-diagram", "Chebotko diagram", "Artem Chebotko's notation for a query-first schema: the application workflow (screens and the access patterns each runs), then each table with its partition key (K), clustering columns (C↑, C↓) and static columns (S), and an arrow from each access pattern to the tables that serve it.",
		[]SeeAlso{pageSee("/models/generations#chebotko", "the diagram of this schema")}},
	{"clustering-column", "clustering column", "A column of a CQL3 primary key after the partition key: it sorts the rows inside a partition, as a comparator sorted the columns of a 0.6 row. WITH CLUSTERING ORDER BY (time DESC) keeps them newest first.",
		[]SeeAlso{termSee("partition-key", "partition key"), termSee("reversedtype", "ReversedType"), LessonSee("cql3", "")}},
	{"column", "column", "The smallest piece of data: a name, a value and a timestamp, the triple of the seeds. A row's columns are kept sorted by name, in the order of the column family's comparator.",
		[]SeeAlso{LessonSee("primer", "")}},
	{"column-family", "column family", "A container of rows in a keyspace, declared in 0.6's storage-conf.xml with a comparator: Twissandra.User, Twissandra.Timeline. It is addressed as Keyspace.ColumnFamily['row']['column']. CQL3 calls it a table.",
		[]SeeAlso{LessonSee("primer", ""), pageSee("/models", "the models page")}},
	{"compact-storage", "COMPACT STORAGE", "A table option of Cassandra 1.2 to 3.x: the table is stored as a 0.6 column family, with no row marker and no column name in its cells (one clustering column is the whole cell name, the one other column the value). An old Thrift column family seen from CQL3 was such a table. Removed in 4.0.",
		[]SeeAlso{termSee("row-marker", "row marker"), LessonSee("cql3", "")}},
	{"compaction", "compaction", "The background merge of a node's SSTables into fewer: overwritten values go. In 0.6 only a major compaction (nodetool compact, or a minor one that happens to take every SSTable of the column family) drops tombstones: those the node received at least GCGraceSeconds before, with the cells they hide; a row's or super column's only once no newer column of it remains. This server's widerow engine does that every --compaction-interval (an hour by default).",
		[]SeeAlso{termSee("tombstone", "tombstone"), termSee("gcgraceseconds", "GCGraceSeconds")}},
	{"comparator", "comparator", "The type that orders a column family's column names (CompareWith, and CompareSubcolumnsWith inside super columns): BytesType, AsciiType, UTF8Type, LongType, LexicalUUIDType or TimeUUIDType in 0.6. Slices are ranges in its order. In CQL3 the clustering columns' types took its place.",
		[]SeeAlso{LessonSee("slices", ""), pageSee("/models/lab", "the comparator lab")}},
	{"compare-mode", "compare mode", "This server running two backends at once (serve --compare cql3): every write goes to both, reads are answered by the first and checked against the second, and each page's footer shows what the request cost each model.",
		[]SeeAlso{LessonSee("compare", "")}},
	{"composite-cell", "composite cell", "How Cassandra 1.2 to 2.x stored a CQL3 row: as cells of one wide row named by a composite of the clustering values and the CQL column's name, [time:'body'], under a CompositeType comparator.",
		[]SeeAlso{termSee("row-marker", "row marker"), LessonSee("cql3", "")}},
	{"consistency-level", "consistency level", "How many replicas must answer a read or acknowledge a write before the coordinator replies: ONE, QUORUM, ALL and, in 0.6, ZERO, ANY, DCQUORUM and DCQUORUMSYNC. Reads and writes at QUORUM overlap in at least one replica, so a read sees the last acknowledged write.",
		[]SeeAlso{termSee("replica", "replica")}},
	{"counter", "counter", "A column type of 0.8 that replicas increment concurrently. An increment that times out and is retried may count twice, and counters cannot share a batch with a condition, which is why this application counts followers otherwise.",
		[]SeeAlso{LessonSee("counters", ""), LessonSee("celebrity", ""), pageSee("/learn/departures#followers-count", "departures")}},
	{"cql", "CQL", "The Cassandra Query Language: CQL 1 in 0.8, sent over Thrift; CQL3 from 1.2, with tables, primary keys and its own binary protocol, the language of the cql3 backend.",
		[]SeeAlso{pageSee("/learn/timeline", "the timeline")}},
	{"day-bucket", "day bucket", "A day in the partition key (public_line's day) that splits a line growing for ever into one partition per day, so that no partition grows without bound and each day's writes go to other replicas.",
		[]SeeAlso{LessonSee("partitions", "")}},
	{"denormalise", "denormalise", "To copy data into every table that a query reads it from, because Cassandra has no joins: the tweet's body in each line row, both sides of a follow.",
		[]SeeAlso{LessonSee("query-first", "")}},
	{"fan-out", "fan-out", "Fan-out on write: a post is copied into the timeline of every follower as it is written, so that a home timeline is one slice of one row. Its cost grows with the author's followers: the celebrity problem.",
		[]SeeAlso{LessonSee("twissandra", ""), LessonSee("celebrity", "")}},
	{"gcgraceseconds", "GCGraceSeconds", "How long a tombstone must be kept before compaction may drop it, 864,000 seconds (ten days) by default, counted from when the delete reached the cluster (its localDeletionTime: the clock of the node the client sent it to, which the replicas and repairs keep), not from the client's timestamp. In 0.6 one setting of storage-conf.xml's <Storage> for every column family (--gc-grace-seconds on this server's widerow); per column family from 0.7 (gc_grace_seconds in CQL). A replica that missed a delete and is not repaired within it brings the deleted column back.",
		[]SeeAlso{termSee("tombstone", "tombstone"), LessonSee("time", "")}},
	{"get-range-slices", "get_range_slices", "The Thrift call that walks rows in token order, with the same slice of each: the scan of a whole column family. Rows holding only tombstones come back empty (range ghosts).",
		[]SeeAlso{termSee("token", "token")}},
	{"hinted-handoff", "hinted handoff", "What a coordinator does for a replica that is down when a write comes: a live replica keeps a hint (the row's key, in 0.6's HintsColumnFamily) and replays the row to it when it is up again. A hint does not count towards the write's consistency level (but for ANY).",
		[]SeeAlso{termSee("consistency-level", "consistency level"), LessonSee("consistency", "")}},
	{"hot-partition", "hot partition", "A row or partition that takes a large share of the writes or reads, so that its few replicas do the work of the cluster: the 0.6 public line, one row every post writes.",
		[]SeeAlso{LessonSee("partitions", "")}},
	{"hybrid-fan-out", "hybrid fan-out", "This server's answer to the celebrity problem: an author with more followers than the pull threshold is pulled (the followers' pages merge the author's userline), everyone else pushed (fanned out on write).",
		[]SeeAlso{LessonSee("celebrity", "")}},
	{"insert-if-absent", "InsertIfAbsent", "The widerow emulation's conditional write (insert_if_absent, compare_and_set): the column is written only if no live column has its name, under a lock of the row. Cassandra 0.6 had no such call; this is what the lightweight transaction later gave.",
		[]SeeAlso{termSee("lightweight-transaction", "lightweight transaction"), pageSee("/learn/departures#insert-if-absent", "departures")}},
	{"keyspace", "keyspace", "The outermost container of data, as a database is: Twissandra and BloggyAppy are keyspaces. In 0.6 each was declared in storage-conf.xml with its column families and replication; from 0.7 on it is created at run time (CREATE KEYSPACE in CQL).",
		[]SeeAlso{LessonSee("primer", "")}},
	{"last-write-wins", "last write wins", "How Cassandra settles two writes of one column: the higher timestamp wins whatever order they arrive in; on a tie the larger value, and a tombstone wins a tie with a value.",
		[]SeeAlso{LessonSee("time", "")}},
	{"lightweight-transaction", "lightweight transaction", "A conditional write of Cassandra 2.0: INSERT … IF NOT EXISTS, UPDATE … IF column = value. The partition's replicas agree through Paxos, so of concurrent writers exactly one applies; it costs about four round trips to a quorum.",
		[]SeeAlso{termSee("paxos", "Paxos"), LessonSee("unique", "")}},
	{"multiget-slice", "multiget_slice", "The Thrift call that reads the same slice of many rows known by key in one request: the tweets of a timeline page.",
		[]SeeAlso{termSee("slice", "slice")}},
	{"partition", "partition", "All the CQL rows under one partition key, stored together on the replicas of its token: what 0.6 called a row, the wide row.",
		[]SeeAlso{termSee("partition-key", "partition key"), LessonSee("partitions", "")}},
	{"partition-key", "partition key", "The first part of a CQL3 primary key: the columns hashed to the token that places the partition on its replicas. A query that names the whole partition key reads one partition. It is the 0.6 row key.",
		[]SeeAlso{termSee("clustering-column", "clustering column"), LessonSee("cql3", ""), LessonSee("query-first", "")}},
	{"paxos", "Paxos", "The consensus protocol under lightweight transactions: prepare and promise, read, propose and accept, commit, each a round trip to a quorum of the partition's replicas.",
		[]SeeAlso{termSee("lightweight-transaction", "lightweight transaction")}},
	{"pebble-batch", "Pebble batch", "Pebble is the key-value store under the widerow emulation; a Pebble batch is a set of writes committed at once, atomically. Widerow's batch_mutate is one Pebble batch, so all its rows change together, where 0.6 was atomic for each row only.",
		[]SeeAlso{termSee("batch-mutate", "batch_mutate"), termSee("append", "Append")}},
	{"pull-threshold", "pull threshold", "The follower count above which this server pulls an author instead of pushing their posts (serve --pull-threshold).",
		[]SeeAlso{termSee("hybrid-fan-out", "hybrid fan-out"), LessonSee("celebrity", "")}},
	{"query-first", "query-first design", "Designing Cassandra tables from the access patterns, one table (or more) for each, so that each query reads one partition: the opposite of normalising first and querying later.",
		[]SeeAlso{LessonSee("query-first", "")}},
	{"read-repair", "read repair", "What a read does when the replicas it asked disagree: the newest version, by timestamp, goes to those that answered an older one. In 0.6 a read at ONE also compares the other replicas in the background (DoConsistencyChecksBoolean).",
		[]SeeAlso{termSee("hinted-handoff", "hinted handoff"), LessonSee("consistency", "")}},
	{"replica", "replica", "A node holding a copy of a row or partition. The replication factor says how many; the first replica owns the token, the others follow it around the ring.",
		[]SeeAlso{termSee("token", "token"), termSee("consistency-level", "consistency level")}},
	{"reversedtype", "ReversedType", "The comparator that reverses another's order. A clustering column ordered DESC was stored, in 1.2 to 2.x, under ReversedType of its type inside the CompositeType: ReversedType(TimeUUIDType) for a newest-first line.",
		[]SeeAlso{termSee("composite-cell", "composite cell"), termSee("clustering-column", "clustering column")}},
	{"row", "row", "Everything a column family holds under one row key: a sorted map of columns, stored whole on the replicas of the key's token. CQL3 calls it a partition, and its CQL rows are something else.",
		[]SeeAlso{LessonSee("primer", "")}},
	{"row-cache", "row cache", "A cache of whole rows in a node's memory (0.6's RowsCached per column family). The widerow engine keeps one for the Followers and Tweet rows. A cached Followers row also keeps its followers' Timeline rows, their tokens computed once, until the next follow or unfollow: a post's footer then shows its read of the row as “the whole row, from the row cache”.",
		[]SeeAlso{}},
	{"row-marker", "row marker", "The empty cell, [clustering:''] = '', that an INSERT wrote for each CQL row in Cassandra 1.2 to 2.x, so that a row whose other columns are all null still exists. An UPDATE wrote none. COMPACT STORAGE tables have none.",
		[]SeeAlso{termSee("composite-cell", "composite cell"), LessonSee("cql3", "")}},
	{"secondary-index", "secondary index", "An index Cassandra keeps of a column's values (0.7's KEYS indexes, 5.0's storage-attached indexes). The seeds built theirs by hand: the Username column family maps a name to the user's row key.",
		[]SeeAlso{termSee("storage-attached-index", "storage-attached index"), LessonSee("twissandra", "")}},
	{"slice", "slice", "get_slice: a read of one row's columns from a start name to a finish name, in the comparator's order or reversed, at most count of them. In CQL3, a range of clustering values in one partition.",
		[]SeeAlso{LessonSee("slices", "")}},
	{"sstable", "SSTable", "A sorted, immutable file of a node's data, written when a memtable fills; reads merge the SSTables and the memtable, and compaction merges the SSTables.",
		[]SeeAlso{termSee("compaction", "compaction")}},
	{"static-column", "static column", "A column of a CQL3 table stored once per partition and shared by all its rows (Cassandra 2.0.6). followers.follower_count is one: a user's follower count, in the partition that lists the followers.",
		[]SeeAlso{LessonSee("cql3", ""), pageSee("/learn/departures#followers-count", "departures")}},
	{"storage-attached-index", "storage-attached index", "Cassandra 5.0's secondary index (SAI), built into each SSTable and memtable, that can answer queries on non-key columns without ALLOW FILTERING. This server's tables need none: each query reads by key.",
		[]SeeAlso{pageSee("/learn/timeline#v5-0", "5.0 on the timeline")}},
	{"storage-conf", "storage-conf.xml", "The configuration file of Cassandra 0.6, where the keyspaces and column families were declared; changing them meant restarting the node.",
		[]SeeAlso{pageSee("/models", "the models page")}},
	{"super-column", "super column", "A column whose value is a sorted map of columns (its subcolumns): BloggyAppy.Comments['slug'][comment-timeuuid]['commenter']. A super column family has two comparators. CQL3 has none: a clustering column does their work.",
		[]SeeAlso{LessonSee("blog", "")}},
	{"thrift", "Thrift", "The RPC framework of Cassandra's first API, with the calls get_slice, multiget_slice, batch_mutate and get_range_slices. Deprecated by CQL, removed in 4.0.",
		[]SeeAlso{pageSee("/learn/timeline", "the timeline")}},
	{"timestamp", "timestamp", "The third part of every column: a number the client chooses, microseconds since 1970 by convention, that decides which of two writes wins. CQL shows it as WRITETIME.",
		[]SeeAlso{termSee("last-write-wins", "last write wins"), LessonSee("time", "")}},
	{"timeuuid", "TimeUUID", "A version-1 UUID: 60 bits of time (100-nanosecond intervals since 15 October 1582), a clock sequence and a node. TimeUUIDType sorts them by their time, so they name columns in time order, and two made in the same instant still differ.",
		[]SeeAlso{LessonSee("timeuuid", "")}},
	{"token", "token", "The hash of a row or partition key (MD5 under 0.6's RandomPartitioner, Murmur3 since 1.2) that decides which nodes hold it: each node owns a range of tokens.",
		[]SeeAlso{termSee("token-aware", "token-aware")}},
	{"token-aware", "token-aware", "A driver that computes a statement's token from its partition key and sends the statement straight to a replica of that partition, saving the coordinator's hop. The cql3 backend routes so.",
		[]SeeAlso{termSee("token", "token")}},
	{"tombstone", "tombstone", "A deletion is a write: a marker carrying the delete's timestamp that hides every older version of the column, super column or row, and, as its value, the time the cluster received it. It stays until a compaction drops it, at least GCGraceSeconds after that time, so that a replica that missed the delete learns it; in 0.6 a row's or super column's stays longer, while a newer column of it remains.",
		[]SeeAlso{termSee("gcgraceseconds", "GCGraceSeconds"), LessonSee("time", "")}},
	{"ttl", "TTL", "Time to live (0.7): a column written with one expires by itself, and becomes a tombstone when it runs out. CQL shows what is left with TTL(column).",
		[]SeeAlso{LessonSee("time", "")}},
	{"wide-row", "wide row", "A row with many columns, often one per event (a timeline's tweets): the layout of the seeds, and how CQL3 tables with clustering columns were stored from 1.2 to 2.x.",
		[]SeeAlso{termSee("partition", "partition"), LessonSee("cql3", "")}},
}

func (h *handler) glossary(c *gin.Context) {
	h.Site.Render(c, http.StatusOK, site.Page{Title: "Glossary", Nav: "learn", Content: glossaryView(Glossary)})
}

// version is one step of the timeline: a Cassandra release, what it changed, and where this
// application shows it.
type version struct {
	ID, Name, Released string
	Changes            []string
	Here               []SeeAlso
}

var Versions = []version{
	{"v0-6", "0.6", "April 2010", []string{
		"The model of the seeds: keyspaces and column families declared in storage-conf.xml (a change meant a restart), standard and super column families, the six comparators, slices, client timestamps and tombstones kept GCGraceSeconds.",
		"The Thrift API: get, get_slice, multiget_slice, get_count, get_range_slices, insert, remove, batch_mutate; atomic for one row only; no conditional write.",
		"The row cache (RowsCached) beside the key cache."},
		[]SeeAlso{pageSee("/models", "the widerow backend emulates it"), LessonSee("primer", "lessons {primer} to {timeuuid}")}},
	{"v0-7", "0.7", "January 2011", []string{
		"TTL: columns that expire by themselves.",
		"Secondary indexes (KEYS) on column values: the Username index the seeds wrote by hand could have been one.",
		"Keyspaces and column families created and changed at run time; cassandra.yaml replaced storage-conf.xml."},
		[]SeeAlso{LessonSee("ttl", "TTL on a 5.0 node: lesson {ttl}"), LessonSee("twissandra", "the Username index: lesson {twissandra}"), LessonSee("indexes", "the same lookup through an index: lesson {indexes}")}},
	{"v0-8", "0.8", "June 2011", []string{
		"Counter columns, incremented by the replicas.",
		"CQL, a query language over Thrift (CQL 1)."},
		[]SeeAlso{LessonSee("counters", "counters on a node, and why the follower count is none: lesson {counters}"), LessonSee("celebrity", "what the follower count decides: lesson {celebrity}")}},
	{"v1-1", "1.1", "April 2012", []string{
		"CQL3 in beta, beside CQL 2 (still the default, chosen per connection with set_cql_version): tables whose primary key has several columns.",
		"Row-level isolation: the columns one write sets in a row were already applied all or none; from 1.1 a reader no longer sees some of them without the others.",
		"Concurrent schema changes; key and row caches sized for the whole node instead of per column family."},
		[]SeeAlso{LessonSee("cql3", "CQL3's tables: lesson {cql3}")}},
	{"v1-2", "1.2", "January 2013", []string{
		"CQL3 by default: tables, primary keys of a partition key and clustering columns, collections, and a binary protocol of its own.",
		"CQL3 tables stored as wide rows of composite cells: a CompositeType comparator of the clustering types and the column name, a row marker per CQL row; WITH COMPACT STORAGE for the old layout.",
		"Virtual nodes, and the Murmur3 partitioner by default."},
		[]SeeAlso{LessonSee("cql3", ""), pageSee("/models/inspect", "the inspector's wide-row view"), LessonSee("collections", "a collection's cells: lesson {collections}")}},
	{"v2-0", "2.0", "September 2013", []string{
		"Lightweight transactions: INSERT … IF NOT EXISTS and UPDATE … IF, on Paxos.",
		"Static columns followed in 2.0.6 (March 2014)."},
		[]SeeAlso{LessonSee("unique", ""), pageSee("/models/race", "the race")}},
	{"v2-1", "2.1", "September 2014", []string{
		"User-defined types and tuples; secondary indexes on the elements of collections.",
		"Counters rewritten (CASSANDRA-6504): safer, with fewer caveats; an increment is still no idempotent write, and a retried one still counts twice.",
		"Incremental repair; memtables off the Java heap."},
		[]SeeAlso{LessonSee("collections", "a user type, frozen and not: lesson {collections}"), LessonSee("counters", "a retried increment on a 5.0 node: lesson {counters}")}},
	{"v3-0", "3.0", "November 2015", []string{
		"A new storage engine: a partition holds rows, each clustering prefix stored once with its cells, instead of composite cells repeating it; the row marker became the row's liveness info.",
		"Materialized views; Thrift deprecated (removed in 4.0, with COMPACT STORAGE)."},
		[]SeeAlso{LessonSee("cql3", "why the inspector says 1.2 to 2.x: lesson {cql3}"), LessonSee("indexes", "a materialized view, and why 4.0 turned views off: lesson {indexes}")}},
	{"v4-0", "4.0", "July 2021", []string{
		"Thrift removed (CASSANDRA-11115): CQL over its native protocol is the only way in; the calls of 0.6 that the widerow backend emulates are gone.",
		"Virtual tables (the system_views keyspace): the node's settings, caches, clients and tasks, read with CQL.",
		"Audit logging and the full query log; zero-copy streaming between nodes; Java 11 beside Java 8 (experimental until 4.0.2)."},
		[]SeeAlso{LessonSee("cql3", "0.6's rows beside CQL3's: lesson {cql3}"), LessonSee("paths", "the node's virtual tables around a write and a read: lesson {paths}")}},
	{"v5-0", "5.0", "September 2024", []string{
		"Storage-attached indexes (SAI): secondary indexes built into the SSTables, for queries on non-key columns.",
		"Trie-based memtables and SSTables, vector search. The cql3 backend's tests run on a 5.0 node."},
		[]SeeAlso{termSee("storage-attached-index", "storage-attached index"), LessonSee("indexes", "SAI beside the other ways to find a row: lesson {indexes}")}},
}

func (h *handler) timeline(c *gin.Context) {
	h.Site.Render(c, http.StatusOK, site.Page{Title: "What changed when", Nav: "learn", Content: timelineView(Versions)})
}

// departuresData are the figures of the departures page, each from the code.
type departuresData struct {
	Backend       string
	BackfillSize  int
	BcryptCost    int
	PullThreshold int64
}

func (h *handler) departures(c *gin.Context) {
	d := departuresData{Backend: h.Deps.Backend, BackfillSize: social.BackfillSize, BcryptCost: h.Deps.Social.PasswordCost(),
		PullThreshold: h.Deps.Social.PullThreshold()}
	h.Site.Render(c, http.StatusOK, site.Page{Title: "Where this application departs from the seeds", Nav: "learn", Content: departuresView(d)})
}

// bcryptCostNote says how a cost compares with bcrypt's default.
func bcryptCostNote(cost int) string {
	switch {
	case cost == bcrypt.DefaultCost:
		return "bcrypt's default"
	case cost < bcrypt.DefaultCost:
		return "below bcrypt's default of " + strconv.Itoa(bcrypt.DefaultCost) + ", as for tests"
	}
	return "above bcrypt's default of " + strconv.Itoa(bcrypt.DefaultCost)
}
