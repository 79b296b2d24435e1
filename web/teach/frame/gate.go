package frame

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/web/site"
)

// GateLimits are a gate's bounds: at most Total runs at once on this server, PerLearner at
// once from one learner (LearnerID: a signed-in user, else a browser's session), PerMinute
// begun in a minute by one learner, and PerAddress begun in a minute by all the learners
// behind one address together. The last is what bounds a client that makes itself a new
// session at every request: a class behind one address shares it, so it is set high enough
// for a class (labs.DefaultGates), and a client minting sessions gets no more than the class.
type GateLimits struct {
	Total, PerLearner, PerMinute, PerAddress int
}

// Gates are the bounds of the runs anyone may start, one GateLimits per gate; a zero figure is
// its default (labs.DefaultGates). They are flags of serve (--gate-race and the others).
type Gates struct {
	// Race bounds the uniqueness race, Lab the comparator lab's writes and the lessons' steps
	// on the running store, Trials the consistency lab's runs of trials, Rings the tokens
	// lesson's rings, Sandbox the celebrity lesson's sandboxes, and Runs each lesson's run on
	// a node (a key trial, a counter run, an index lookup, an address book run: a gate each,
	// with these bounds).
	Race, Lab, Trials, Rings, Sandbox, Runs GateLimits
}

// Or is l with each zero figure taken from def.
func (l GateLimits) Or(def GateLimits) GateLimits {
	pick := func(v, d int) int {
		if v > 0 {
			return v
		}
		return d
	}
	return GateLimits{Total: pick(l.Total, def.Total), PerLearner: pick(l.PerLearner, def.PerLearner),
		PerMinute: pick(l.PerMinute, def.PerMinute), PerAddress: pick(l.PerAddress, def.PerAddress)}
}

// Or is g with each zero figure taken from def.
func (g Gates) Or(def Gates) Gates {
	return Gates{Race: g.Race.Or(def.Race), Lab: g.Lab.Or(def.Lab), Trials: g.Trials.Or(def.Trials),
		Rings: g.Rings.Or(def.Rings), Sandbox: g.Sandbox.Or(def.Sandbox), Runs: g.Runs.Or(def.Runs)}
}

// Gate admits the runs of a teaching action that costs the server real work (the race's
// hundreds of sign-ups, the lab's writes, the consistency trials), which anyone may start
// without logging in, under its GateLimits. A learner is LearnerID's: a class behind one
// address is counted learner by learner, and the address's total bounds a client that drops
// its cookies or makes a new session at every request. A run it cannot admit is refused
// with 429 and Retry-After; one that only finds the server's slots full waits a few seconds for
// one (EnterWait), never longer and never more than a few per slot: an unbounded queue would hold
// connections for as long as clients like. The page states the bounds (the gate's own figures, never a copy).
type Gate struct {
	What string // "race", as the refusal names it
	GateLimits

	slots chan struct{}
	Now   func() time.Time

	mu      sync.Mutex
	running map[string]int
	begun   map[string][]time.Time // a learner's, oldest first, at most PerMinute
	addrs   map[string]*addrCount
	waiting atomic.Int64 // runs waiting for a slot (EnterWait)
}

// addrCount is what an address began in the last minute, by the second: at most 60 entries,
// oldest first, however many runs.
type addrCount struct {
	secs  []secCount
	total int
}

type secCount struct {
	at int64 // Unix seconds
	n  int
}

// expire forgets the seconds a minute old at now.
func (a *addrCount) expire(now time.Time) {
	cut := 0
	for cut < len(a.secs) && now.Unix()-a.secs[cut].at >= 60 {
		a.total -= a.secs[cut].n
		cut++
	}
	a.secs = a.secs[cut:]
}

func (a *addrCount) add(now time.Time) {
	if n := len(a.secs); n > 0 && a.secs[n-1].at == now.Unix() {
		a.secs[n-1].n++
	} else {
		a.secs = append(a.secs, secCount{at: now.Unix(), n: 1})
	}
	a.total++
}

