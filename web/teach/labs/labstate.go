package labs

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
)

// The lab's and the race's forms are answered with a redirect (post, redirect, get): a reload of
// the page after it reads again and runs nothing twice, and its address can be bookmarked. What
// a form did is kept here for the pages after it, per browser (the lab's random id in its
// session cookie), as the action's cost is: the result of each kind of form until the next of
// its kind replaces it, and a refusal once, for the next page only.

// LabSession is the browser's lab id (frame.BrowserID); create makes one when the session has
// none.
func LabSession(c *gin.Context, create bool) string { return frame.BrowserID(c, create) }

// labState is what one browser's lab and race forms did last.
type labState struct {
	at time.Time

	Insert   *labInsert
	Slice    *labSliceRun
	LWW      *lwwRun
	Put      *LabPutRun
	Replicas *ReplicaRun
	Race     *raceRun

	Consistency *ConsistencyRun
	Trials      *TrialsRun
	TrialsLast  bool // the trials came after the last step: their form is the one shown
	Levels      *teaching.LevelTrial

	// refused is the last form's refusal, shown once.
	refused *labRefusal
}

// labRefusal is why a form was refused, and which (its part of the page: "insert", "slice",
// "lww", "put", "replicas", "race"), with what the learner had typed.
type labRefusal struct {
	Part string
	Msg  string
	// Form is the refused form's values, shown again in its fields.
	Form map[string]string
}

const (
	maxLabStates = 2048 // browsers remembered; the oldest goes first
	labStateTTL  = 2 * time.Hour
)

type labMemory struct {
	mu    sync.Mutex
	m     map[string]*labState
	order []string // ids, oldest first
}

func newLabMemory() *labMemory { return &labMemory{m: map[string]*labState{}} }

// update changes the state of id under the lock (a fresh one when it has none or it expired).
func (lm *labMemory) update(id string, fn func(s *labState)) {
	lm.mu.Lock()
	defer lm.mu.Unlock()
	s, ok := lm.m[id]
	if !ok || time.Since(s.at) > labStateTTL {
		if ok {
			lm.order = slices.DeleteFunc(lm.order, func(k string) bool { return k == id })
		}
		for len(lm.order) >= maxLabStates {
			delete(lm.m, lm.order[0])
			lm.order = lm.order[1:]
		}
		s = &labState{}
		lm.m[id] = s
		lm.order = append(lm.order, id)
	}
	s.at = time.Now()
	fn(s)
}

// read returns a copy of id's state, taking its refusal (shown once); empty for none.
func (lm *labMemory) read(id string) labState {
	lm.mu.Lock()
	defer lm.mu.Unlock()
	s, ok := lm.m[id]
	if !ok || time.Since(s.at) > labStateTTL {
		return labState{}
	}
	out := *s
	s.refused = nil
	return out
}

// remember keeps what a form did for the browser of c.
func (h *Handler) remember(c *gin.Context, fn func(s *labState)) {
	h.memory.update(LabSession(c, true), fn)
}

// Recalled is what the browser of c did last in the lab and the race: read once a request (a
// refusal is taken by the read), so that every part of a page sees the same.
func (h *Handler) Recalled(c *gin.Context) labState {
	if st, ok := c.Get(keyRecalled); ok {
		return st.(labState)
	}
	var st labState
	if id := LabSession(c, false); id != "" {
		st = h.memory.read(id)
	}
	c.Set(keyRecalled, st)
	return st
}

const keyRecalled = "teach.recalled"

// Refuse keeps a form's refusal for the next page.
func (h *Handler) Refuse(c *gin.Context, part, msg string, form map[string]string) {
	h.remember(c, func(s *labState) { s.refused = &labRefusal{Part: part, Msg: msg, Form: form} })
}

// Refusal is the refusal of part in s, nil if its last form was not refused.
func (s labState) Refusal(part string) *labRefusal {
	if s.refused != nil && s.refused.Part == part {
		return s.refused
	}
	return nil
}

// backTo is where a lab or race form sends the learner back: the page it was on, a lesson of
// the course or the form's own page (home), never anywhere else.
func backTo(c *gin.Context, home string) string {
	back := c.PostForm("back")
	if slug, ok := strings.CutPrefix(back, "/learn/"); ok && frame.IsLesson(slug) {
		return back
	}
	return home
}
