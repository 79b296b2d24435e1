package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"

	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/ports"
	"twissandra/ports/oplog"
	"twissandra/tools/seed"
)

// The fan-out's cost model, measured: what a post and a home page cost in storage rows when
// the real use cases (domain/social) run on a backend, counted from the operations its store
// records (ports/oplog). SimulateFanout prices every action of its simulation with it, so that
// the rules it compares cost what this code costs, not what a constant says.

// Rows is what an action read and wrote, in rows: a widerow get_slice reads one row, a
// multiget_slice of 40 keys 40, a batch_mutate of 296 rows writes 296; a CQL statement, or a
// memory store's call, addresses one row unless its record says how many.
type Rows struct {
	Read    float64 `json:"read"`
	Written float64 `json:"written"`
}

// Total is the rows read and written.
func (r Rows) Total() float64 { return r.Read + r.Written }

func (r Rows) add(o Rows) Rows      { return Rows{r.Read + o.Read, r.Written + o.Written} }
func (r Rows) sub(o Rows) Rows      { return Rows{r.Read - o.Read, r.Written - o.Written} }
func (r Rows) times(f float64) Rows { return Rows{r.Read * f, r.Written * f} }

// PageCost is what a home page of 40 cost its reader, following Pulled pulled authors.
type PageCost struct {
	Pulled int  `json:"pulled"`
	Rows   Rows `json:"rows"`
}

// CostModel is the fan-out's cost, measured on one backend.
type CostModel struct {
	Backend string `json:"backend"`
	// PostBase is a post pushed to no follower, under a pull threshold above 0 (the post reads
	// its author's follower count); PostPerFollower each follower's timeline it was pushed to
	// besides (the slope between two follower counts).
	PostBase        Rows `json:"post_base"`
	PostPerFollower Rows `json:"post_per_follower"`
	// PostPulled is a post by a pulled author: its userline, the public line, its own timeline.
	PostPulled Rows `json:"post_pulled"`
	// Pages are home pages of 40 by readers following 0 and more pulled authors, ascending.
	Pages []PageCost `json:"pages"`
	// Rebuild is what one followee's newest tweets cost to copy into a timeline: the backfill a
	// follow runs, which rebuilds a returning reader's timeline too.
	Rebuild Rows `json:"rebuild_per_followee"`
}

// Page is what a home page costs a reader following pulled pulled authors: measured, between
// two measured counts linear, past the last one its slope carried on.
func (m CostModel) Page(pulled int) Rows {
	ps := m.Pages
	if len(ps) == 0 {
		return Rows{}
	}
	if pulled <= ps[0].Pulled {
		return ps[0].Rows
	}
	for i := 1; i < len(ps); i++ {
		if pulled <= ps[i].Pulled || i == len(ps)-1 {
			a, b := ps[i-1], ps[i]
			f := float64(pulled-a.Pulled) / float64(b.Pulled-a.Pulled)
			return a.Rows.add(b.Rows.sub(a.Rows).times(f))
		}
	}
	return ps[len(ps)-1].Rows
}

// PerPulled is what each pulled author followed adds to a page, between the first two
// measured counts: the pull's marginal cost, as PostPerFollower is the push's.
func (m CostModel) PerPulled() Rows {
	if len(m.Pages) < 2 {
		return Rows{}
	}
	a, b := m.Pages[0], m.Pages[1]
	return b.Rows.sub(a.Rows).times(1 / float64(b.Pulled-a.Pulled))
}

// rowCounter is an oplog recorder that adds up the rows of every storage operation.
type rowCounter struct {
	mu   sync.Mutex
	rows Rows
}

func (c *rowCounter) Detailed() bool { return true } // the row counts are in the detailed record

func (c *rowCounter) Record(op oplog.Op) {
	n := float64(max(1, op.KeyCount))
	c.mu.Lock()
	defer c.mu.Unlock()
	switch op.Kind {
	case oplog.Read:
		c.rows.Read += n
	case oplog.Write:
		c.rows.Written += n
	case oplog.LWT:
		c.rows.Read += n
		c.rows.Written += n
	}
}

// rowsOf runs f and returns the rows its storage operations read and wrote.
func rowsOf(ctx context.Context, f func(context.Context) error) (Rows, error) {
	c := &rowCounter{}
	err := f(oplog.With(ctx, c))
	return c.rows, err
}

// The sizes of the measurement: follower counts of the push's slope, and the pulled authors
// followed by the readers of the measured pages.
var (
	costFollowers = [2]int{32, 64}
	costPulled    = []int{0, 1, 4, 16, 64}
)

