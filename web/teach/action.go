package teach

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"twissandra/ports/oplog"
)

// A form's action (a post, a follow, a sign-up) answers with a redirect, so the page a learner
// sees next was built by another request: its footer would show that request's reads and never
// the action's writes. The action's operations are kept here for the next page, which shows
// "what your post cost" above "what this page cost".
//
// They stay on the server (a fan-out on cql3 is hundreds of statements, too many for a cookie),
// in a bounded store: the session carries only a random key, taken by the next page rendered.

// actionOps is what one action cost.
type actionOps struct {
	Action  string // "your post", "your follow of bob", ...
	Summary string
	Ops     []oplog.Op
	Dropped int
	// Secondary is what the action cost the second model, in compare mode.
	Secondary *opsSet
	at        time.Time
}

// opsSet is what one request cost one model: the second model's side in compare mode.
type opsSet struct {
	Model, Summary string
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
	return &opsSet{Model: model, Summary: shadow.Summary(), Ops: ops, Dropped: dropped, Elapsed: shadow.Elapsed().Round(time.Microsecond)}
}

const (
	keyActionOps   = "action_ops"
	maxActionOps   = 1024 // entries kept; the oldest goes first
	actionOpsTTL   = 10 * time.Minute
	maxActionLines = oplog.MaxRecordedOps
)

type actionStore struct {
	mu    sync.Mutex
	m     map[string]actionOps
	order []string // keys, oldest first
}

func newActionStore() *actionStore { return &actionStore{m: map[string]actionOps{}} }

func (s *actionStore) put(a actionOps) string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	key := hex.EncodeToString(b[:])
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.order) >= maxActionOps {
		delete(s.m, s.order[0])
		s.order = s.order[1:]
	}
	s.m[key] = a
	s.order = append(s.order, key)
	return key
}

func (s *actionStore) take(key string, now time.Time) (actionOps, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.m[key]
	if !ok {
		return actionOps{}, false
	}
	delete(s.m, key)
	if now.Sub(a.at) > actionOpsTTL {
		return actionOps{}, false
	}
	return a, true
}

// keepActionOps saves the operations of the request so far for the next page rendered in this
// session. action names the action for the learner ("your post").
func (h *handler) keepActionOps(c *gin.Context, action string) {
	ops := oplog.LogFrom(c.Request.Context())
	if ops.Len() == 0 {
		return
	}
	lines, dropped := ops.Ops()
	key := h.actions.put(actionOps{Action: action, Summary: ops.Summary(), Ops: lines, Dropped: dropped, Secondary: secondaryOps(ops), at: time.Now()})
	sessions.Default(c).Set(keyActionOps, key)
}

// takeActionOps returns the operations of the session's last action, once.
func (h *handler) takeActionOps(c *gin.Context) *actionOps {
	s := sessions.Default(c)
	key, _ := s.Get(keyActionOps).(string)
	if key == "" {
		return nil
	}
	s.Delete(keyActionOps)
	a, ok := h.actions.take(key, time.Now())
	if !ok {
		return nil
	}
	return &a
}
