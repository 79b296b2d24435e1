package teaching

import (
	"context"
	"fmt"
	"strings"

	"twissandra/domain"
)

// The consistency lab: one row kept by a ring of three replicas, each its own node, written at
// one consistency level and read at another, on a virtual clock. Each message between the
// coordinator (the node the client talks to) and a replica takes that replica's delay, drawn
// from a seeded random source around the delay the learner set (an exponential draw, as real
// networks and mutation stages vary), so that a run is deterministic: the same ring and seed
// give the same run, and a test needs no sleep.
//
// The rules are Cassandra 0.6's (StorageProxy):
//   - a level blocks for a number of replicas: ONE 1, QUORUM N/2+1, ALL N. When fewer replicas
//     are up than the level blocks for, the coordinator sends nothing and the call fails with
//     UnavailableException;
//   - a write goes to every live replica and answers once as many as the level blocks for have
//     acknowledged it; the others apply it when it reaches them. For a stopped replica a live
//     one keeps a hint (hinted handoff) and replays the row to it when it comes back;
//   - a read at ONE asks one replica, the first live one in the snitch's order (here the one of
//     the smallest delay), and answers with what it holds; a consistency check then compares
//     the other replicas in the background. A read at QUORUM or ALL asks every live replica and
//     answers, once the level's number of them have replied, with the newest version among
//     those replies. Either way, the replicas found older get the newest version (read repair).
//
// A read is stale when it answers with something older than the last write that was
// acknowledged before it began. With N = 3 replicas, a write at W and a read at R overlap in
// at least one replica whenever R + W > N, and a read can then never be stale.

// RingReplicas is the number of replicas of the lab's row (N).
const RingReplicas = 3

// The lab's bounds.
const (
	MaxRingDelay = 10_000_000 // microseconds: a replica's delay is at most 10 s
	MaxTrials    = 100_000    // trials of one pair of levels in one run
)

// Levels are the consistency levels of the lab, in the order the pages show them.
var Levels = []string{"ONE", "QUORUM", "ALL"}

// BlockFor is how many of n replicas a level waits for; an unknown level is domain.ErrInvalid.
func BlockFor(level string, n int) (int, error) {
	switch strings.ToUpper(strings.TrimSpace(level)) {
	case "ONE":
		return 1, nil
	case "QUORUM":
		return n/2 + 1, nil
	case "ALL":
		return n, nil
	}
	return 0, domain.Invalid("level", "must be ONE, QUORUM or ALL, not %q", level)
}

// LabRing is the lab's ring: each replica's delay (microseconds, one way, coordinator to replica,
// the mean of its draws) and whether it is stopped. The replicas are A, B and C, in ring order.
type LabRing struct {
	Delays  [RingReplicas]int64
	Stopped [RingReplicas]bool
}

// Check says what is wrong with r: a delay out of bounds.
func (r LabRing) Check() error {
	for i, d := range r.Delays {
		if d < 0 || d > MaxRingDelay {
			return domain.Invalid("delay", "replica %s's delay must be from 0 to %d µs", ReplicaName(i), MaxRingDelay)
		}
	}
	return nil
}

// ReplicaName is the name of replica i: A, B, C.
func ReplicaName(i int) string { return string(rune('A' + i)) }

// ConsistencyStep is what a learner asks the ring for: start or stop replicas (Ring.Stopped:
// a replica stopped before and not now comes back, and receives its hints first), then
// write Value at Write (none when Write is empty), then, Gap microseconds after the write
// answered, read at Read (none when Read is empty). Seed draws the delays.
type ConsistencyStep struct {
	Ring  LabRing
	Value string
	Write string
	Read  string
	Gap   int64
	Seed  uint64
}

// RingEvent is one moment of a step on the virtual clock: At microseconds after the step
// began, what happened (the Thrift call a replica applied, a reply, an answer to the client).
type RingEvent struct {
	At      int64
	Replica string // "A", "B", "C", or "" for the coordinator
	What    string
}

// RingMessage is one message of a step: Kind "write", "ack", "read", "check" (0.6's consistency
// check after a read at ONE), "reply", "repair" or "hint", sent at Sent and arrived at At, from
// a replica (or "" for the coordinator) to a replica (or "").
type RingMessage struct {
	Kind     string
	From, To string
	Sent, At int64
}

// ReplicaReply is what one replica answered a read: Answered says it was among the replies
// the level waited for.
type ReplicaReply struct {
	Replica  string
	At       int64 // when its reply reached the coordinator
	Found    bool
	Value    string
	TS       int64
	Answered bool
}

