package teaching

import (
	"context"
	"time"
)

// ActionLedger keeps what an action of the pages cost (a post, a follow: its operation record,
// encoded by the teaching views) from the action's request to the page after its redirect,
// which shows it as "what your post cost". Behind a load balancer another server may answer that
// page, so a backend that several servers share keeps the records in the store; one that this
// process alone writes needs no ledger (the teaching views then keep the records in memory).
type ActionLedger interface {
	// KeepAction stores record under key; the store may forget it once ttl has passed.
	KeepAction(ctx context.Context, key string, record []byte, ttl time.Duration) error
	// ActionRecord returns the record kept under key, found false when there is none (never
	// kept, or forgotten).
	ActionRecord(ctx context.Context, key string) (record []byte, found bool, err error)
}