// MeasureFanoutCost measures the cost model on svc and its stores, one backend's: it makes its own
// users (fresh names), posts and reads through the use cases, and leaves the service's pull
// threshold as it found it.
func MeasureFanoutCost(ctx context.Context, backend string, svc *social.Service, users ports.UserStore, lines ports.LineStore) (CostModel, error) {
	defer func(t int64) { _ = svc.SetPullThreshold(t) }(svc.PullThreshold())
	m := CostModel{Backend: backend}
	run := "fc" + strconv.FormatUint(rand.Uint64()%1e6, 36)
	name := func(what string, i int) string { return fmt.Sprintf("%s%s%d", run, what, i) }
	post := func(ctx context.Context, who string) error {
		_, err := svc.Post(ctx, who, "what a post costs")
		return err
	}
	// Pushed posts: a threshold no author here reaches, so each post reads its count.
	if err := svc.SetPullThreshold(1 << 40); err != nil {
		return m, err
	}
	author := name("a", 0)
	if err := seed.Celebrity(ctx, users, author, 0, 0, nil); err != nil {
		return m, err
	}
	var err error
	if m.PostBase, err = rowsOf(ctx, func(ctx context.Context) error { return post(ctx, author) }); err != nil {
		return m, err
	}
	var pushed [2]Rows
	for i, n := range costFollowers {
		if err := seed.Celebrity(ctx, users, author, n, 0, nil); err != nil {
			return m, err
		}
		if pushed[i], err = rowsOf(ctx, func(ctx context.Context) error { return post(ctx, author) }); err != nil {
			return m, err
		}
	}
	m.PostPerFollower = pushed[1].sub(pushed[0]).times(1 / float64(costFollowers[1]-costFollowers[0]))

	// Pages: every reader follows one pushed author, whose posts fill the timeline, and the
	// first n of the pulled authors.
	pushedAuthor, most := name("b", 0), costPulled[len(costPulled)-1]
	if err := seed.Celebrity(ctx, users, pushedAuthor, 0, 0, nil); err != nil {
		return m, err
	}
	readers := make([]string, len(costPulled))
	for i := range readers {
		readers[i] = name("r", i)
		if err := seed.Celebrity(ctx, users, readers[i], 0, 0, nil); err != nil {
			return m, err
		}
		if err := svc.Follow(ctx, readers[i], pushedAuthor); err != nil {
			return m, err
		}
	}
	pulled := make([]string, most)
	for j := range pulled {
		// Two followers each (one a stranger), above the threshold of 1 set below.
		pulled[j] = name("c", j)
		if err := seed.Celebrity(ctx, users, pulled[j], 1, 0, nil); err != nil {
			return m, err
		}
		for i, n := range costPulled {
			if j < n {
				if err := svc.Follow(ctx, readers[i], pulled[j]); err != nil {
					return m, err
				}
			}
		}
	}
	for range 45 {
		if err := post(ctx, pushedAuthor); err != nil {
			return m, err
		}
	}
	if err := svc.SetPullThreshold(1); err != nil {
		return m, err
	}
	for range 2 {
		for _, c := range pulled {
			if err := post(ctx, c); err != nil {
				return m, err
			}
		}
	}
	if m.PostPulled, err = rowsOf(ctx, func(ctx context.Context) error { return post(ctx, pulled[0]) }); err != nil {
		return m, err
	}
	// Each page is read without the server's heads of the pulled authors' userlines: what the
	// store is asked when no head is fresh (a server just started, or another server's posts
	// past the head bound). The heads make a pulled author's share of a page cheaper still, so
	// the pulled rules' page costs here are their upper bounds; the celebrity lesson shows a page both ways.
	for i, n := range costPulled {
		rows, err := rowsOf(ctx, func(ctx context.Context) error {
			_, err := svc.Timeline(ctx, readers[i], "", 40, social.WithoutHeads())
			return err
		})
		if err != nil {
			return m, err
		}
		m.Pages = append(m.Pages, PageCost{Pulled: n, Rows: rows})
	}

	// A rebuild: the backfill a follow runs (LineStore.Backfill), of an author with 45 tweets.
	full, reader := name("d", 0), name("f", 0)
	for _, who := range []string{full, reader} {
		if err := seed.Celebrity(ctx, users, who, 0, 0, nil); err != nil {
			return m, err
		}
	}
	for range 45 {
		if err := post(ctx, full); err != nil {
			return m, err
		}
	}
	m.Rebuild, err = rowsOf(ctx, func(ctx context.Context) error {
		return lines.Backfill(ctx, domain.TimelineOf(reader), domain.UserlineOf(full), social.BackfillSize)
	})
	if err != nil {
		return m, err
	}
	return m, nil
}