// ReplicaHeld is what a replica stores of the row at the end of a step: the column (Found
// false: nothing), and the hints it keeps for stopped replicas.
type ReplicaHeld struct {
	Replica string
	Stopped bool
	Found   bool
	Value   string
	TS      int64
	Hints   []string // the replicas it keeps a hint for
}

// ConsistencyRun is what a step did. Unavailable is the UnavailableException of the write or
// the read (empty when it did not fail); Stale says the read answered with something older
// than the write acknowledged before it.
type ConsistencyRun struct {
	Key      string // the row key of the lab's row on every replica
	Column   string
	Step     ConsistencyStep
	Events   []RingEvent
	Messages []RingMessage

	WriteTS          int64 // the write's timestamp
	WriteAnswered    int64 // when the write answered the client (virtual µs)
	WriteAcks        []string
	WriteUnavailable string
	Hinted           []string // the stopped replicas a live one keeps a hint for

	ReadAsked       int64 // when the read began
	ReadAnswered    int64
	Replies         []ReplicaReply
	ReadUnavailable string
	ReadFound       bool
	ReadValue       string
	ReadTS          int64
	Stale           bool
	// Expected is the value the last acknowledged write stored (and ExpectedTS its timestamp),
	// against which the read is stale or not.
	Expected   string
	ExpectedTS int64
	Repaired   []string // the replicas the read repair sent the newest version to
	Delivered  []string // the hints delivered at the start of the step
	Held       []ReplicaHeld
}

// TrialPair is what many trials of one write level and one read level gave: each trial writes
// a new value and reads it back Gap after the write answered.
type TrialPair struct {
	Write, Read string
	Overlap     bool // R + W > N
	Trials      int
	Unavailable int // trials that failed with UnavailableException (all or none)
	Stale       int
	// Applied and Reads count what the trials did to the replicas: versions applied (writes,
	// repairs) and rows read.
	Applied, Reads int
}

// StaleRate is the share of the available trials that read a stale value.
func (p TrialPair) StaleRate() float64 {
	if ok := p.Trials - p.Unavailable; ok > 0 {
		return float64(p.Stale) / float64(ok)
	}
	return 0
}

// TrialRun is a run of trials for every pair of levels on one ring.
type TrialRun struct {
	Ring   LabRing
	Gap    int64
	Seed   uint64
	Trials int
	Pairs  []TrialPair // write level by write level, each read level within
}

// ConsistencyLab is the consistency lab on the lab's scratch engine: three engine nodes, one per
// replica, each browser's row of its own on them (its session, as ColumnLab's).
type ConsistencyLab interface {
	// Step plays s on the session's row. A ring out of bounds, an unknown level or a value
	// too long is domain.ErrInvalid; an unavailable level is no error, but the run says so.
	Step(ctx context.Context, session string, s ConsistencyStep) (ConsistencyRun, error)
	// Trials runs trials steps of every pair of levels on ring, each with a fresh value, seeded
	// by seed, and counts the stale reads. More than MaxTrials is domain.ErrInvalid.
	Trials(ctx context.Context, ring LabRing, gap int64, seed uint64, trials int) (TrialRun, error)
}

// ClusterLevels tries each consistency level on the running cql3 backend's cluster: a write and
// a read of one row of the race's sandbox at ONE, QUORUM and ALL, and says, from the driver,
// which succeeded and which the coordinator refused as Unavailable (how many replicas the
// level required, and how many it held alive).
type ClusterLevels interface {
	TryLevels(ctx context.Context) (LevelTrial, error)
}

// LevelTrial is what TryLevels found.
type LevelTrial struct {
	Keyspace    string
	Replication string // the keyspace's replication, as the driver's metadata says it
	Levels      []LevelTry
}

// LevelTry is one level's write and read.
type LevelTry struct {
	Level       string
	Write, Read LevelOutcome
}

// LevelOutcome is one statement at one level: OK, or Unavailable (Required and Alive from the
// coordinator's answer), or another failure (Error: a timeout, say).
type LevelOutcome struct {
	Statement   string
	OK          bool
	Unavailable bool
	Required    int
	Alive       int
	Error       string
}

// String says how the statement ended: "succeeded", "Unavailable: 2 replicas required, 1
// alive", or "failed: " and the error.
func (o LevelOutcome) String() string {
	switch {
	case o.OK:
		return "succeeded"
	case o.Unavailable:
		return fmt.Sprintf("Unavailable: %d replicas required, %d alive", o.Required, o.Alive)
	}
	return "failed: " + o.Error
}
