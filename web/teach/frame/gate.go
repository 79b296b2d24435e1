package frame

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/web/site"
)

// Gate admits the runs of a teaching action that costs the server real work (the race's
// hundreds of sign-ups, the lab's writes, the consistency trials), which anyone may start
// without logging in: at most Total at once on this server, at most PerAddr at once from one
// learner, and at most PerMinute begun in a minute by one learner. A learner is a browser's
// device (a signed cookie given at a log-in or a sign-up, which a client cannot make up), else
// its address: a classroom behind one address is counted learner by learner, and a client
// without a device by its address. A run it cannot admit is refused at once with
// 429 and Retry-After, never queued: a queue would hold connections for as long as a client
// likes. The page states the bounds (the gate's own figures, never a copy).
type Gate struct {
	What      string // "race", as the refusal names it
	Total     int
	PerAddr   int
	PerMinute int

	slots chan struct{}
	Now   func() time.Time

	mu      sync.Mutex
	running map[string]int
	begun   map[string][]time.Time // oldest first, at most PerMinute per address
}

// gateMaxAddrs bounds the addresses a gate remembers; past it, it forgets the runs begun.
const gateMaxAddrs = 10_000

func NewGate(what string, total, perAddr, perMinute int) *Gate {
	return &Gate{What: what, Total: total, PerAddr: perAddr, PerMinute: perMinute,
		slots: make(chan struct{}, total), Now: time.Now, running: map[string]int{}, begun: map[string][]time.Time{}}
}

// Enter admits one run from addr, or says why not and how long to wait. leave ends the run.
func (g *Gate) Enter(addr string) (leave func(), wait time.Duration, why string) {
	now := g.Now()
	g.mu.Lock()
	defer g.mu.Unlock()
	begun := g.begun[addr]
	for len(begun) > 0 && now.Sub(begun[0]) >= time.Minute {
		begun = begun[1:]
	}
	switch {
	case len(begun) >= g.PerMinute:
		return nil, begun[0].Add(time.Minute).Sub(now), "you have begun " + strconv.Itoa(g.PerMinute) + " a minute"
	case g.running[addr] >= g.PerAddr:
		return nil, time.Second, "yours is still running"
	}
	select {
	case g.slots <- struct{}{}:
	default:
		return nil, time.Second, strconv.Itoa(g.Total) + " are running on this server"
	}
	if len(g.begun) >= gateMaxAddrs {
		clear(g.begun)
	}
	g.begun[addr] = append(begun, now)
	g.running[addr]++
	var once sync.Once
	return func() {
		once.Do(func() {
			<-g.slots
			g.mu.Lock()
			if g.running[addr]--; g.running[addr] == 0 {
				delete(g.running, addr)
			}
			g.mu.Unlock()
		})
	}, 0, ""
}

// Bounds is the sentence a page states the gate's bounds in.
func (g *Gate) Bounds() string {
	return "At most " + strconv.Itoa(g.Total) + " run at once on this server, " + strconv.Itoa(g.PerAddr) +
		" at a time and " + strconv.Itoa(g.PerMinute) + " a minute from one browser (or, for a browser that never signed in, from one address)."
}

// Learner is whom a gate counts a request's runs against: its browser's device, else its
// address.
func (h *Base) Learner(c *gin.Context) string {
	if cl := h.Site.LoginClient(c); cl.Device != "" {
		return "device:" + cl.Device
	}
	return "addr:" + c.ClientIP()
}

// EnterFor admits one run of the request's learner, or refuses it: Retry-After set, and a
// *domain.RetryError whose message says why, the gate's bounds and when to try again.
func (h *Base) EnterFor(c *gin.Context, g *Gate) (leave func(), err error) {
	leave, wait, why := g.Enter(h.Learner(c))
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
