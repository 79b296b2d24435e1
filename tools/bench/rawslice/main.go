// Command rawslice reads a page of 40 rows of one partition of the cql3 tables with the raw
// gocql driver, from many goroutines at once for a while, and prints the rate as wrk does
// ("Requests/sec: N"): the ceiling that scripts/httpcompare.sh measures the cql3 API's pages
// against. It sends the statement the adapter sends for the page (the same columns, one
// partition, token-aware), without HTTP, use case, authentication or JSON.
//
//	rawslice -keyspace K -line timeline -user reader     # the home timeline's first page
//	rawslice -keyspace K -line public -page 2            # today's public line, second page
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gocql/gocql"

	"twissandra/tools/bench"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "rawslice:", err)
		}
		os.Exit(2)
	}
}

func run(argv []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("rawslice", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // one line on error, from main
	hosts := fs.String("hosts", "127.0.0.1", "comma-separated contact points")
	port := fs.Int("port", 9042, "native protocol port")
	keyspace := fs.String("keyspace", "twissandra", "keyspace of the cql3 tables")
	line := fs.String("line", "timeline", "timeline (of -user) or public (today's UTC day)")
	user := fs.String("user", "reader", "owner of the timeline")
	page := fs.Int("page", 1, "page of 40 to read: 1, or 2 (after the first 40 rows)")
	conns := fs.Int("conns", 64, "concurrent readers")
	duration := fs.Duration("duration", 5*time.Second, "how long to read")
	if err := fs.Parse(argv); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(os.Stderr)
			fs.PrintDefaults()
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *conns < 1 || *duration <= 0 || (*page != 1 && *page != 2) {
		return errors.New("-conns and -duration must be positive, -page 1 or 2")
	}
	var stmt string
	var args []any
	switch *line {
	case "timeline":
		stmt, args = "SELECT "+bench.RawPageColumns+" FROM timeline WHERE username = ?", []any{*user}
	case "public":
		stmt, args = "SELECT "+bench.RawPageColumns+" FROM public_line WHERE day = ?", []any{time.Now().UTC().Truncate(24 * time.Hour)}
	default:
		return fmt.Errorf("-line %q: timeline or public", *line)
	}
	cluster := gocql.NewCluster(strings.Split(*hosts, ",")...)
	cluster.Port, cluster.Keyspace, cluster.Timeout = *port, *keyspace, 10*time.Second
	cluster.Consistency = gocql.LocalQuorum
	cluster.PoolConfig.HostSelectionPolicy = gocql.TokenAwareHostPolicy(gocql.RoundRobinHostPolicy())
	sess, err := cluster.CreateSession()
	if err != nil {
		return err
	}
	defer sess.Close()
	if *page == 2 { // the second page starts below the first page's last row
		var last gocql.UUID
		n := 0
		iter := sess.Query(stmt+" LIMIT 40", args...).Iter()
		for iter.Scan(&last, nil, nil, nil, nil, nil) {
			n++
		}
		if err := iter.Close(); err != nil {
			return err
		}
		if n < 40 {
			return fmt.Errorf("%s holds %d rows, less than a page", *line, n)
		}
		stmt, args = stmt+" AND time < ?", append(args, last)
	}
	stmt += " LIMIT 40"
	slice := func() error { return bench.ReadRawPage(sess.Query(stmt, args...), 40) }
	if err := slice(); err != nil { // prepares the statement, and checks the page is whole
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), *duration)
	defer cancel()
	var done atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	for range *conns {
		wg.Go(func() {
			for ctx.Err() == nil {
				if err := slice(); err != nil {
					once.Do(func() { firstErr = err; cancel() })
					return
				}
				done.Add(1)
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	fmt.Fprintf(stdout, "Requests/sec: %.0f\n", float64(done.Load())/time.Since(start).Seconds())
	return nil
}
