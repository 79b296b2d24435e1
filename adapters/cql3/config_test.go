package cql3

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gocql/gocql"
	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/blog/model"
)

// These tests need no node.

func TestParseReplication(t *testing.T) {
	good := []struct {
		in, cql string
	}{
		{"SimpleStrategy:1", "{'class': 'SimpleStrategy', 'replication_factor': 1}"},
		{" SimpleStrategy : 3 ", "{'class': 'SimpleStrategy', 'replication_factor': 3}"},
		{"NetworkTopologyStrategy:dc1=3,dc2=2", "{'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 2}"},
		{"NetworkTopologyStrategy: us-east.1 = 3 , eu_west=1", "{'class': 'NetworkTopologyStrategy', 'eu_west': 1, 'us-east.1': 3}"},
	}
	for _, tc := range good {
		r, err := ParseReplication(tc.in)
		if err != nil {
			t.Errorf("ParseReplication(%q): %v", tc.in, err)
			continue
		}
		if got := r.CQL(); got != tc.cql {
			t.Errorf("ParseReplication(%q).CQL() = %s, want %s", tc.in, got, tc.cql)
		}
	}
	bad := []string{
		"", "SimpleStrategy", "SimpleStrategy:", "SimpleStrategy:0", "SimpleStrategy:-1", "SimpleStrategy:100",
		"SimpleStrategy:1}; DROP KEYSPACE x; --", "LocalStrategy:1", "simplestrategy:1",
		"NetworkTopologyStrategy:", "NetworkTopologyStrategy:dc1", "NetworkTopologyStrategy:dc1=0",
		"NetworkTopologyStrategy:dc1=3,dc1=2", "NetworkTopologyStrategy:dc1=3,",
		"NetworkTopologyStrategy:dc'1=3", "NetworkTopologyStrategy:dc1': 3, 'x=1",
		"NetworkTopologyStrategy:dc 1=3", "NetworkTopologyStrategy:dc1=3x",
	}
	for _, in := range bad {
		if r, err := ParseReplication(in); err == nil {
			t.Errorf("ParseReplication(%q) = %+v, want an error", in, r)
		}
	}
}

func TestConfigDefaultsAndValidation(t *testing.T) {
	s, err := Config{Hosts: []string{" 10.0.0.1 ", "", "10.0.0.2"}}.settings()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Hosts, []string{"10.0.0.1", "10.0.0.2"}) || s.Port != 9042 || s.Keyspace != "twissandra" ||
		s.consistency != gocql.LocalQuorum || s.serial != gocql.LocalSerial || s.FanoutConcurrency != 32 ||
		s.Timeout != DefaultTimeout || s.StartTimeout != DefaultStartTimeout || s.Retries != 3 {
		t.Fatalf("defaults = %+v", s)
	}
	c, err := s.cluster(s.Keyspace)
	if err != nil || c.Consistency != gocql.LocalQuorum || c.Port != 9042 || c.RetryPolicy == nil {
		t.Fatalf("cluster = %+v, %v", c, err)
	}
	if s, err := (Config{Hosts: []string{"h"}, Consistency: "one", SerialConsistency: "serial", LocalDC: "dc1", Username: "u", Password: "p"}).settings(); err != nil ||
		s.consistency != gocql.One || s.serial != gocql.Serial {
		t.Fatalf("ONE/SERIAL = %+v, %v", s, err)
	} else if c, err := s.cluster(""); err != nil || c.Authenticator == nil {
		t.Fatalf("cluster with a password = %+v, %v", c, err)
	}
	bad := []Config{
		{},
		{Hosts: []string{"h"}, Keyspace: "Twissandra"},
		{Hosts: []string{"h"}, Keyspace: "ks; DROP KEYSPACE x"},
		{Hosts: []string{"h"}, Keyspace: "a_keyspace_name_that_is_far_too_long_for_cassandra_1"},
		{Hosts: []string{"h"}, Consistency: "SERIAL"},
		{Hosts: []string{"h"}, Consistency: "MOST"},
		{Hosts: []string{"h"}, SerialConsistency: "QUORUM"},
		{Hosts: []string{"h"}, Replication: "SimpleStrategy:0"},
		{Hosts: []string{"h"}, Port: 70000},
		{Hosts: []string{"h"}, FanoutConcurrency: -1},
		{Hosts: []string{"h"}, LocalDC: "dc'1"},
		{Hosts: []string{"h"}, TLS: TLSConfig{CertFile: "c.pem"}},
	}
	for _, c := range bad {
		if _, err := c.settings(); err == nil {
			t.Errorf("settings(%+v): want an error", c)
		}
	}
	if _, err := (Config{Hosts: []string{"h"}, TLS: TLSConfig{Enabled: true, CAFile: "/nonexistent/ca.pem"}}).settings(); err != nil {
		t.Fatalf("settings do not read files: %v", err)
	} else if s, _ := (Config{Hosts: []string{"h"}, TLS: TLSConfig{Enabled: true, CAFile: "/nonexistent/ca.pem"}}).settings(); true {
		if _, err := s.cluster(""); err == nil {
			t.Fatal("a missing CA file must fail the cluster config")
		}
	}
}

