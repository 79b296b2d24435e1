package teachingtest

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"testing"

	"twissandra/domain"
	"twissandra/ports/porttest"
	"twissandra/ports/teaching"
)

// SizeStores are the stores RunSizes measures. They must start empty: the widest rows are the
// whole store's.
type SizeStores struct {
	porttest.Stores
	Sizer teaching.RowSizer
	// Capped is Sizer with WidestRows reading at most max cells, rows or entries per container.
	Capped func(max int) teaching.RowSizer
}

// RunSizes checks a teaching.RowSizer against what it writes through the social use cases: a user
// with sizeFans followers who posts sizePosts times, and one quiet post by someone else. It
// calls newStores once.
func RunSizes(t *testing.T, newStores func(t *testing.T) SizeStores) {
	s := newStores(t)
	c := porttest.Context(t)
	svc := porttest.Social(s.Stores)
	star, quiet := porttest.Name("star"), porttest.Name("quiet")
	for _, n := range []string{star, quiet} {
		if _, err := svc.SignUp(c, n, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	for range sizeFans {
		fan := porttest.Name("fan")
		if _, err := svc.SignUp(c, fan, "password1"); err != nil {
			t.Fatal(err)
		}
		if err := svc.Follow(c, fan, star); err != nil {
			t.Fatal(err)
		}
	}
	for i := range sizePosts {
		if _, err := svc.Post(c, star, fmt.Sprintf("post %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Post(c, quiet, "the quiet one"); err != nil {
		t.Fatal(err)
	}

	var pub teaching.PublicLayout
	t.Run("PublicLineCountsEveryPost", func(t *testing.T) {
		var err error
		if pub, err = s.Sizer.PublicLine(c); err != nil {
			t.Fatal(err)
		}
		sum := 0
		for _, r := range pub.Rows {
			sum += r.Cells
			if r.Container == "" || r.Key == "" || r.Cells < 1 {
				t.Errorf("a public line row without container, key or entries: %+v", r)
			}
		}
		if pub.Total != sizePosts+1 || sum != pub.Total {
			t.Errorf("public line: total %d, its rows add up to %d, want %d", pub.Total, sum, sizePosts+1)
		}
	})
	t.Run("WidestFirstExactCounts", func(t *testing.T) {
		w, err := s.Sizer.WidestRows(c, 100)
		if err != nil {
			t.Fatal(err)
		}
		if w.Capped() || w.PerContainer < 1 || w.Unit == "" {
			t.Errorf("an uncapped scan of a small store: capped in %v, bound %d, unit %q", w.CappedIn, w.PerContainer, w.Unit)
		}
		// The star's Followers row, then the public line, then the lines of sizePosts entries:
		// the star's userline and timeline, and every fan's timeline.
		want := []int{sizeFans}
		for _, r := range pub.Rows {
			want = append(want, r.Cells)
		}
		for range sizeFans + 2 {
			want = append(want, sizePosts)
		}
		slices.SortFunc(want, func(a, b int) int { return cmp.Compare(b, a) })
		if len(w.Rows) <= len(want) {
			t.Fatalf("%d rows, want more than %d", len(w.Rows), len(want))
		}
		got := make([]int, len(w.Rows))
		for i, r := range w.Rows {
			got[i] = r.Cells
			if i < len(want) && (r.Bytes <= 0 || r.Container == "" || r.Key == "") {
				t.Errorf("row %d without bytes, container or key: %+v", i, r)
			}
		}
		if !slices.Equal(got[:len(want)], want) || got[len(want)] >= sizePosts {
			t.Errorf("widest rows hold %v, want %v then fewer than %d", got, want, sizePosts)
		}
		if !slices.IsSortedFunc(got, func(a, b int) int { return cmp.Compare(b, a) }) {
			t.Errorf("not widest first: %v", got)
		}
		if total := sizeFans*(1+1) + (sizePosts + 1) + sizePosts*(sizeFans+2); w.Scanned < total {
			t.Errorf("scanned %d, yet the test wrote at least %d", w.Scanned, total)
		}
		for _, p := range pub.Rows {
			if !slices.ContainsFunc(w.Rows, func(r teaching.RowSize) bool {
				return r.Container == p.Container && r.Key == p.Key && r.Cells == p.Cells
			}) {
				t.Errorf("the public line's %s[%s] (%d) is not among the widest: %+v", p.Container, p.Key, p.Cells, w.Rows)
			}
		}
	})
	t.Run("LimitRespected", func(t *testing.T) {
		if len(pub.Rows) == 0 {
			t.Fatal("no public line to compare with")
		}
		w, err := s.Sizer.WidestRows(c, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(w.Rows) != 2 || w.Rows[0].Cells != sizeFans || w.Rows[1].Cells != max(sizePosts, pub.Rows[0].Cells) {
			t.Errorf("WidestRows(2) = %+v", w.Rows)
		}
		for _, bad := range []int{0, -1} {
			if _, err := s.Sizer.WidestRows(c, bad); !errors.Is(err, domain.ErrInvalid) {
				t.Errorf("WidestRows(%d): %v, want ErrInvalid", bad, err)
			}
		}
	})
	t.Run("BoundedScanSaysCapped", func(t *testing.T) {
		const bound = 5
		w, err := s.Capped(bound).WidestRows(c, 100)
		if err != nil {
			t.Fatal(err)
		}
		containers := map[string]bool{}
		for _, r := range w.Rows {
			containers[r.Container] = true
		}
		for _, name := range w.CappedIn {
			containers[name] = true
		}
		if !w.Capped() || w.PerContainer != bound || w.Scanned < 1 || w.Scanned > bound*len(containers) {
			t.Errorf("a scan of at most %d per container: capped in %v, bound %d, %d scanned", bound, w.CappedIn, w.PerContainer, w.Scanned)
		}
		for _, r := range w.Rows {
			if r.Cells > bound {
				t.Errorf("%s[%s] holds %d, past the bound of %d", r.Container, r.Key, r.Cells, bound)
			}
		}
	})
}

const (
	sizeFans  = 12
	sizePosts = 7
)
