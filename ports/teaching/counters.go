package teaching

import (
	"context"
	"errors"
	"fmt"
)

// CounterLab is the counters lesson's table on a node: a tweet's likes, a counter column
// (Cassandra 0.8), incremented by the learner's clients in the server's keyspace, each learner's
// rows keyed by the learner, each run's row deleted when the run has read it back. Only a store
// that speaks CQL has counters: the others return an error that wraps ErrNoCounters and says, in
// their own model's terms, why.
//
// The lab is bounded for the whole cluster: a learner may run only so many times a minute on a
// server (ErrTooManyTrials), and the runs of every server together only so many a minute.
type CounterLab interface {
	// Schema is the CREATE TABLE of the lesson's counter table, as the store sends it.
	Schema() string
	// Increments has clients clients (goroutines, each its own statements) each add 1 to one
	// row's counter each times, all at once, then reads the counter back.
	Increments(ctx context.Context, learner string, clients, each int) (CounterRun, error)
	// LostAck has one client add 1 increments times, one statement after the other, through a
	// link that loses the node's answer to the first: the driver, told the statement is
	// idempotent, times out and sends it again. Then it reads the counter back.
	LostAck(ctx context.Context, learner string, increments int) (CounterRun, error)
	// Mixed sends the statements that mix a counter with other columns (a table of both, a
	// batch of both) and returns them with the node's answers.
	Mixed(ctx context.Context, learner string) ([]LabStatement, error)
}

// The bounds of a counter run.
const (
	MaxCounterClients   = 8
	MaxCounterEach      = 10
	MaxCounterIncrement = 10
)

// CounterRun is one run of the counter lab: the row, what the clients meant, what the node
// received, and what it read back.
type CounterRun struct {
	Table string // keyspace.table
	// Learner and Tweet are the row's key: the learner's partition, the run's own row.
	Learner, Tweet string
	// Meant is how many increments the clients meant to make; Sent how many statements the
	// driver sent (its attempts, retries included); Answered how many the node answered and
	// the client heard.
	Meant, Sent, Answered int
	// Count is the counter the node read back after the run.
	Count int64
	// Lost are the node's answers the link lost, in words ("RESULT to attempt 1 of the first
	// increment").
	Lost []string
	// Attempts are the driver's attempts of the increment whose answer was lost (LostAck):
	// each attempt's outcome, as the driver reported it.
	Attempts []string
	// Statements are the statements as sent: each kind once, with how many times it was sent
	// in Rows' place for a write (Sent), then the read and the delete.
	Statements []LabStatement
}

// ErrNoCounters is what a store without CQL answers the counter lab with.
var ErrNoCounters = errors.New("no counters on this backend")

// NoCounters is the answer of a store without counters: ErrNoCounters, with why.
func NoCounters(why string) error { return fmt.Errorf("%w: %s", ErrNoCounters, why) }