// cassandraCompare orders timeuuids as Cassandra's TimeUUIDType does: timestamp, then the last
// eight bytes as signed bytes.
func cassandraCompare(a, b uuid.UUID) int {
	if ta, tb := domain.TimeUUIDTicks(a), domain.TimeUUIDTicks(b); ta != tb {
		if ta < tb {
			return -1
		}
		return 1
	}
	for i := 8; i < 16; i++ {
		if x, y := int8(a[i]), int8(b[i]); x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

func TestTimeUUIDBounds(t *testing.T) {
	base := time.Date(2014, 4, 17, 12, 0, 0, 0, time.UTC).UnixMicro()
	for i := 0; i < 1000; i++ {
		micros := base + int64(i)
		id := domain.NewTimeUUID(micros)
		if cassandraCompare(minTimeUUID(micros), id) >= 0 || cassandraCompare(id, maxTimeUUID(micros)) >= 0 {
			t.Fatalf("%s is not inside [min, max] of its microsecond", id)
		}
		if cassandraCompare(maxTimeUUID(micros-1), id) >= 0 || cassandraCompare(id, minTimeUUID(micros+1)) >= 0 {
			t.Fatalf("%s is inside a neighbouring microsecond's bounds", id)
		}
		if microsOf(minTimeUUID(micros)) != micros || microsOf(maxTimeUUID(micros)) != micros {
			t.Fatalf("bounds of %d carry another microsecond", micros)
		}
		lo, hi := tickBounds(id)
		if cassandraCompare(lo, id) >= 0 || cassandraCompare(id, hi) >= 0 || domain.TimeUUIDTicks(lo) != domain.TimeUUIDTicks(id) || domain.TimeUUIDTicks(hi) != domain.TimeUUIDTicks(id) {
			t.Fatalf("tick bounds of %s do not enclose it", id)
		}
	}
}

func TestLineTimeIsDeterministic(t *testing.T) {
	micros := time.Now().UnixMicro()
	id := domain.NewTimeUUID(micros)
	if got := lineTime(domain.LineEntry{Time: micros, TweetID: id}); got != id {
		t.Fatalf("the line time of a tweet at its own time is %s, want the tweet ID %s", got, id)
	}
	e := domain.LineEntry{Time: micros + 5, TweetID: id}
	a, b := lineTime(e), lineTime(e)
	if a != b || microsOf(a) != e.Time || a.Version() != 1 {
		t.Fatalf("line time of %+v = %s then %s", e, a, b)
	}
	twin := domain.LineEntry{Time: micros + 5, TweetID: domain.NewTimeUUID(micros)}
	if lineTime(twin) == a {
		t.Fatal("two tweets of one entry time share a line time")
	}
	for _, tm := range []time.Time{time.Date(2010, 5, 12, 9, 0, 0, 0, time.UTC), time.Date(2010, 5, 12, 9, 0, 0, 999999, time.UTC), time.Date(1969, 12, 31, 23, 59, 59, 999, time.UTC)} {
		ms, us := splitMicros(tm)
		if got := joinMicros(ms, us); !got.Equal(tm.Truncate(time.Microsecond)) || us < 0 || us > 999 || !ms.Equal(ms.Truncate(time.Millisecond)) {
			t.Fatalf("split/join %v = %v + %d -> %v", tm, ms, us, got)
		}
	}
	if d := dayOf(time.Date(2014, 4, 17, 23, 59, 59, 0, time.UTC).UnixMicro()); !d.Equal(time.Date(2014, 4, 17, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("dayOf = %v", d)
	}
}

// TestExactSliceOrdersTwinsUnsigned feeds exactSlice rows in Cassandra's order, where twins of
// one tick are ordered by signed bytes, and checks it pages in the contract's unsigned order
// for every limit, including ones that cut a tick in two.
func TestExactSliceOrdersTwinsUnsigned(t *testing.T) {
	base := time.Now().UnixMicro()
	var ids []uuid.UUID
	for i := 0; i < 6; i++ {
		for j := 0; j < 1+i%3; j++ { // 1 to 3 rows per microsecond
			id := domain.NewTimeUUID(base + int64(i))
			// One variant byte for all, so byte 9 decides between twins, and its three values
			// sort differently signed (0xf0 first) and unsigned (0xf0 last).
			id[8] = 0x80
			id[9] = []byte{0x10, 0xf0, 0x70}[j]
			id[10] = byte(rand.IntN(256))
			ids = append(ids, id)
		}
	}
	for _, desc := range []bool{true, false} {
		stored := slices.Clone(ids) // Cassandra's order
		slices.SortFunc(stored, cassandraCompare)
		want := slices.Clone(ids) // the contract's order
		slices.SortFunc(want, model.CompareTimeUUID)
		if desc {
			slices.Reverse(stored)
			slices.Reverse(want)
		}
		for limit := 1; limit <= len(ids)+1; limit++ {
			var got []uuid.UUID
			var cursor uuid.UUID
			for page := 0; page < 100; page++ {
				fetch := func(n int) ([]uuid.UUID, error) {
					var out []uuid.UUID
					for _, id := range stored {
						if cursor != uuid.Nil {
							lo, hi := tickBounds(cursor)
							if desc && cassandraCompare(id, hi) > 0 || !desc && cassandraCompare(id, lo) < 0 {
								continue
							}
						}
						if len(out) == n {
							break
						}
						out = append(out, id)
					}
					return out, nil
				}
				keep := func(uuid.UUID) bool { return true }
				if c := cursor; c != uuid.Nil {
					keep = func(id uuid.UUID) bool { return (model.CompareTimeUUID(id, c) < 0) == desc && id != c }
				}
				rows, err := exactSlice(limit, fetch, func(u uuid.UUID) uuid.UUID { return u }, keep, desc)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, rows...)
				if len(rows) < limit {
					break
				}
				cursor = rows[len(rows)-1]
			}
			if !slices.Equal(got, want) {
				t.Fatalf("desc=%v limit=%d: paged %v, want %v", desc, limit, got, want)
			}
		}
	}
}

func TestMapErr(t *testing.T) {
	cases := []struct {
		err  error
		want error
	}{
		{gocql.ErrNotFound, domain.ErrNotFound},
		{gocql.ErrNoConnections, domain.ErrUnavailable},
		{gocql.ErrTimeoutNoResponse, domain.ErrUnavailable},
		{gocql.ErrConnectionClosed, domain.ErrUnavailable},
		{context.DeadlineExceeded, domain.ErrUnavailable},
		{io.EOF, domain.ErrUnavailable}, // the node's connection closed under the request
		{fmt.Errorf("read: %w", io.ErrUnexpectedEOF), domain.ErrUnavailable},
		{&gocql.RequestErrUnavailable{}, domain.ErrUnavailable},
		{&gocql.RequestErrWriteTimeout{}, domain.ErrUnavailable},
		{&gocql.RequestErrReadTimeout{}, domain.ErrUnavailable},
		{fmt.Errorf("gocql: unable to create session: %v", errors.New("unable to connect to initial hosts: dial tcp 127.0.0.1:1: connect: connection refused")), domain.ErrUnavailable},
	}
	for _, tc := range cases {
		got := wrap("op", tc.err)
		if !errors.Is(got, tc.want) || !errors.Is(got, tc.err) {
			t.Errorf("wrap(%v) = %v: want it to match %v and keep the original", tc.err, got, tc.want)
		}
	}
	for _, err := range []error{errors.New("line 1:38 mismatched input"), fmt.Errorf("gocql: unable to create session: %v", errors.New("authentication failed"))} {
		if got := wrap("op", err); errors.Is(got, domain.ErrUnavailable) || errors.Is(got, domain.ErrNotFound) {
			t.Errorf("wrap(%v) = %v: a syntax or credentials error is not a sentinel", err, got)
		}
	}
	if !strings.HasPrefix(wrap("get user x", gocql.ErrNotFound).Error(), "cql3: get user x: ") {
		t.Error("wrap does not name the operation")
	}
}
