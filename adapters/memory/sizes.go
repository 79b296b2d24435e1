package memory

import (
	"cmp"
	"context"
	"slices"

	"twissandra/domain"
	"twissandra/ports"
)

// WidestRows implements ports.RowSizer on the memory adapter's maps: a line, a friend or follower
// set is one "row" of entries.
func (l Locator) WidestRows(ctx context.Context, limit int) (ports.RowSizes, error) {
	if err := done(ctx); err != nil {
		return ports.RowSizes{}, err
	}
	s := l.Store
	s.mu.RLock()
	out := ports.RowSizes{Unit: "entries"}
	for k, line := range s.lines {
		out.Rows = append(out.Rows, ports.RowSize{Container: "lines", Key: k.String(), Cells: len(line), Bytes: int64(len(line)) * 24})
	}
	for name, set := range s.friends {
		out.Rows = append(out.Rows, ports.RowSize{Container: "friends", Key: name, Cells: len(set.items)})
	}
	for name, set := range s.followers {
		out.Rows = append(out.Rows, ports.RowSize{Container: "followers", Key: name, Cells: len(set.items)})
	}
	s.mu.RUnlock()
	for i := range out.Rows {
		out.Scanned += out.Rows[i].Cells
	}
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
	return ports.PublicLayout{Rows: []ports.RowSize{{Container: "lines", Key: "public", Label: "the public line", Cells: n}}, Total: n}, nil
}
