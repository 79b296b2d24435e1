package teach

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/scylladb/gocqlx/v2/qb"

	"twissandra/domain"
	"twissandra/ports/teaching"
)

// WidestRows implements teaching.RowSizer: every table read through in token order with the
// driver's paging, at most teaching.DefaultSizeScan rows of each, rows counted per partition and
// their values' bytes added up.
func (s *Store) WidestRows(ctx context.Context, limit int) (teaching.RowSizes, error) {
	return s.widestRows(ctx, limit, teaching.DefaultSizeScan)
}

// ScanCapped is s with WidestRows reading at most maxRows rows per table, for tests of the cap.
func (s *Store) ScanCapped(maxRows int) teaching.RowSizer { return cappedStore{s, maxRows} }

type cappedStore struct {
	*Store
	maxRows int
}

func (c cappedStore) WidestRows(ctx context.Context, limit int) (teaching.RowSizes, error) {
	return c.widestRows(ctx, limit, c.maxRows)
}

func (s *Store) widestRows(ctx context.Context, limit, maxRows int) (teaching.RowSizes, error) {
	out := teaching.RowSizes{Unit: "rows", PerContainer: maxRows}
	if limit < 1 {
		return out, fmt.Errorf("%w: a limit of %d rows", domain.ErrInvalid, limit)
	}
	tables, err := s.InspectTables(ctx)
	if err != nil {
		return out, err
	}
	sess, err := s.sess()
	if err != nil {
		return out, err
	}
	for _, t := range tables {
		if _, private := privateTables[t.Name]; private || internalTables[t.Name] {
			continue
		}
		container := t.Keyspace + "." + t.Name
		// The keyspace passed Config's pattern, the table name comes from the schema.
		q := sess.ContextQuery(ctx, fmt.Sprintf("SELECT * FROM %s.%s", t.Keyspace, quoteIdent(t.Name)), nil)
		q.PageSize(min(maxRows+1, 5000))
		iter := q.Query.Iter()
		cols := iter.Columns()
		dest := make([]any, len(cols))
		for i, c := range cols {
			dest[i] = scanDest(c.TypeInfo)
		}
		parts := map[string]*teaching.RowSize{}
		var order []string
		for read := 0; iter.Scan(dest...); read++ {
			if read == maxRows { // one row past the bound: the table holds more
				out.CappedIn = append(out.CappedIn, container)
				break
			}
			out.Scanned++
			var key []string
			var bytes int64
			for i, c := range cols {
				p := reflect.ValueOf(dest[i]).Elem()
				if p.IsNil() {
					continue
				}
				v := p.Elem()
				if i < len(t.PartitionKey) {
					key = append(key, keyText(c.TypeInfo, v))
				}
				bytes += int64(len(renderValue(c.TypeInfo, v)))
				p.SetZero()
			}
			k := strings.Join(key, " : ")
			r, ok := parts[k]
			if !ok {
				r = &teaching.RowSize{Container: container, Key: k, Inspect: url.Values{"table": {t.Name}, "key": key}.Encode()}
				parts[k] = r
				order = append(order, k)
			}
			r.Cells++
			r.Bytes += bytes
		}
		err := iter.Close()
		q.Release()
		if unconfigured(err) {
			// A table made or dropped as it was read (a lesson's, as the server starts; the
			// query lab's, swept): the node lists it but holds nothing of it yet, or any more.
			continue
		}
		if err != nil {
			return out, wrap("size "+t.Name, err)
		}
		for _, k := range order {
			out.Rows = append(out.Rows, *parts[k])
		}
	}
	slices.SortStableFunc(out.Rows, func(a, b teaching.RowSize) int { return cmp.Compare(b.Cells, a.Cells) })
	out.Rows = out.Rows[:min(limit, len(out.Rows))]
	return out, nil
}

// publicLayoutDays bounds the day buckets PublicLine lists.
const publicLayoutDays = 30

var stCountPublicDay = mk(qb.Select("public_line").CountAll().Where(qb.Eq("day")).ToCql())

// PublicLine implements teaching.RowSizer: a partition of public_line per day, listed in
// public_days, each counted with a single-partition COUNT.
func (s *Store) PublicLine(ctx context.Context) (teaching.PublicLayout, error) {
	out := teaching.PublicLayout{Bounded: true}
	sess, err := s.sess()
	if err != nil {
		return out, err
	}
	days, err := s.store.PublicDays(ctx, publicLayoutDays)
	if err != nil {
		return out, err
	}
	for _, d := range days {
		var n int
		if err := query(ctx, sess, stCountPublicDay, qb.M{"day": d}).GetRelease(&n); err != nil {
			return out, wrap("count public day", err)
		}
		day := d.UTC().Format(time.DateOnly)
		out.Rows = append(out.Rows, teaching.RowSize{Container: s.Keyspace() + ".public_line", Key: day, Cells: n,
			Inspect: url.Values{"table": {"public_line"}, "key": {day}}.Encode()})
		out.Total += n
	}
	return out, nil
}
