package porttest

import "testing"

// walkPages pages through any listing from its start and checks the paging rules on the way:
// every page but the last holds exactly limit items, "next" exists only when more does, and no
// page after the first is empty. It returns everything seen and the number of pages.
func walkPages[T any](t *testing.T, limit int, page func(start string) ([]T, string, error)) (all []T, pages int) {
	t.Helper()
	start := ""
	for {
		items, next, err := page(start)
		if err != nil {
			t.Fatalf("page %d: %v", pages+1, err)
		}
		pages++
		if len(items) == 0 && pages > 1 {
			t.Fatalf("page %d is empty: next must exist only when more does", pages)
		}
		all = append(all, items...)
		if next == "" {
			return all, pages
		}
		if len(items) != limit {
			t.Fatalf("page %d has %d items but a next cursor", pages, len(items))
		}
		start = next
	}
}

// checkPageCount checks that n items came in the fewest pages of limit (one page when empty).
func checkPageCount(t *testing.T, what string, n, limit, pages int) {
	t.Helper()
	if want := max(1, (n+limit-1)/limit); pages != want {
		t.Fatalf("%d %s in %d pages of %d, want %d pages", n, what, pages, limit, want)
	}
}
