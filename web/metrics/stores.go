package metrics

import (
	"context"
	"errors"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"twissandra/domain"
)

//go:generate go run twissandra/internal/portgen/cmd/portgen -kind metrics

// The store wrappers of Stores are generated from the ports (stores_gen.go): each holds its
// store, one opTimer per method, made when the store is wrapped (no label lookup on the hot
// path: a call costs two clock readings and the timer's own work), and the base below. The
// methods that do more than time themselves are written here, and the generator skips them.

// base is what every wrapper of one adapter's stores holds besides its store and its timers.
type base struct {
	fanout prometheus.Observer // lines per LineStore.Append
}

func (m *Metrics) base(adapter string) base {
	return base{fanout: m.fanout.WithLabelValues(adapter)}
}

// opTimer records the calls of one operation of one adapter: their durations, and their
// results (ok, not_found, already_exists, error).
type opTimer struct {
	dur                                 prometheus.Observer
	ok, notFound, alreadyExists, failed prometheus.Counter
}

func (m *Metrics) op(adapter, op string) *opTimer {
	return &opTimer{
		dur:           m.storeDur.WithLabelValues(adapter, op),
		ok:            m.storeOps.WithLabelValues(adapter, op, "ok"),
		notFound:      m.storeOps.WithLabelValues(adapter, op, "not_found"),
		alreadyExists: m.storeOps.WithLabelValues(adapter, op, "already_exists"),
		failed:        m.storeOps.WithLabelValues(adapter, op, "error"),
	}
}

// done records the call that started at start and ended with err.
func (t *opTimer) done(start time.Time, err error) {
	t.dur.Observe(time.Since(start).Seconds())
	switch {
	case err == nil:
		t.ok.Inc()
	case errors.Is(err, domain.ErrNotFound):
		t.notFound.Inc()
	case errors.Is(err, domain.ErrAlreadyExists):
		t.alreadyExists.Inc()
	default:
		t.failed.Inc()
	}
}

// Append also records its fan-out: how many lines the entry went to.
func (w *lineStore) Append(ctx context.Context, e domain.LineEntry, lines ...domain.LineKey) error {
	w.fanout.Observe(float64(len(lines)))
	start := time.Now()
	err := w.s.Append(ctx, e, lines...)
	w.append.done(start, err)
	return err
}

// AppendToFollowers also records its fan-out: how many lines the entry went to.
func (w *lineStore) AppendToFollowers(ctx context.Context, e domain.LineEntry, author string, lines ...domain.LineKey) (int, error) {
	start := time.Now()
	n, err := w.s.AppendToFollowers(ctx, e, author, lines...)
	w.appendToFollowers.done(start, err)
	if err == nil {
		w.fanout.Observe(float64(n))
	}
	return n, err
}

// ReadPage times the whole read of a page, its tweets included, as read_page, and each slice
// its plan reads as slice or slice_many: the plan runs on the store's own lines, below this
// wrapper, so it is given them timed.
func (w *lineStore) ReadPage(ctx context.Context, limit int, plan domain.PagePlan) ([]domain.LineEntry, error) {
	start := time.Now()
	v, err := w.s.ReadPage(ctx, limit, func(ctx context.Context, lines domain.PageLines) ([]domain.LineEntry, error) {
		return plan(ctx, timedLines{lines, w})
	})
	w.readPage.done(start, err)
	return v, err
}

// timedLines are a store's lines as a page's plan reads them, each slice timed.
type timedLines struct {
	r domain.PageLines
	w *lineStore
}

func (t timedLines) Slice(ctx context.Context, line domain.LineKey, before int64, limit int) ([]domain.LineEntry, error) {
	start := time.Now()
	v, err := t.r.Slice(ctx, line, before, limit)
	t.w.slice.done(start, err)
	return v, err
}

func (t timedLines) LinesID() domain.LinesID { return t.r.LinesID() }

func (t timedLines) SliceMany(ctx context.Context, reqs []domain.LineSlice) ([][]domain.LineEntry, error) {
	start := time.Now()
	v, err := t.r.SliceMany(ctx, reqs)
	t.w.sliceMany.done(start, err)
	return v, err
}
