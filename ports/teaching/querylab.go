package teaching

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"twissandra/domain"
)

// QueryLab is the exercise of the query-first lesson: a learner picks a primary key (partition
// key and clustering columns) for one of a few access patterns (KeyPatterns), and the store
// makes a scratch table so keyed, apart from the application's data, fills it with a few rows,
// runs the pattern's query on it and reports what Cassandra made of it: a read of one partition,
// of several, of every partition, a refusal that asks for ALLOW FILTERING (then the same query
// with it), or another refusal; with each statement and what it cost.
//
// Only a store that speaks CQL can answer. The others return an error that wraps ErrNoQueryLab
// and says, in their own model's terms, why.
//
// The lab is bounded: its tables live in one scratch keyspace, a table is reused for the same
// pattern and key, the least recently used go when there are too many, and a learner may try
// only so many keys a minute (ErrTooManyTrials).
type QueryLab interface {
	// TryKey tries k for learner (whom the limit counts: a browser's device, else its address).
	TryKey(ctx context.Context, learner string, k KeyChoice) (KeyTrial, error)
	// TryDesign makes the table of a learner's design (its key, on the pattern's columns)
	// under the same bounds, fills it with the pattern's rows and runs the design's query,
	// composed from its parsed form with the pattern's sample values; it reports the trial,
	// whether the rows came in the pattern's order, and how many rows the pattern wants.
	TryDesign(ctx context.Context, learner string, d TableDesign) (DesignTrial, error)
}

// ErrNoQueryLab is what a store without CQL answers TryKey with.
var ErrNoQueryLab = errors.New("no query lab on this backend")

// ErrTooManyTrials is a session's trial past its limit: it may try again a minute later.
var ErrTooManyTrials = errors.New("too many keys tried in the last minute: try again in a minute")

// ColumnRole says what an access pattern's query knows of a column.
type ColumnRole string

// The roles.
const (
	// Given: the query names one value (username = 'ann').
	Given ColumnRole = "given"
	// Bucket: a value the query can list a few of (the last three days): in a partition key it
	// splits a partition that would grow for ever, and the query names every bucket it reads.
	Bucket ColumnRole = "bucket"
	// Constant: one value for every row (line = 'public'): in a partition key, one partition.
	Constant ColumnRole = "constant"
	// Ordered: the query wants its rows in this column's order (newest first).
	Ordered ColumnRole = "ordered"
	// Unknown: the query knows nothing of it.
	Unknown ColumnRole = "unknown"
)

// KeyColumn is a column of an access pattern's table.
type KeyColumn struct {
	Name, Type string
	Role       ColumnRole
}

// KeyPattern is an access pattern the lab offers: its question, the table's columns, and the
// key the cql3 backend's own table gives it (Partition, Clustering: the lesson's answer).
type KeyPattern struct {
	ID, What, Query string // "userline", "a user's tweets, newest first", "Q2"
	Columns         []KeyColumn
	// Desc says the query wants the Ordered column descending (newest first).
	Desc       bool
	Partition  []string
	Clustering []ClusteringChoice
	// Unique are the columns that make a row unique beside those the query names or orders
	// by: the method's rules cluster them last (RulesKey).
	Unique []string
}

// KeyPatterns are the access patterns of the lab.
var KeyPatterns = []KeyPattern{
	{ID: "userline", What: "a user's tweets, newest first", Query: "Q2", Desc: true, Columns: []KeyColumn{
		{"username", "text", Given}, {"day", "date", Bucket}, {"time", "timeuuid", Ordered}, {"tweet_id", "timeuuid", Unknown}, {"body", "text", Unknown}},
		Partition: []string{"username"}, Clustering: []ClusteringChoice{{"time", true}}},
	{ID: "public", What: "everyone's tweets, newest first", Query: "Q4", Desc: true, Columns: []KeyColumn{
		{"line", "text", Constant}, {"day", "date", Bucket}, {"time", "timeuuid", Ordered}, {"author", "text", Unknown}, {"body", "text", Unknown}},
		Partition: []string{"day"}, Clustering: []ClusteringChoice{{"time", true}}},
	{ID: "followers", What: "who follows a user", Query: "Q5", Columns: []KeyColumn{
		{"username", "text", Given}, {"follower", "text", Unknown}, {"since", "timestamp", Unknown}},
		Partition: []string{"username"}, Clustering: []ClusteringChoice{{"follower", false}}, Unique: []string{"follower"}},
	{ID: "user", What: "a user by username", Query: "Q1", Columns: []KeyColumn{
		{"id", "uuid", Unknown}, {"username", "text", Given}, {"created_at", "timestamp", Unknown}},
		Partition: []string{"username"}},
}

// MaxClustering bounds the clustering columns of a choice.
const MaxClustering = 2

