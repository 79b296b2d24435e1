package teaching

import (
	"context"
	"regexp"
	"time"

	"twissandra/domain"
)

// IndexLab is the lesson on finding a user by a column that is not the key, four ways, on a
// real node: the seeds' hand-kept index table (a table keyed by the name beside the table keyed
// by the id), a secondary index (2i), a materialized view and a storage-attached index (SAI,
// 5.0). Each way has a base table keyed by the user's id, as the seeds' User rows are keyed by a
// UUID; a run writes the learner's user into each way, reads it back by name, and probes what
// each way cannot do, every statement traced by the node (system_traces), so that a page shows
// what each write and each read cost and which nodes did the work.
//
// Only a node can answer; a store without one has no IndexLab (nil). The tables are the lab's
// own, made at its first use; the learner's rows are apart from every other learner's (their
// name carries their scope) and expire; the runs are bounded for the whole cluster.
type IndexLab interface {
	// FindUser writes the user name of learner into each way and looks it up by name each way.
	// A name that is not a username is domain.ErrInvalid; a learner or a cluster past its runs
	// of the minute is ErrTooManyTrials.
	FindUser(ctx context.Context, learner, name string) (IndexRun, error)
}

// The ways, in the order a lesson shows them.
const (
	WayTable = "table" // the hand-kept index table, the seeds' Username
	Way2i    = "2i"    // a secondary index (CREATE INDEX)
	WayView  = "mv"    // a materialized view keyed by the name
	WaySAI   = "sai"   // a storage-attached index (CREATE INDEX ... USING 'sai')
)

// Ways are the four ways, in order.
var Ways = []string{WayTable, Way2i, WayView, WaySAI}

// IndexRun is one run of the lab: the user as stored, and each way's statements.
type IndexRun struct {
	Keyspace string
	// User is the name as stored (the learner's name and their scope), ID its id.
	User, ID string
	// Nodes is how many nodes the cluster has, as the driver sees it.
	Nodes int
	Ways  []WayRun
}

// Way is the run's way of that name.
func (r IndexRun) Way(name string) (WayRun, bool) {
	for _, w := range r.Ways {
		if w.Way == name {
			return w, true
		}
	}
	return WayRun{}, false
}

// WayRun is what one way did: its schema, the writes of the user and the reads that find it by
// name, each traced, and the probes of what it cannot do.
type WayRun struct {
	Way string
	// DDL are the statements that make the way's tables (IF NOT EXISTS: sent once per server).
	DDL []string
	// Refused is the node's refusal of the way's DDL (a view where views are disabled): the way
	// has no writes or reads then.
	Refused string
	Write   []TracedStatement
	Read    []TracedStatement
	// Found is how many rows the last read found.
	Found int
	// Cannot are statements the way cannot run, and what the node said.
	Cannot []TracedStatement
}

// TracedStatement is one statement, exactly as sent, and what the node's tracing says of it.
type TracedStatement struct {
	CQL  string
	Rows int // rows read; -1 for a write or a refusal
	// Error is the node's refusal, when it refused.
	Error string
	Took  time.Duration
	// Sources are the nodes the trace shows working on it (its events' sources), sorted;
	// Events its activities in order, "source: activity". Both empty when it was not traced.
	Sources []string
	Events  []string
	// TraceID is the trace's session in system_traces ("" when it was not traced).
	TraceID string
}

// RangeRead says the trace shows the coordinator asking token ranges (every node's share of
// the ring), not one partition's replicas.
func (t TracedStatement) RangeRead() bool { return anyEvent(t, rangeRequests) }

// ReadBeforeWrite says the trace of a write shows the node reading before it wrote.
func (t TracedStatement) ReadBeforeWrite() bool { return anyEvent(t, partitionRead) }

var (
	rangeRequests = regexp.MustCompile(`(?i)range requests`)
	partitionRead = regexp.MustCompile(`(?i)Executing single-partition query|Read \d+ live rows`)
)

func anyEvent(t TracedStatement, re *regexp.Regexp) bool {
	for _, e := range t.Events {
		if re.MatchString(e) {
			return true
		}
	}
	return false
}

// CheckIndexName checks a name for the lab: a username, by the domain's rules.
func CheckIndexName(name string) error { return domain.ValidateUsername(name) }
