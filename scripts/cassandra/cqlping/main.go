// Command cqlping is a tiny CQL client used by scripts/cassandra.sh.
//
// Without -e it runs `SELECT release_version FROM system.local` once and
// prints the version; the exit status tells whether the node answered.
// With -e it runs the given statements (separated by ';') in order and prints
// the rows of each, tab separated, one line per row.
//
//	go run ./scripts/cassandra/cqlping -host 127.0.0.1 -port 9042
//	go run ./scripts/cassandra/cqlping -e "CREATE KEYSPACE ...; SELECT ..."
//	go run ./scripts/cassandra/cqlping -e - <schema.cql
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"time"

	"github.com/gocql/gocql"
)

func main() {
	host := flag.String("host", "127.0.0.1", "node address")
	port := flag.Int("port", 9042, "native transport port")
	timeout := flag.Duration("timeout", 5*time.Second, "connect and per-query timeout")
	exec := flag.String("e", "", "statements to run, separated by ';', or - to read them from stdin (default: release_version query)")
	quiet := flag.Bool("q", false, "print nothing, only set the exit status")
	flag.Parse()

	// The driver's own log lines (dial errors while the node starts) are noise here.
	gocql.Logger = log.New(io.Discard, "", 0)

	cluster := gocql.NewCluster(*host)
	cluster.Port = *port
	cluster.ProtoVersion = 4
	cluster.ConnectTimeout = *timeout
	cluster.Timeout = *timeout
	cluster.Consistency = gocql.One
	cluster.NumConns = 1
	cluster.DisableInitialHostLookup = true
	// One attempt per connection. MaxRetries must stay >= 1: with 0, gocql 1.7.0
	// pools a nil connection and panics in Conn.AvailableStreams.
	cluster.ReconnectionPolicy = &gocql.ConstantReconnectionPolicy{MaxRetries: 1, Interval: time.Second}
	// Only talk to the given node, also when it is part of a larger ring.
	cluster.HostFilter = gocql.WhiteListHostFilter(*host)

	session, err := cluster.CreateSession()
	if err != nil {
		if !*quiet {
			fmt.Fprintf(os.Stderr, "cqlping: connect %s:%d: %v\n", *host, *port, err)
		}
		os.Exit(1)
	}
	defer session.Close()

	if *exec == "-" {
		b, err := io.ReadAll(os.Stdin)
		if err != nil {
			fmt.Fprintf(os.Stderr, "cqlping: reading stdin: %v\n", err)
			os.Exit(1)
		}
		*exec = string(b)
	}
	stmts := []string{"SELECT release_version FROM system.local"}
	if strings.TrimSpace(*exec) != "" {
		stmts = stmts[:0]
		for _, s := range strings.Split(*exec, ";") {
			if s = strings.TrimSpace(s); s != "" {
				stmts = append(stmts, s)
			}
		}
	}

	for _, stmt := range stmts {
		if err := run(session, stmt, *quiet); err != nil {
			if !*quiet {
				fmt.Fprintf(os.Stderr, "cqlping: %s: %v\n", stmt, err)
			}
			os.Exit(1)
		}
	}
}

func run(session *gocql.Session, stmt string, quiet bool) error {
	iter := session.Query(stmt).Iter()
	cols := iter.Columns()
	for {
		row := make(map[string]interface{}, len(cols))
		if !iter.MapScan(row) {
			break
		}
		if quiet {
			continue
		}
		fields := make([]string, len(cols))
		for i, c := range cols {
			fields[i] = fmt.Sprint(row[c.Name])
		}
		fmt.Println(strings.Join(fields, "\t"))
	}
	return iter.Close()
}
