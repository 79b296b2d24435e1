package memory

import (
	"cmp"
	"context"
	"fmt"
	"slices"

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
	s.mu.RLock()
	for k, line := range s.lines {
		if !add("lines", teaching.RowSize{Key: k.String(), Cells: len(line)}, 32) { // two IDs
			break
		}
	}
	for _, m := range []struct {
		name string
		sets map[string]*followSet
	}{{"friends", s.friends}, {"followers", s.followers}} {
		scanned = 0
		for name, set := range m.sets {
			if !add(m.name, teaching.RowSize{Key: name, Cells: len(set.items)}, 16) { // a name, about
				break
			}
		}
	}
	s.mu.RUnlock()
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
	l.Store.mu.RLock()
	n := len(l.Store.lines[domain.PublicLine()])
	l.Store.mu.RUnlock()
	return teaching.PublicLayout{Rows: []teaching.RowSize{{Container: "lines", Key: domain.PublicLine().String(), Label: "the public line", Cells: n, Bytes: int64(n) * 32}}, Total: n}, nil
}

// noteScans records the pass over each map, with the rows and entries it read, as the other
// stores record theirs: the page that measures the store shows what measuring cost.
func noteScans(ctx context.Context, out teaching.RowSizes) {
	for _, container := range []string{"lines", "friends", "followers"} {
		if !describe(ctx, oplog.Read, "scan") {
			continue
		}
		rows, entries := 0, 0
		for _, r := range out.Rows {
			if r.Container == container {
				rows++
				entries += r.Cells
			}
		}
		text := "scan " + container + " -> " + itoa(rows) + " rows, " + itoa(entries) + " entries"
		if slices.Contains(out.CappedIn, container) {
			text += " (stopped at the bound)"
		}
		noteText(ctx, oplog.Read, nil, text)
	}
}