// remove takes back a run added at now, if its second is still counted.
func (a *addrCount) remove(now time.Time) {
	for k := len(a.secs) - 1; k >= 0; k-- {
		if a.secs[k].at == now.Unix() {
			a.total--
			if a.secs[k].n--; a.secs[k].n == 0 {
				a.secs = slices.Delete(a.secs, k, k+1)
			}
			return
		}
	}
}

// gateMaxKeys bounds the learners and the addresses a gate remembers; past it, it forgets
// their runs begun (a client minting sessions fills the learners' map, and finds its address's
// count kept).
const gateMaxKeys = 10_000

// NewGate makes a gate of what ("race") under l.
func NewGate(what string, l GateLimits) *Gate {
	return &Gate{What: what, GateLimits: l, slots: make(chan struct{}, l.Total), Now: time.Now,
		running: map[string]int{}, begun: map[string][]time.Time{}, addrs: map[string]*addrCount{}}
}

// Enter admits one run of learner from addr, or says why not and how long to wait. leave ends
// the run. It never waits: see EnterWait.
func (g *Gate) Enter(learner, addr string) (leave func(), wait time.Duration, why string) {
	return g.EnterWait(context.Background(), learner, addr, 0)
}

// EnterWait is Enter, except that a run refused only because the server's Total are running
// waits up to patience for one of them to end: a class pressing a lesson's button at the same
// moment is served a moment later rather than refused. The wait is bounded twice: in time
// (patience, and the request's ctx), and in number (at most gateMaxWaiters times Total runs
// wait at once; past them a run is refused at once), so waiting holds only so many connections.
func (g *Gate) EnterWait(ctx context.Context, learner, addr string, patience time.Duration) (leave func(), wait time.Duration, why string) {
	now := g.Now()
	g.mu.Lock()
	begun := g.begun[learner]
	for len(begun) > 0 && now.Sub(begun[0]) >= time.Minute {
		begun = begun[1:]
	}
	ac := g.addrs[addr]
	if ac != nil {
		ac.expire(now)
	}
	switch {
	case len(begun) >= g.PerMinute:
		g.mu.Unlock()
		return nil, begun[0].Add(time.Minute).Sub(now), "you have begun " + strconv.Itoa(g.PerMinute) + " a minute"
	case g.running[learner] >= g.PerLearner:
		g.mu.Unlock()
		return nil, time.Second, "yours is still running"
	case ac != nil && ac.total >= g.PerAddress:
		g.mu.Unlock()
		return nil, time.Unix(ac.secs[0].at+60, 0).Sub(now), strconv.Itoa(g.PerAddress) + " were begun in a minute from your address"
	}
	// The run is counted (the learner's, the address's) before it waits for a slot, so that
	// runs arriving meanwhile meet the bounds exactly, and uncounted if it gets none.
	if len(g.begun) >= gateMaxKeys {
		clear(g.begun)
	}
	g.begun[learner] = append(begun, now)
	if ac == nil {
		if len(g.addrs) >= gateMaxKeys {
			clear(g.addrs)
		}
		ac = &addrCount{}
		g.addrs[addr] = ac
	}
	ac.add(now)
	g.running[learner]++
	g.mu.Unlock()
	if !g.takeSlot(ctx, patience) {
		g.mu.Lock()
		if g.running[learner]--; g.running[learner] == 0 {
			delete(g.running, learner)
		}
		if b := g.begun[learner]; len(b) > 0 {
			if k := slices.Index(b, now); k >= 0 {
				g.begun[learner] = slices.Delete(b, k, k+1)
			}
		}
		ac.remove(now)
		g.mu.Unlock()
		return nil, time.Second, strconv.Itoa(g.Total) + " are running on this server"
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			<-g.slots
			g.mu.Lock()
			if g.running[learner]--; g.running[learner] == 0 {
				delete(g.running, learner)
			}
			g.mu.Unlock()
		})
	}, 0, ""
}

