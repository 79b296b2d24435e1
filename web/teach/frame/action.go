package frame

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"sync"
	"time"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"twissandra/ports/oplog"
)

// A form's action (a post, a follow, a sign-up) answers with a redirect, so the page a learner
// sees next was built by another request: its footer would show that request's reads and never
// the action's writes. The action's operations are kept for the next page, which shows "what your
// post cost" above "what this page cost".
//
// They are kept in a ledger (teaching.ActionLedger), not in the cookie (a fan-out on cql3 is
// hundreds of statements, too many for one): on cql3, which several servers may share behind a
// load balancer, in the store, so that whichever server answers the redirect shows them; on the
// stores this process alone writes, in this process's memory (memoryLedger). The session carries
// only a random key, taken by the next page rendered. The ledger's own calls are the teaching
// views' upkeep, not the action's cost: they are left out of the operation record.

// actionOps is what one action cost.
type actionOps struct {
	Action  string // "your post", "your follow of bob", ...
	Summary string // its storage calls, and its notes apart (oplog.Log.Headline)
	Ops     []oplog.Op
	Dropped int
	// Secondary is what the action cost the second model, in compare mode.
	Secondary *opsSet
}

// opsSet is what one request cost one model: the second model's side in compare mode.
type opsSet struct {
	Model, Summary string // Summary: as actionOps.Summary
	Ops            []oplog.Op
	Dropped        int
	Elapsed        time.Duration
}

// secondaryOps is the compare mode's second model's side of l, or nil.
func secondaryOps(l *oplog.Log) *opsSet {
	model, shadow := l.Shadowed()
	if shadow == nil {
		return nil
	}
	ops, dropped := shadow.Ops()
	return &opsSet{Model: model, Summary: shadow.Headline(), Ops: ops, Dropped: dropped, Elapsed: shadow.Elapsed().Round(time.Microsecond)}
}

const (
	keyActionOps   = "action_ops"
	maxActionOps   = 1024 // records a memoryLedger keeps; the oldest goes first
	actionOpsTTL   = 10 * time.Minute
	maxActionLines = oplog.MaxRecordedOps
)

// memoryLedger is the teaching.ActionLedger of one process: a bounded map, the oldest record
// going first.
type memoryLedger struct {
	mu    sync.Mutex
	m     map[string]ledgerEntry
	order []string // keys, oldest first
}

type ledgerEntry struct {
	record []byte
	until  time.Time
}

func NewMemoryLedger() *memoryLedger { return &memoryLedger{m: map[string]ledgerEntry{}} }

// KeepAction implements teaching.ActionLedger.
func (l *memoryLedger) KeepAction(_ context.Context, key string, record []byte, ttl time.Duration) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.order) >= maxActionOps {
		delete(l.m, l.order[0])
		l.order = l.order[1:]
	}
	l.m[key] = ledgerEntry{record: record, until: time.Now().Add(ttl)}
	l.order = append(l.order, key)
	return nil
}

// ActionRecord implements teaching.ActionLedger.
func (l *memoryLedger) ActionRecord(_ context.Context, key string) ([]byte, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.m[key]
	if !ok || !time.Now().Before(e.until) {
		return nil, false, nil
	}
	return e.record, true, nil
}

// keepActionOps saves the operations of the request so far for the next page rendered in this
// session. action names the action for the learner ("your post").
func (h *Base) keepActionOps(c *gin.Context, action string) {
	ops := oplog.LogFrom(c.Request.Context())
	if ops.Len() == 0 {
		return
	}
	lines, dropped := ops.Ops()
	record, err := json.Marshal(actionOps{Action: action, Summary: ops.Headline(), Ops: lines, Dropped: dropped, Secondary: secondaryOps(ops)})
	if err != nil {
		h.Log.Error("encode an action's operations", "err", err)
		return
	}
	var b [12]byte
	_, _ = rand.Read(b[:])
	key := hex.EncodeToString(b[:])
	if err := h.Actions.KeepAction(ledgerContext(c), key, record, actionOpsTTL); err != nil {
		h.Log.Warn("keep an action's operations", "err", err) // the page after shows none
		return
	}
	sessions.Default(c).Set(keyActionOps, key)
}

// takeActionOps returns the operations of the session's last action, once.
func (h *Base) takeActionOps(c *gin.Context) *actionOps {
	s := sessions.Default(c)
	key, _ := s.Get(keyActionOps).(string)
	if key == "" {
		return nil
	}
	s.Delete(keyActionOps)
	record, found, err := h.Actions.ActionRecord(ledgerContext(c), key)
	if err != nil {
		h.Log.Warn("read an action's operations", "err", err)
		return nil
	}
	var a actionOps
	if !found || json.Unmarshal(record, &a) != nil {
		return nil
	}
	return &a
}

// ledgerContext is the request's context without its operation record: the ledger's calls are
// not what the action or the page cost.
func ledgerContext(c *gin.Context) context.Context {
	return oplog.With(c.Request.Context(), nil)
}
