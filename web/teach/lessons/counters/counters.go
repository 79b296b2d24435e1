// Package counters is the counters lesson: a tweet's likes as a counter column (Cassandra 0.8),
// live on the node (teaching.CounterLab): many clients incrementing it at once, an increment
// whose answer is lost and that the driver retries, counted twice, and the statements the node
// refuses for mixing a counter with other columns; against it, the follower count this server
// keeps exactly, measured on the running store, and why it is no counter.
package counters

//go:generate go tool templ generate -path .

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

const slug = "counters"

// Lesson is this package's lesson, for the course's list (package course).
func Lesson(lh *labs.Handler) frame.Lesson {
	h := &handler{Handler: lh, gate: lh.RunGate("counter run")}
	return frame.Lesson{Consoles: []frame.ConsoleOffer{console},
		Slug: slug, Title: "Counters, and why the follower count is not one",
		Summary:   "Increment a tweet's likes from many clients at once on the node, lose an increment's answer and watch the driver's retry count it twice, send the statements the node refuses for mixing a counter with other columns, and hold them against the follower count this server keeps exactly.",
		Show:      func(c *gin.Context) (templ.Component, error) { return showCounters(h, c) },
		Topics:    []string{"counter", "idempotence", "retries", "follower count"},
		Exercises: exercises(h),
		Routes: func(g *gin.RouterGroup) {
			g.POST("learn/act/counters", h.run)
		}}
}

// handler is the labs' handler, which the lesson reads the running store through, the gate of
// its runs, and each browser's last run.
type handler struct {
	*labs.Handler
	gate *frame.Gate
	runs frame.LastRuns[result]
}

// result is a browser's last run of one of the lesson's forms.
type result struct {
	Action string // "increments", "lost", "mixed"
	// The form as sent, for the page to fill it again.
	Clients, Each, Increments int
	Run                       teaching.CounterRun
	Mixed                     []teaching.LabStatement
}

// followerCountBound bounds the follower rows the page counts beside the kept count.
const followerCountBound = 2000

// followerFigures are a user's follower count as the store keeps it and as its rows count.
type followerFigures struct {
	User    string
	Kept    int64
	Counted int  // the follower rows, read a page at a time
	Over    bool // more rows than followerCountBound: not all counted
	Err     string
}

type countersData struct {
	Backend, Compare string
	Available        bool // a CounterLab is there
	Schema           string
	Bounds           string
	Clients, Each    int
	Increments       int
	Result           *result
	Followers        *followerFigures
	FollowerForm     string
	// The follow sent again on a scratch node: whether the server has a sandbox, its bounds,
	// the form as typed, what it refused, and the run.
	Sandbox       bool
	SandboxBounds string
	Sent          string
	MaxSent       int
	RetriedError  string
	Retried       *retriedRun
}

func showCounters(h *handler, c *gin.Context) (templ.Component, error) {
	d := countersData{Backend: h.Deps.Backend, Compare: h.Deps.CompareBackend, Available: h.Deps.Counters != nil,
		Bounds: h.gate.Bounds(), Clients: 4, Each: 5, Increments: 3}
	if d.Available {
		d.Schema = h.Deps.Counters.Schema()
	}
	if id := labs.LabSession(c, false); id != "" {
		if r, ok := h.runs.Get(id); ok {
			d.Result = &r
			if r.Clients > 0 {
				d.Clients, d.Each = r.Clients, r.Each
			}
			if r.Increments > 0 {
				d.Increments = r.Increments
			}
		}
	}
	user := c.Query("user")
	if user == "" {
		user = site.User(c)
	}
	d.FollowerForm = user
	if user != "" {
		f := followersOf(c.Request.Context(), h, user)
		d.Followers = &f
	}
	if err := retriedOf(c, h, &d); err != nil {
		return nil, err
	}
	return countersView(d), nil
}