// Waiting is how many runs wait for a slot now.
func (g *Gate) Waiting() int { return int(g.waiting.Load()) }

// gateMaxWaiters is how many runs, per run the server may hold at once, may wait for a slot.
const gateMaxWaiters = 8

// takeSlot takes one of the server's Total slots: at once, or within patience while fewer than
// gateMaxWaiters*Total wait.
func (g *Gate) takeSlot(ctx context.Context, patience time.Duration) bool {
	select {
	case g.slots <- struct{}{}:
		return true
	default:
	}
	if patience <= 0 {
		return false
	}
	if g.waiting.Add(1) > int64(gateMaxWaiters*g.Total) {
		g.waiting.Add(-1)
		return false
	}
	defer g.waiting.Add(-1)
	t := time.NewTimer(patience)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

// Bounds is the sentence a page states the gate's bounds in.
func (g *Gate) Bounds() string {
	return "At most " + strconv.Itoa(g.Total) + " run at once on this server; from one learner (signed in, else a browser's session) " +
		strconv.Itoa(g.PerLearner) + " at a time and " + strconv.Itoa(g.PerMinute) + " a minute; from one address, all its learners together, " +
		strconv.Itoa(g.PerAddress) + " a minute."
}

// Learner is whom a gate and a lab count a request's runs against: LearnerID's name, made for
// a browser that has no session yet. A request of the API, which has no session, is its
// token's user (SetLearner), else its client's: the browser's device, else its address.
func (h *Base) Learner(c *gin.Context) string {
	if id := c.GetString(keyLearner); id != "" {
		return id
	}
	if _, ok := c.Get(sessions.DefaultKey); ok {
		return LearnerID(c, true)
	}
	if cl := h.Site.LoginClient(c); cl.Device != "" {
		return "device:" + cl.Device
	}
	return "addr:" + Address(c)
}

// keyLearner is the gin context's key of a learner the API named (SetLearner).
const keyLearner = "twissandra.learner"

// SetLearner names the learner of an API request whose token names a user: "user:<name>".
func SetLearner(c *gin.Context, username string) { c.Set(keyLearner, "user:"+username) }

// Address is the address a gate counts a request's learners together under: the client's, an
// IPv6 client by its /64 (social.LoginKeys), as the log-in limit counts it.
func Address(c *gin.Context) string {
	_, a := social.LoginKeys("", c.ClientIP())
	return a
}

// GatePatience is how long a page's or the API's run waits for one of the server's slots when
// only they are full (EnterWait).
const GatePatience = 3 * time.Second

// EnterFor admits one run of the request's learner, or refuses it: Retry-After set, and a
// *domain.RetryError whose message says why, the gate's bounds and when to try again.
func (h *Base) EnterFor(c *gin.Context, g *Gate) (leave func(), err error) {
	leave, wait, why := g.EnterWait(c.Request.Context(), h.Learner(c), Address(c), GatePatience)
	if leave != nil {
		return leave, nil
	}
	secs := max(1, int((wait+time.Second-1)/time.Second))
	c.Header("Retry-After", strconv.Itoa(secs))
	return nil, &domain.RetryError{After: time.Duration(secs) * time.Second,
		Message: site.Sentence("the "+g.What+" could not start: "+why) + " " + g.Bounds() + " Try again in " + strconv.Itoa(secs) + " seconds."}
}

// Admit is the gate as middleware of a page's POST: a run it cannot admit gets the 429 page.
func (h *Base) Admit(g *Gate) gin.HandlerFunc {
	return func(c *gin.Context) {
		leave, err := h.EnterFor(c, g)
		if err != nil {
			h.Site.ErrorPage(c, http.StatusTooManyRequests, "Too many at once", err.Error())
			c.Abort()
			return
		}
		defer leave()
		c.Next()
	}
}
