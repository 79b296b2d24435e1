package teach

import (
	"net/http"
	"sync/atomic"

	"github.com/gin-gonic/gin"

	"twissandra/ports/oplog"
	"twissandra/web/site"
)

// Three generations of the same application's data model, and what a page and a post cost in
// each: the 0.6 column families of the seeds (2010), the CQL3 tables of seed 002 (2014), and the
// query-first tables the cql3 backend runs now; beside them, what this server measured for the
// last home timeline page and the last post, and a Chebotko diagram of the CQL3 schema.

// costLedger keeps the last measured cost of a home timeline page and of a post. A home page
// writes it on every visit, so it takes no lock: each is one atomic pointer.
type costLedger struct {
	page, post atomic.Pointer[measured]
}

type measured struct {
	Summary, Secondary, SecondaryModel string
}

// costOf is what ops cost, or nil for a request that touched no storage.
func costOf(ops *oplog.Log) *measured {
	if ops.Len() == 0 {
		return nil
	}
	m := &measured{Summary: ops.Summary()}
	if model, shadow := ops.Shadowed(); shadow != nil {
		m.SecondaryModel, m.Secondary = model, shadow.Summary()
	}
	return m
}

// generation is one data model and the cost of the two actions that matter, for a reader
// following authors with N followers in all.
type generation struct {
	Name, Year, Seed string
	Page, Post       string
	Running          bool
}

type generationsData struct {
	Backend     string
	Generations []generation
	Page, Post  *measured
	Diagram     *chebDiagram
}

func (h *handler) generations(c *gin.Context) {
	d := generationsData{Backend: h.deps.Backend, Page: h.costs.page.Load(), Post: h.costs.post.Load(),
		Generations: []generation{
			{"Column families (0.6)", "2010", "001, Cassandra by example",
				"2 calls: get_slice Timeline[uuid] (1 row, 40 columns), then multiget_slice Tweet (40 rows). 41 rows read.",
				"1 batch_mutate: the Tweet row, 2 Userline rows (the author's, !PUBLIC!) and N+1 Timeline rows, 1 column each. N+4 rows written.",
				h.deps.Backend == "widerow"},
			{"CQL3 tables (seed 002)", "2014", "002, Python driver overview using Twissandra",
				"2 queries: SELECT … FROM timeline WHERE username = ? LIMIT 40 (1 partition), then SELECT … FROM tweets WHERE tweet_id IN (40 ids) (40 partitions). 41 partitions touched.",
				"N+4 INSERTs: tweets, userline, public line, N+1 timelines; each line row holds the tweet's ID only.",
				false},
			{"Query-first CQL3 tables", "now", "002's own advice: denormalise the tweets into the lines",
				"1 query: SELECT time, tweet_id, author, body, created_at … FROM timeline WHERE username = ? LIMIT 40. 1 partition touched.",
				"N+4 INSERTs, as in 2014, each line row carrying the tweet (about 100 bytes more a row); concurrent, bounded, token-aware.",
				h.deps.Backend == "cql3"},
		}}
	d.Diagram = h.diagram
	h.site.Render(c, http.StatusOK, site.Page{Title: "Three generations", Nav: "models", Content: generationsView(d)})
}