// retriedOf runs the follow sent again on the sandbox when the query asks for it (sent=, the
// times the first follower's follow is sent), under the sandbox's gate.
func retriedOf(c *gin.Context, h *handler, d *countersData) error {
	d.Sandbox, d.SandboxBounds, d.Sent, d.MaxSent = h.Deps.Sandbox != nil, h.SandboxGate.Bounds(), strconv.Itoa(retriedTimes), maxRetried
	sent, asked := c.GetQuery("sent")
	if !d.Sandbox || !asked {
		return nil
	}
	d.Sent = sent
	n, err := strconv.Atoi(strings.TrimSpace(sent))
	if err != nil || n < 1 || n > maxRetried {
		d.RetriedError = "The times " + retriedFollowers[0] + "'s follow is sent are a whole number from 1 to " + strconv.Itoa(maxRetried) + ", and “" + sent + "” is not one."
		return nil
	}
	d.Sent = strconv.Itoa(n)
	leave, err := h.EnterFor(c, h.SandboxGate)
	if err != nil {
		return err
	}
	defer leave()
	r, err := retriedFollow(c.Request.Context(), h.Deps.Sandbox, n)
	if err != nil {
		return err
	}
	d.Retried = &r
	return nil
}

// followersOf reads user's follower count as the store keeps it, then counts their follower
// rows a page at a time, up to followerCountBound.
func followersOf(ctx context.Context, h *handler, user string) followerFigures {
	f := followerFigures{User: user}
	fan, err := h.Deps.Social.FanoutOf(ctx, user)
	if err != nil {
		_, f.Err = site.ProblemMessage(err)
		return f
	}
	f.Kept = fan.Followers
	start := ""
	for {
		page, err := h.Deps.Social.Followers(ctx, user, start, domain.MaxPageSize)
		if err != nil {
			_, f.Err = site.ProblemMessage(err)
			return f
		}
		f.Counted += len(page.Follows)
		if page.Next == "" {
			return f
		}
		if f.Counted >= followerCountBound {
			f.Over = true
			return f
		}
		start = page.Next
	}
}

// formInt reads a whole number of the form within [1, most].
func formInt(c *gin.Context, field string, most int) (int, error) {
	n, err := strconv.Atoi(c.PostForm(field))
	if err != nil || n < 1 || n > most {
		return 0, domain.Invalid(field, "must be a whole number from 1 to %d", most)
	}
	return n, nil
}

// run runs one of the lesson's forms on the node and goes back to the lesson, which shows the
// run; the footer shows what its statements cost.
func (h *handler) run(c *gin.Context) {
	back := "/learn/" + slug + "#live"
	if h.Deps.Counters == nil {
		h.Site.ErrorPage(c, http.StatusNotFound, "No counters", "This server's backend has no counters: "+h.Deps.Backend+" has no CQL node.")
		return
	}
	leave, err := h.EnterFor(c, h.gate)
	if err != nil {
		site.AddFlash(c, site.FlashError, err.Error())
		h.Site.Redirect(c, back, "")
		return
	}
	defer leave()
	session := labs.LabSession(c, true)
	ctx := c.Request.Context()
	r := result{Action: c.PostForm("action")}
	switch r.Action {
	case "increments":
		if r.Clients, err = formInt(c, "clients", teaching.MaxCounterClients); err == nil {
			if r.Each, err = formInt(c, "each", teaching.MaxCounterEach); err == nil {
				r.Run, err = h.Deps.Counters.Increments(ctx, session, r.Clients, r.Each)
			}
		}
	case "lost":
		if r.Increments, err = formInt(c, "increments", teaching.MaxCounterIncrement); err == nil {
			r.Run, err = h.Deps.Counters.LostAck(ctx, session, r.Increments)
		}
	case "mixed":
		r.Mixed, err = h.Deps.Counters.Mixed(ctx, session)
	default:
		err = domain.Invalid("action", "no action %q: increments, lost or mixed", r.Action)
	}
	switch {
	case err == nil:
		h.runs.Put(session, r)
	case errors.Is(err, teaching.ErrTooManyTrials), errors.Is(err, domain.ErrInvalid):
		_, msg := site.ProblemMessage(err)
		if errors.Is(err, teaching.ErrTooManyTrials) {
			msg = site.Sentence(err.Error())
		}
		site.AddFlash(c, site.FlashError, msg)
		h.Site.Redirect(c, back, "")
		return
	default:
		h.Site.Fail(c, err)
		return
	}
	h.Site.Redirect(c, back, "your counter run")
}

// console is the lesson's CQL console, ready to run: a counter column, incremented twice.
var console = frame.ConsoleOffer{Language: "cql", Statements: []string{
	"CREATE TABLE IF NOT EXISTS follower_counts (username text PRIMARY KEY, followers counter);",
	"UPDATE follower_counts SET followers = followers + 1 WHERE username = 'ann';",
	"UPDATE follower_counts SET followers = followers + 1 WHERE username = 'ann';",
	"SELECT * FROM follower_counts WHERE username = 'ann';",
}}
