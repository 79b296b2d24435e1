package models

import (
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"twissandra/web/site"
	"twissandra/web/teach/frame"
)

// Three generations of the same application's data model, and what a page and a post cost in
// each: the 0.6 column families of the seeds (2010), the CQL3 tables of seed 002 (2014), and the
// query-first tables the cql3 backend runs now; beside them, what this server measured for the
// last home timeline page and the last post, and a Chebotko diagram of the CQL3 schema.

// generation is one data model and what the two actions that matter cost in it: a home
// timeline page of 40 and a post by an author with N followers. Each cost is the storage calls
// the action makes, as this server's stores make them; a test makes each action on the model
// that runs it (widerow for 0.6, cql3 for the others) and holds every count to what it measured.
type generation struct {
	Name, Year, Seed string
	Page, Post       []Call
	Note             string
	Running          bool
}

// Call is one kind of storage call an action makes: its verb, on which column family or table
// (as the operation log names it), how many times (PerFollower times N, plus Times), and what
// it reads or writes. Sometimes marks a call made only at times (the first post of a day, a
// read a cache answers within a second), which the totals leave out.
type Call struct {
	Verb, Family       string
	Times, PerFollower int
	What               string
	Sometimes          bool
}

// Count is how many times the call is made, as the page says it: "1", "N", "N+4".
func (c Call) Count() string {
	switch {
	case c.PerFollower == 0:
		return strconv.Itoa(c.Times)
	case c.Times == 0:
		return frame.When(c.PerFollower != 1, strconv.Itoa(c.PerFollower)) + "N"
	}
	return frame.When(c.PerFollower != 1, strconv.Itoa(c.PerFollower)) + "N+" + strconv.Itoa(c.Times)
}

// total is how many calls an action makes, the occasional ones aside: "3 calls", "N+5 calls".
func total(calls []Call) string {
	sum := Call{}
	for _, c := range calls {
		if !c.Sometimes {
			sum.Times += c.Times
			sum.PerFollower += c.PerFollower
		}
	}
	n := sum.Count()
	return n + " " + frame.When(n == "1", "call") + frame.When(n != "1", "calls")
}

// Generations are the three models. The 0.6 costs are widerow's, the others cql3's: the 2014
// tables' lines held tweet IDs only, as this server's rows did before migration 004, and such
// rows read as seed 002's did.
var Generations = []generation{
	{Name: "Column families (0.6)", Year: "2010", Seed: "001, Cassandra by example",
		Page: []Call{
			{Verb: "get_slice", Family: "Timeline", Times: 1, What: "Timeline[uuid] reversed count=41: 1 row"},
			{Verb: "multiget_slice", Family: "Tweet", Times: 1, What: "Tweet, the 40 tweets shown: 40 rows"},
			{Verb: "get_slice", Family: "Followers", Times: 1, What: "Followers['!PULLED!'], the pulled authors of this server's hybrid fan-out (the seeds had none)"},
		},
		Post: []Call{
			{Verb: "get_slice", Family: "Followers", Times: 1, What: "Followers[uuid]: the author's N followers, to fan out to"},
			{Verb: "batch_mutate", Family: "Tweet", Times: 1, What: "the Tweet row"},
			{Verb: "batch_mutate", Family: "Timeline", Times: 1, What: "every line in one batch: 2 Userline rows (the author's, !PUBLIC!) and N+1 Timeline rows, 1 column each"},
		}},
	{Name: "CQL3 tables (seed 002)", Year: "2014", Seed: "002, Python driver overview using Twissandra",
		Page: []Call{
			{Verb: "SELECT", Family: "timeline", Times: 1, What: "timeline WHERE username = ? LIMIT 41: 1 partition, tweet IDs only"},
			{Verb: "SELECT", Family: "tweets", Times: 1, What: "tweets WHERE tweet_id IN (the 40 shown): 40 partitions"},
			{Verb: "SELECT", Family: "pulled_authors", Times: 1, What: "the pulled authors, at most once a second", Sometimes: true},
		},
		Post: []Call{
			{Verb: "SELECT", Family: "followers", Times: 1, What: "followers WHERE username = ?: the N followers"},
			{Verb: "INSERT", Family: "tweets", Times: 1, What: "tweets"},
			{Verb: "INSERT", Family: "line", Times: 3, PerFollower: 1, What: "userline, public_line and N+1 timelines, each row the tweet's ID only"},
			{Verb: "INSERT", Family: "public_days", Times: 1, What: "public_days, the first post of each day", Sometimes: true},
		},
		Note: "Seed 002's lines kept the tweet's ID only, as this server's did before migration 004; such rows read so still."},
	{Name: "Query-first CQL3 tables", Year: "now", Seed: "002's own advice: denormalise the tweets into the lines",
		Page: []Call{
			{Verb: "SELECT", Family: "timeline", Times: 1, What: "time, tweet_id, author, body, created_at … FROM timeline WHERE username = ? LIMIT 41: 1 partition, the tweets in it"},
			{Verb: "SELECT", Family: "pulled_authors", Times: 1, What: "the pulled authors, at most once a second", Sometimes: true},
		},
		Post: []Call{
			{Verb: "SELECT", Family: "followers", Times: 1, What: "followers WHERE username = ?: the N followers"},
			{Verb: "INSERT", Family: "tweets", Times: 1, What: "tweets"},
			{Verb: "INSERT", Family: "line", Times: 3, PerFollower: 1, What: "userline, public_line and N+1 timelines, each row carrying the tweet (about 100 bytes more a row); concurrent, bounded, token-aware"},
			{Verb: "INSERT", Family: "public_days", Times: 1, What: "public_days, the first post of each day", Sometimes: true},
		}},
}

type generationsData struct {
	Backend     string
	Generations []generation
	Page, Post  *frame.Measured
	Diagram     *frame.ChebDiagram
	Me          string // the reader, to say whose the last page and post were
}

func (h *Handler) Generations(c *gin.Context) {
	d := generationsData{Backend: h.Deps.Backend, Page: h.Costs.Page.Load(), Post: h.Costs.Post.Load(), Me: site.User(c)}
	for i, g := range Generations {
		g.Running = (i == 0 && h.Deps.Backend == "widerow") || (i == 2 && h.Deps.Backend == "cql3")
		d.Generations = append(d.Generations, g)
	}
	d.Diagram = h.Diagram
	h.Site.Render(c, http.StatusOK, site.Page{Title: "Three generations", Nav: "models", Content: generationsView(d)})
}
