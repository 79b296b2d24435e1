package teaching

import (
	"context"
	"time"

	"twissandra/domain"
)

// TTLLab is the TTL lesson's lab on a node (CQL3): a table of its own in the server's keyspace,
// made at first use, a time series keyed by the learner and the day (PRIMARY KEY ((learner,
// day), at)), with a default_time_to_live and TimeWindowCompactionStrategy. A run writes one
// reading USING TTL, perhaps updates one of its columns with another TTL, reads TTL() and
// WRITETIME() back, and, asked to, polls the node until the TTL'd cell is gone (within a
// deadline, never a fixed sleep) and reads the row again. Each run writes one row and reads it;
// the runs of the whole cluster are bounded a minute (ErrTooManyTrials past it), and every row
// expires by itself.
//
// Only a store that speaks CQL has it: 0.6 had no TTL (expiring columns came with 0.7).
type TTLLab interface {
	// TTLTable makes the lesson's table when it is not there yet and reads its options as
	// the node reports them (system_schema.tables).
	TTLTable(ctx context.Context) (TTLTable, error)
	// RunTTL runs s in learner's partition of the table.
	RunTTL(ctx context.Context, learner string, s TTLScenario) (TTLRun, error)
}

// TTLUpdate is what a scenario does to the note column after the insert.
type TTLUpdate string

// The updates of a scenario.
const (
	// NoUpdate leaves the row as inserted.
	NoUpdate TTLUpdate = "none"
	// UpdatePlain is an UPDATE without USING TTL: the table's default_time_to_live applies.
	UpdatePlain TTLUpdate = "plain"
	// UpdateTTL0 is an UPDATE ... USING TTL 0: a cell that never expires, default or not.
	UpdateTTL0 TTLUpdate = "ttl0"
)

// MaxTTLSeconds bounds a scenario's TTL: the lesson waits for it.
const MaxTTLSeconds = 5

// TTLScenario is one run: an INSERT of a reading and a note USING TTL TTL seconds (1 to
// MaxTTLSeconds), then Update of the note, then reads; Wait polls until the reading expired.
type TTLScenario struct {
	TTL    int
	Update TTLUpdate
	Wait   bool
}

// Validate refuses a TTL out of bounds or an unknown update (domain.ErrInvalid).
func (s TTLScenario) Validate() error {
	if s.TTL < 1 || s.TTL > MaxTTLSeconds {
		return domain.Invalid("ttl", "a TTL of 1 to %d seconds, not %d", MaxTTLSeconds, s.TTL)
	}
	switch s.Update {
	case NoUpdate, UpdatePlain, UpdateTTL0:
		return nil
	}
	return domain.Invalid("update", "no update %q", s.Update)
}

// TTLTable is the lesson's table: its CQL as made, and its options as the node reports them.
type TTLTable struct {
	Keyspace, Name string
	CQL            string
	// DefaultTTL and GCGrace are default_time_to_live and gc_grace_seconds; Compaction the
	// compaction map (class and options) as system_schema.tables holds it.
	DefaultTTL, GCGrace int
	Compaction          map[string]string
	// Read is the statement that read them.
	Read string
}

// TTLRead is the row as one SELECT read it: TTL() in seconds left (nil: no TTL, or no cell),
// WRITETIME() in microseconds.
type TTLRead struct {
	At                              time.Duration // since the insert
	Found                           bool
	Reading                         *int
	Note                            *string
	TTLReading, TTLNote             *int
	WriteTimeReading, WriteTimeNote *int64
}

// TTLRun is what a run did: the statements as sent (their CQL and values), the row read after
// the writes, and, when it waited, each poll and the row read once the reading expired.
type TTLRun struct {
	Table      TTLTable
	Scenario   TTLScenario
	Learner    string
	Day        string
	Statements []TTLStatement
	Before     TTLRead
	Polls      []TTLRead
	After      *TTLRead
	// Trace is, after a wait, the node's own count of what a traced read of the row met once
	// the reading had expired (its "Read N live rows and M tombstone cells" event), when the
	// trace recorded it in time.
	Trace *TTLTrace
}

// TTLTrace is what a traced read reported: its events in order, and the live rows and the
// tombstone cells it counted.
type TTLTrace struct {
	Events     []string
	Live       int
	Tombstones int
}

// TTLStatement is a statement of a run as the driver sent it: its CQL, and the values bound to
// its markers, as text.
type TTLStatement struct {
	CQL    string
	Values []string
	Took   time.Duration
	Error  string
	// Traced says the statement was sent with tracing on.
	Traced bool
}
