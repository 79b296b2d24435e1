package teach

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"

	"twissandra/domain"
	"twissandra/ports/oplog"
	"twissandra/ports/teaching"
)

// WidestRows implements teaching.RowSizer on the memory adapter's maps: a line, a friend or follower
// set is one "row" of entries, read up to teaching.DefaultSizeScan entries per map.
func (l Locator) WidestRows(ctx context.Context, limit int) (teaching.RowSizes, error) {
	return l.widestRows(ctx, limit, teaching.DefaultSizeScan)
}

// ScanCapped is l with WidestRows reading at most maxScan entries per map, for tests of the cap.
func (l Locator) ScanCapped(maxScan int) teaching.RowSizer { return cappedLocator{l, maxScan} }

type cappedLocator struct {
	Locator
	maxScan int
}

func (c cappedLocator) WidestRows(ctx context.Context, limit int) (teaching.RowSizes, error) {
	return c.widestRows(ctx, limit, c.maxScan)
}

func (l Locator) widestRows(ctx context.Context, limit, maxScan int) (teaching.RowSizes, error) {
	if limit < 1 {
		return teaching.RowSizes{}, fmt.Errorf("%w: a limit of %d rows", domain.ErrInvalid, limit)
	}
	if err := done(ctx); err != nil {
		return teaching.RowSizes{}, err
	}
	out := teaching.RowSizes{Unit: "entries", PerContainer: maxScan}
	// add counts a row into container within what is left of its scan; false once it is cut.
	scanned := 0
	add := func(container string, r teaching.RowSize, entryBytes int64) bool {
		left := maxScan - scanned
		full := r.Cells <= left
		r.Container, r.Cells = container, min(r.Cells, left)
		r.Bytes = int64(r.Cells) * entryBytes
		scanned += r.Cells
		out.Scanned += r.Cells
		if r.Cells > 0 || full {
			out.Rows = append(out.Rows, r)
		}
		if !full {
			out.CappedIn = append(out.CappedIn, container)
		}
		return full
	}
	s := l.Store
	s.PeekRows("lines", func(key string, n int) bool {
		return add("lines", teaching.RowSize{Key: key, Cells: n}, 32) // two IDs
	})
	for _, name := range []string{"friends", "followers"} {
		scanned = 0
		s.PeekRows(name, func(key string, n int) bool {
			return add(name, teaching.RowSize{Key: key, Cells: n}, 16) // a name, about
		})
	}
	noteScans(ctx, out)
	slices.SortFunc(out.Rows, func(a, b teaching.RowSize) int {
		return cmp.Or(cmp.Compare(b.Cells, a.Cells), cmp.Compare(a.Container, b.Container), cmp.Compare(a.Key, b.Key))
	})
	out.Rows = out.Rows[:min(limit, len(out.Rows))]
	return out, nil
}

// PublicLine implements teaching.RowSizer: one sorted slice.
func (l Locator) PublicLine(ctx context.Context) (teaching.PublicLayout, error) {
	if err := done(ctx); err != nil {
		return teaching.PublicLayout{}, err
	}
	n := l.Store.PeekLineLength(domain.PublicLine())
	return teaching.PublicLayout{Rows: []teaching.RowSize{{Container: "lines", Key: domain.PublicLine().String(), Label: "the public line", Cells: n, Bytes: int64(n) * 32}}, Total: n}, nil
}

// noteScans records the pass over each map, with the rows and entries it read, as the other
// stores record theirs: the page that measures the store shows what measuring cost.
func noteScans(ctx context.Context, out teaching.RowSizes) {
	for _, container := range []string{"lines", "friends", "followers"} {
		r := oplog.From(ctx)
		if r == nil {
			continue
		}
		if !oplog.Detailed(ctx) {
			r.Record(oplog.Op{Model: "memory", Kind: oplog.Read, Call: "scan"})
			continue
		}
		rows, entries := 0, 0
		for _, r := range out.Rows {
			if r.Container == container {
				rows++
				entries += r.Cells
			}
		}
		text := "scan " + container + " -> " + strconv.Itoa(rows) + " rows, " + strconv.Itoa(entries) + " entries"
		if slices.Contains(out.CappedIn, container) {
			text += " (stopped at the bound)"
		}
		oplog.Record(ctx, oplog.Op{Model: "memory", Kind: oplog.Read, Call: "scan", Family: container, Text: text})
	}
}
