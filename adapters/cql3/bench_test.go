package cql3

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"golang.org/x/crypto/bcrypt"

	"twissandra/domain"
	"twissandra/domain/social"
)

// Run with a node up:
//
//	TWISSANDRA_CQL_HOSTS=127.0.0.1 go test -run '^$' -bench . -benchtime 20x ./adapters/cql3/

const benchFollowers = 1000

func benchLines(prefix string) []domain.LineKey {
	lines := make([]domain.LineKey, benchFollowers)
	for i := range lines {
		lines[i] = domain.TimelineOf(fmt.Sprintf("%s_%04d", prefix, i))
	}
	return lines
}

// benchBody is a tweet of 100 characters: the query-first rows carry it.
var benchBody = strings.Repeat("a tweet of one hundred characters. ", 3)[:100]

// fanout is LineStore.Append of one entry, its tweet carried, to 1,000 timelines.
func fanout(b *testing.B, s *Store, lines []domain.LineKey) {
	now := time.Now().UnixMicro()
	tw := domain.Tweet{ID: domain.NewTimeUUID(now), Username: "bench_author", Body: benchBody, CreatedAt: domain.TimeFromMicros(now)}
	if err := s.Append(context.Background(), domain.LineEntry{Time: now, TweetID: tw.ID, Tweet: &tw}, lines...); err != nil {
		b.Fatal(err)
	}
}

// rawInsert is the same 1,000 timeline inserts, rows of the same size, written directly on the
// same session: the same statement, the same concurrency, a plain semaphore and wait group.
func rawInsert(b *testing.B, s *Store, owners []string) {
	sess, err := s.sess()
	if err != nil {
		b.Fatal(err)
	}
	now := time.Now().UnixMicro()
	id := gu(domain.NewTimeUUID(now))
	ms, us := splitMicros(domain.TimeFromMicros(now))
	sem := make(chan struct{}, s.cfg.FanoutConcurrency)
	var wg sync.WaitGroup
	errs := make(chan error, 1)
	for _, owner := range owners {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := sess.Session.Query(timelineStmts.insert.cql, owner, id, id, "bench_author", benchBody, ms, us).Exec(); err != nil {
				select {
				case errs <- err:
				default:
				}
			}
		}()
	}
	wg.Wait()
	select {
	case err := <-errs:
		b.Fatal(err)
	default:
	}
}

func ownersOf(lines []domain.LineKey) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Owner
	}
	return out
}

func reportInserts(b *testing.B, elapsed time.Duration) {
	b.ReportMetric(float64(benchFollowers*b.N)/elapsed.Seconds(), "inserts/s")
}

// BenchmarkFanout1000 appends one entry to 1,000 followers' timelines per op.
func BenchmarkFanout1000(b *testing.B) {
	s := sharedStore(b)
	lines := benchLines("bf_" + uuid.NewString()[:6])
	fanout(b, s, lines) // warm: prepared statements, connections
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		fanout(b, s, lines)
	}
	reportInserts(b, time.Since(start))
}

// BenchmarkRawInsert1000 writes the same 1,000 rows per op directly through the driver.
func BenchmarkRawInsert1000(b *testing.B) {
	s := sharedStore(b)
	owners := ownersOf(benchLines("br_" + uuid.NewString()[:6]))
	rawInsert(b, s, owners)
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < b.N; i++ {
		rawInsert(b, s, owners)
	}
	reportInserts(b, time.Since(start))
}

// BenchmarkFanoutVersusRaw alternates the two, op by op, so that both see the same load on a
// shared machine, and reports the ratio of their insert rates (fan-out / raw; the target is
// at least 0.8).
func BenchmarkFanoutVersusRaw(b *testing.B) {
	s := sharedStore(b)
	lines := benchLines("bv_" + uuid.NewString()[:6])
	owners := ownersOf(lines)
	fanout(b, s, lines)
	rawInsert(b, s, owners)
	b.ResetTimer()
	var tFan, tRaw time.Duration
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		fanout(b, s, lines)
		t1 := time.Now()
		rawInsert(b, s, owners)
		tFan += t1.Sub(t0)
		tRaw += time.Since(t1)
	}
	fan := float64(benchFollowers*b.N) / tFan.Seconds()
	raw := float64(benchFollowers*b.N) / tRaw.Seconds()
	b.ReportMetric(fan, "fanout-inserts/s")
	b.ReportMetric(raw, "raw-inserts/s")
	b.ReportMetric(fan/raw, "ratio")
}

// BenchmarkTimelinePage40 reads a 40-tweet home timeline page through social.Service and
// reports the round trips per page (TestTimelinePageIsOneRoundTrip asserts there is 1).
func BenchmarkTimelinePage40(b *testing.B) {
	obs := &countingObserver{}
	s := observedStore(b, obs)
	ctx := context.Background()
	svc := social.New(s, s, s, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	user := "bp_" + uuid.NewString()[:8]
	if _, err := svc.SignUp(ctx, user, "password1"); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 41; i++ {
		if _, err := svc.Post(ctx, user, fmt.Sprintf("tweet %d", i)); err != nil {
			b.Fatal(err)
		}
	}
	obs.reset()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if p, err := svc.Timeline(ctx, user, "", 40); err != nil || len(p.Tweets) != 40 {
			b.Fatalf("page = %d tweets, %v", len(p.Tweets), err)
		}
	}
	b.ReportMetric(float64(obs.total())/float64(b.N), "round-trips/page")
}
