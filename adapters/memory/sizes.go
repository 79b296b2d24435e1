package memory

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"twissandra/domain"
	"twissandra/ports"
)

// WidestRows implements ports.RowSizer on the memory adapter's maps: a line, a friend or follower
// set is one "row" of entries, read up to ports.DefaultSizeScan entries per map.
func (l Locator) WidestRows(ctx context.Context, limit int) (ports.RowSizes, error) {
	return l.widestRows(ctx, limit, ports.DefaultSizeScan)
}

// ScanCapped is l with WidestRows reading at most maxScan entries per map, for tests of the cap.
func (l Locator) ScanCapped(maxScan int) ports.RowSizer { return cappedLocator{l, maxScan} }

type cappedLocator struct {
	Locator
	maxScan int
}

func (c cappedLocator) WidestRows(ctx context.Context, limit int) (ports.RowSizes, error) {
	return c.widestRows(ctx, limit, c.maxScan)
}

func (l Locator) widestRows(ctx context.Context, limit, maxScan int) (ports.RowSizes, error) {
	if limit < 1 {
		return ports.RowSizes{}, fmt.Errorf("%w: a limit of %d rows", domain.ErrInvalid, limit)
	}
	if err := done(ctx); err != nil {
		return ports.RowSizes{}, err
	}
	out := ports.RowSizes{Unit: "entries", PerContainer: maxScan}
	// add counts a row into container within what is left of its scan; false once it is cut.
	scanned := 0
	add := func(container string, r ports.RowSize, entryBytes int64) bool {
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
		if !add("lines", ports.RowSize{Key: k.String(), Cells: len(line)}, 32) { // two IDs
			break
		}
	}
	for _, m := range []struct {
		name string
		sets map[string]*followSet
	}{{"friends", s.friends}, {"followers", s.followers}} {
		scanned = 0
		for name, set := range m.sets {
			if !add(m.name, ports.RowSize{Key: name, Cells: len(set.items)}, 16) { // a name, about
				break
			}
		}
	}
	s.mu.RUnlock()
	slices.SortFunc(out.Rows, func(a, b ports.RowSize) int {
		return cmp.Or(cmp.Compare(b.Cells, a.Cells), cmp.Compare(a.Container, b.Container), cmp.Compare(a.Key, b.Key))
	})
	out.Rows = out.Rows[:min(limit, len(out.Rows))]
	return out, nil
}

// PublicLine implements ports.RowSizer: one sorted slice.
func (l Locator) PublicLine(ctx context.Context) (ports.PublicLayout, error) {
	if err := done(ctx); err != nil {
		return ports.PublicLayout{}, err
	}
	l.Store.mu.RLock()
	n := len(l.Store.lines[domain.PublicLine()])
	l.Store.mu.RUnlock()
	return ports.PublicLayout{Rows: []ports.RowSize{{Container: "lines", Key: domain.PublicLine().String(), Label: "the public line", Cells: n, Bytes: int64(n) * 32}}, Total: n}, nil
}
