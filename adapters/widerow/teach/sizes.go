package teach

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"

	"github.com/google/uuid"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/ports/teaching"
)

// sizedCFs are the column families whose rows the partition lessons measure.
var sizedCFs = []struct{ keyspace, cf string }{
	{widerow.KeyspaceTwissandra, widerow.CFUser}, {widerow.KeyspaceTwissandra, widerow.CFUsername}, {widerow.KeyspaceTwissandra, widerow.CFFriends},
	{widerow.KeyspaceTwissandra, widerow.CFFollowers}, {widerow.KeyspaceTwissandra, widerow.CFTweet}, {widerow.KeyspaceTwissandra, widerow.CFUserline},
	{widerow.KeyspaceTwissandra, widerow.CFTimeline}, {widerow.KeyspaceBloggyAppy, widerow.CFAuthors}, {widerow.KeyspaceBloggyAppy, widerow.CFBlogEntries},
	{widerow.KeyspaceBloggyAppy, widerow.CFTaggedPosts}, {widerow.KeyspaceBloggyAppy, widerow.CFComments},
}

// WidestRows implements teaching.RowSizer: one pass over the stored cells of each column family
// (tombstones included, as they take room until compaction drops them), at most
// teaching.DefaultSizeScan cells of each.
func (in *Inspector) WidestRows(ctx context.Context, limit int) (teaching.RowSizes, error) {
	return in.widestRows(ctx, limit, teaching.DefaultSizeScan)
}

// ScanCapped is in with WidestRows reading at most maxCells cells per column family, for
// tests of the cap.
func (in *Inspector) ScanCapped(maxCells int) teaching.RowSizer { return cappedInspector{in, maxCells} }

type cappedInspector struct {
	*Inspector
	maxCells int
}

func (c cappedInspector) WidestRows(ctx context.Context, limit int) (teaching.RowSizes, error) {
	return c.widestRows(ctx, limit, c.maxCells)
}

func (in *Inspector) widestRows(ctx context.Context, limit, maxCells int) (teaching.RowSizes, error) {
	if limit < 1 {
		return teaching.RowSizes{}, fmt.Errorf("%w: a limit of %d rows", domain.ErrInvalid, limit)
	}
	out := teaching.RowSizes{Unit: "columns", PerContainer: maxCells}
	for _, c := range sizedCFs {
		path := c.keyspace + "." + c.cf
		stats, capped, err := in.node.RowStats(ctx, c.keyspace, c.cf, maxCells)
		if err != nil {
			return out, widerow.Wrap("sizes", err)
		}
		for _, s := range stats {
			out.Scanned += s.Cells
			out.Rows = append(out.Rows, teaching.RowSize{Container: path, Key: s.Key, Cells: s.Cells, Tombstones: s.Tombstones, Bytes: s.Bytes,
				Inspect: url.Values{"cf_path": {path}, "key": {s.Key}}.Encode()})
		}
		if capped {
			out.CappedIn = append(out.CappedIn, path)
		}
	}
	slices.SortStableFunc(out.Rows, func(a, b teaching.RowSize) int { return cmp.Compare(b.Cells, a.Cells) })
	out.Rows = out.Rows[:min(limit, len(out.Rows))]
	in.label(ctx, out.Rows)
	return out, nil
}

// label names who the rows' keys stand for: the user of a UUID key ("@bob"), read from the
// User rows in one multiget, and the public line. A Tweet row's key is a tweet's, not a user's.
func (in *Inspector) label(ctx context.Context, rows []teaching.RowSize) {
	var users []string
	for i, r := range rows {
		switch _, err := uuid.Parse(r.Key); {
		case r.Key == widerow.PublicKey:
			rows[i].Label = "the public line"
		case err == nil && len(r.Key) == 36 && r.Container != widerow.KeyspaceTwissandra+"."+widerow.CFTweet && !slices.Contains(users, r.Key):
			users = append(users, r.Key)
		}
	}
	if len(users) == 0 {
		return
	}
	got, err := in.node.MultigetSlice(ctx, widerow.KeyspaceTwissandra, users, engine.ColumnParent{ColumnFamily: widerow.CFUser},
		engine.SlicePredicate{ColumnNames: [][]byte{[]byte("username")}}, inspectCL)
	if err != nil { // labels are a courtesy: the figures stand without them
		return
	}
	for i, r := range rows {
		if cols := got[r.Key]; len(cols) > 0 && cols[0].Column != nil && r.Container != widerow.KeyspaceTwissandra+"."+widerow.CFTweet {
			rows[i].Label = "@" + string(cols[0].Column.Value)
		}
	}
}

// PublicLine implements teaching.RowSizer: one row, Userline['!PUBLIC!'], that every post widens.
func (in *Inspector) PublicLine(ctx context.Context) (teaching.PublicLayout, error) {
	n, err := in.node.GetCount(ctx, widerow.KeyspaceTwissandra, widerow.PublicKey, engine.ColumnParent{ColumnFamily: widerow.CFUserline}, inspectCL)
	if err != nil {
		return teaching.PublicLayout{}, widerow.Wrap("public line", err)
	}
	row := teaching.RowSize{Container: widerow.KeyspaceTwissandra + "." + widerow.CFUserline, Key: widerow.PublicKey, Label: "the public line", Cells: n,
		Inspect: url.Values{"cf_path": {widerow.KeyspaceTwissandra + "." + widerow.CFUserline}, "key": {widerow.PublicKey}}.Encode()}
	return teaching.PublicLayout{Rows: []teaching.RowSize{row}, Total: n}, nil
}