// LookupPattern returns the pattern of that ID.
func LookupPattern(id string) (KeyPattern, bool) {
	ps := DesignPatterns()
	i := slices.IndexFunc(ps, func(p KeyPattern) bool { return p.ID == id })
	if i < 0 {
		return KeyPattern{}, false
	}
	return ps[i], true
}

// Column returns the pattern's column of that name.
func (p KeyPattern) Column(name string) (KeyColumn, bool) {
	i := slices.IndexFunc(p.Columns, func(c KeyColumn) bool { return c.Name == name })
	if i < 0 {
		return KeyColumn{}, false
	}
	return p.Columns[i], true
}

// Answer is the pattern's own key, as a choice.
func (p KeyPattern) Answer() KeyChoice {
	return KeyChoice{Pattern: p.ID, Partition: p.Partition, Clustering: p.Clustering}
}

// ClusteringChoice is a clustering column and its order.
type ClusteringChoice struct {
	Column string
	Desc   bool
}

// KeyChoice is a learner's primary key for a pattern's table.
type KeyChoice struct {
	Pattern    string
	Partition  []string // the partition key's columns, in order
	Clustering []ClusteringChoice
}

// Validate checks the choice against its pattern and returns the pattern: a known pattern,
// at least one of its columns in the partition key, at most MaxClustering clustering columns,
// each column of the pattern used once at most. Anything else is domain.ErrInvalid.
func (k KeyChoice) Validate() (KeyPattern, error) {
	p, ok := LookupPattern(k.Pattern)
	if !ok {
		return p, domain.Invalid("pattern", "no access pattern %q", k.Pattern)
	}
	if len(k.Partition) == 0 {
		return p, domain.Invalid("partition", "a partition key needs at least one column")
	}
	if len(k.Clustering) > MaxClustering {
		return p, domain.Invalid("clustering", "at most %d clustering columns", MaxClustering)
	}
	seen := map[string]bool{}
	use := func(name string) error {
		if _, ok := p.Column(name); !ok {
			return domain.Invalid("key", "the table of %q has no column %q", p.What, name)
		}
		if seen[name] {
			return domain.Invalid("key", "column %q is twice in the key", name)
		}
		seen[name] = true
		return nil
	}
	for _, c := range k.Partition {
		if err := use(c); err != nil {
			return p, err
		}
	}
	for _, c := range k.Clustering {
		if err := use(c.Column); err != nil {
			return p, err
		}
	}
	return p, nil
}

// String is the key as CQL writes it: PRIMARY KEY ((a, b), c) and the clustering order.
func (k KeyChoice) String() string {
	pk := ""
	for i, c := range k.Partition {
		if i > 0 {
			pk += ", "
		}
		pk += c
	}
	if len(k.Partition) > 1 {
		pk = "(" + pk + ")"
	}
	s, order := "PRIMARY KEY ("+pk, ""
	for i, c := range k.Clustering {
		s += ", " + c.Column
		if i > 0 {
			order += ", "
		}
		order += c.Column + map[bool]string{true: " DESC", false: " ASC"}[c.Desc]
	}
	s += ")"
	if order != "" {
		s += " WITH CLUSTERING ORDER BY (" + order + ")"
	}
	return s
}

// Outcome is what Cassandra made of a pattern's query on the learner's table.
type Outcome string

// The outcomes.
const (
	// OnePartition: the query named the whole partition key: one partition read.
	OnePartition Outcome = "one-partition"
	// ManyPartitions: the query listed partitions (IN): each read, the coordinator merging.
	ManyPartitions Outcome = "many-partitions"
	// EveryPartition: the query named no partition: a scan of the whole table, on every node.
	EveryPartition Outcome = "every-partition"
	// NeedsFiltering: Cassandra refused the query unless it says ALLOW FILTERING; the lab ran
	// it again so, reading every partition and dropping what does not match.
	NeedsFiltering Outcome = "allow-filtering"
	// Refused: Cassandra refused the query with no way round (an order it cannot give).
	Refused Outcome = "refused"
)

// KeyTrial is one trial: the scratch table, the statements run, and Cassandra's answer.
type KeyTrial struct {
	Choice     KeyChoice
	Keyspace   string
	Table      string
	Created    bool // the table was made for this trial (else reused)
	Statements []LabStatement
	Outcome    Outcome
	// Partitions is how many partitions the query read (the table's all for a scan), Held how
	// many the table holds, Rows how many rows came back.
	Partitions, Held, Rows int
	// Message is Cassandra's refusal (InvalidRequest), when it refused.
	Message string
}

// LabStatement is one statement the lab ran: its CQL, how long it took, how many rows it
// returned (-1 for a write), and its error.
type LabStatement struct {
	CQL   string
	Took  time.Duration
	Rows  int
	Error string
}

// NoQueryLab is the answer of a store without CQL: ErrNoQueryLab, with why.
func NoQueryLab(why string) error { return fmt.Errorf("%w: %s", ErrNoQueryLab, why) }
