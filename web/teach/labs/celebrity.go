package labs

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/ports/oplog"
	"twissandra/web"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
)

// The celebrity problem: the seeds fan every post out on write, which an author with a million
// followers turns into a million rows per post. The hybrid pulls such authors instead. This page
// explains the trade-off with the curves `twissandra celebrity` measured, says how each backend
// keeps the follower count the choice depends on, and shows the running server: its threshold,
// a user's count and mode, the pulled authors the viewer follows, and what the last post wrote
// and the last home page read.

// countChoice is how one backend keeps an exact follower count, and why.
type countChoice struct {
	Backend, How, Why string
}

var countChoices = []countChoice{
	{"widerow (Cassandra 0.6)", `a "followers" column in the author's User row, rewritten in the same batch_mutate as the follow's Friends and Followers columns`,
		"0.6 had no counters, and its get_count walks the whole Followers row: a million columns read at every post. A read-modify-write of a column is only exact if nothing runs between the read and the write: the store serialises the follows of one author with a lock of its own, which works because the engine is embedded in one process. A 0.6 cluster would have needed a lock outside Cassandra (ZooKeeper)."},
	{"cql3", "a static column, followers.follower_count, set in one conditional batch with the follower row: INSERT … IF NOT EXISTS and UPDATE … SET follower_count = n+1 IF follower_count = n, on the one partition",
		"A counter column would be exact under concurrent follows but not under retries: a timed-out increment that is retried may count twice, and counters cannot share a batch with conditions. The conditional batch changes the row and the count in one Paxos round, so a retry finds the row and stops. Its price: follows of one author queue behind each other (Paxos on one partition)."},
	{"memory", "the size of the follower set", "Every change of the set happens under the store's lock: the count is the set."},
}

// codePaths are where each part of the trade-off lives in the source.
var codePaths = []struct{ What, Where string }{
	{"post: push or pull, by the author's count", "domain/social/service.go: publish; domain/social/fanout.go: FanoutOf"},
	{"home page: the timeline merged with the pulled authors' userlines", "domain/social/fanout.go: mergedPage, merge, mergeCursors"},
	{"the pulled authors' userline heads, shared by every reader", "domain/social/heads.go: headCache (serve --head-bound)"},
	{"which pulled authors a reader follows", "ports.UserStore.PulledFriends: adapters/widerow/fanout.go (Followers['!PULLED!'] then Friends[uuid] by those names), adapters/cql3/fanout.go (pulled_authors, then friends … IN)"},
	{"the exact follower count", "adapters/widerow/fanout.go: Follow, followerCount; adapters/cql3/fanout.go: changeFollow; adapters/memory/memory.go: FollowerCount"},
	{"the measurement", "tools/bench/celebrity.go: RunCelebrity (twissandra celebrity)"},
}

// pulledShown is how many of the pulled authors the page names, headsShown how many heads.
const (
	pulledShown = 50
	headsShown  = 20
)

// mergeRead is one read of the viewer's home page: what the merge read, what the storage did,
// and how long it took.
type mergeRead struct {
	Label string
	Stats social.MergeStats
	Ops   string // its storage calls by verb, and its notes apart (oplog.Log.Headline)
	Took  time.Duration
}

// readBothWays reads viewer's first home page without the server's heads, then with them, each
// with a log of its own, whose operations also go into this request's log (the footer).
func readBothWays(ctx context.Context, svc *social.Service, viewer string) ([]mergeRead, error) {
	var out []mergeRead
	for _, way := range []struct {
		label   string
		without bool
	}{{"without the heads (every pulled author's userline sliced)", true}, {"with the heads", false}} {
		log := oplog.NewLog(false)
		rctx := oplog.With(ctx, log)
		r := mergeRead{Label: way.label}
		opts := []social.PageOption{social.WithMergeStats(&r.Stats)}
		if way.without {
			opts = append(opts, social.WithoutHeads())
		}
		began := time.Now()
		if _, err := svc.Timeline(rctx, viewer, "", domain.DefaultPageSize, opts...); err != nil {
			return nil, err
		}
		r.Took, r.Ops = time.Since(began), log.Headline()
		ops, _ := log.Ops()
		for _, op := range ops {
			oplog.Record(ctx, op)
		}
		out = append(out, r)
	}
	return out, nil
}

type celebrityData struct {
	Backend   string
	Threshold int64
	Viewer    string
	Pulled    []domain.Follow // the pulled authors the viewer follows
	All       []string        // the first pulledShown pulled authors of the server
	AllCount  int
	Lookup    string
	Fanout    *social.Fanout // of Lookup
	Error     string
	Page      *frame.Measured
	Post      *frame.Measured
	Choices   []countChoice
	Paths     []struct{ What, Where string }
	Note      string // of the figures
	// The heads of the pulled authors' userlines the server keeps (domain/social/heads.go).
	HeadBound  time.Duration
	HeadSize   int
	Heads      []social.HeadInfo // the first headsShown
	HeadsCount int
	// The viewer's home page read just now without the heads and with them.
	Reads   []mergeRead
	Figures []CelebrityFigure
	Pages   []CelebrityPageFigure
}

func (h *Handler) Celebrity(c *gin.Context) {
	ctx := c.Request.Context()
	d := celebrityData{Backend: h.Deps.Backend, Threshold: h.Deps.Social.PullThreshold(), Viewer: site.User(c),
		Page: h.Costs.Page.Load(), Post: h.Costs.Post.Load(), Choices: countChoices, Paths: codePaths,
		Note: CelebrityNote, Figures: CelebrityFigures, Pages: CelebrityPageFigures,
		HeadBound: h.Deps.Social.HeadBound(), HeadSize: social.HeadSize}
	status := http.StatusOK
	all, err := h.Deps.Social.PulledAuthors(ctx)
	if err != nil {
		h.Site.Fail(c, err)
		return
	}
	d.AllCount, d.All = len(all), all[:min(len(all), pulledShown)]
	if d.Viewer != "" {
		pulled, err := h.Deps.Social.PulledFriends(ctx, d.Viewer)
		if err != nil {
			h.Site.Fail(c, err)
			return
		}
		d.Pulled = pulled
		if len(pulled) > 0 {
			if d.Reads, err = readBothWays(ctx, h.Deps.Social, d.Viewer); err != nil {
				h.Site.Fail(c, err)
				return
			}
		}
	}
	heads := h.Deps.Social.Heads() // after the reads above: what they left
	d.HeadsCount, d.Heads = len(heads), heads[:min(len(heads), headsShown)]
	if d.Lookup = c.Query("user"); d.Lookup != "" {
		_, err := h.Deps.Social.GetUser(ctx, d.Lookup)
		var f social.Fanout
		if err == nil {
			f, err = h.Deps.Social.FanoutOf(ctx, d.Lookup)
		}
		switch {
		case err == nil:
			d.Fanout = &f
		case errors.Is(err, domain.ErrNotFound), errors.Is(err, domain.ErrInvalid):
			p := web.MapError(err)
			d.Error, status = p.Message, p.Status
		default:
			h.Site.Fail(c, err)
			return
		}
	}
	h.Site.Render(c, status, site.Page{Title: "The celebrity problem", Nav: "models", Content: celebrityView(d)})
}
