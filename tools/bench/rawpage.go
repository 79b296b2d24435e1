package bench

import (
	"fmt"
	"time"

	"github.com/gocql/gocql"
)

// RawPageColumns are the columns of a query-first line row (timeline, userline, public_line)
// that a page reads, in the order the cql3 adapter reads them.
const RawPageColumns = "time, tweet_id, author, body, created_at, created_at_us"

// ReadRawPage runs q, a slice of RawPageColumns of one line partition, scanning every row as
// the cql3 adapter does, and checks that it held want rows: the raw driver's side of the
// comparisons of the API's pages with the slice they cost (tools/bench/rawslice, and
// BenchmarkCQL3PageVersusRawSlice).
func ReadRawPage(q *gocql.Query, want int) error {
	iter := q.Iter()
	var (
		t, id        gocql.UUID
		author, body string
		created      time.Time
		us, n        int
	)
	for iter.Scan(&t, &id, &author, &body, &created, &us) {
		n++
	}
	if err := iter.Close(); err != nil {
		return err
	}
	if n != want {
		return fmt.Errorf("a slice of %d rows, not %d", n, want)
	}
	return nil
}
