package widerow_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"golang.org/x/crypto/bcrypt"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/internal/testkit/cputime"
)

// allFollowers lists every follower of user, a page at a time.
func allFollowers(b *testing.B, s *widerow.Store, user string) []domain.Follow {
	b.Helper()
	var all []domain.Follow
	after := ""
	for {
		page, err := s.Followers(context.Background(), user, after, domain.MaxFollowPage)
		if err != nil {
			b.Fatal(err)
		}
		all = append(all, page...)
		if len(page) < domain.MaxFollowPage {
			return all
		}
		after = page[len(page)-1].Cursor
	}
}

// fanoutStore is an on-disk store in periodic commit-log mode under partitioner p with "author"
// and n followers ("fan00000"...), and its service.
func fanoutStore(b *testing.B, n int, p engine.Partitioner) *social.Service {
	svc, _ := fanoutStoreOf(b, n, p)
	return svc
}

func fanoutStoreOf(b *testing.B, n int, p engine.Partitioner) (*social.Service, *widerow.Store) {
	b.Helper()
	schema := engine.DefaultSchema()
	schema.Partitioner = p
	node, err := engine.Open(engine.Options{Schema: schema, Dir: b.TempDir(), CommitLogSync: engine.SyncPeriodic, CommitLogSyncPeriod: time.Second})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { node.Close() })
	s := widerow.NewStore(node)
	ctx := context.Background()
	mk := func(name string) {
		if err := s.CreateUser(ctx, domain.User{ID: uuid.New(), Username: name, PasswordHash: []byte("h"), CreatedAt: time.Now()}); err != nil {
			b.Fatal(err)
		}
	}
	mk("author")
	for i := 0; i < n; i++ {
		f := fmt.Sprintf("fan%05d", i)
		mk(f)
		if err := s.Follow(ctx, f, "author", time.Now()); err != nil {
			b.Fatal(err)
		}
	}
	return social.New(s, s, s, nil, domain.NewPasswordHasher(bcrypt.MinCost)), s
}

// BenchmarkPostVersusFloor posts as an author with 10,000 followers through the use case, and
// writes the same rows three other ways: with one bare BatchMutate (the author's Userline and
// Timeline rows, the public line, the 10,000 followers' Timeline rows, one shared column); as
// the use case did before AppendToFollowers, naming every timeline by its owner's username
// (by-name); and through the engine's Floor, the followers' Timeline cells written straight
// into Pebble (the floor of any fan-out on this storage). Each way has a store of its own and
// a phase of its own, and pays for all of its storage work: a phase ends with its store
// flushed and compacted, counted as the phase's (see cputime.Meter). It reports each one's
// process CPU per operation, and each one's CPU and wall time against the floor's: post/floor
// is what a post costs beyond the storage's own work.
func BenchmarkPostVersusFloor(b *testing.B) {
	svc, svcStore := fanoutStoreOf(b, 10_000, engine.RandomPartitioner)
	_, named := fanoutStoreOf(b, 10_000, engine.RandomPartitioner)
	_, s := fanoutStoreOf(b, 10_000, engine.RandomPartitioner)
	_, raw := fanoutStoreOf(b, 10_000, engine.RandomPartitioner)
	ctx := context.Background()
	author, err := s.GetUser(ctx, "author")
	if err != nil {
		b.Fatal(err)
	}
	followers := allFollowers(b, s, "author")
	if len(followers) != 10_000 {
		b.Fatalf("%d followers", len(followers))
	}
	id := []byte(uuid.NewString())
	var col engine.Column
	shared := []engine.Mutation{{ColumnOrSuperColumn: &engine.ColumnOrSuperColumn{Column: &col}}}
	timelineOnly := map[string][]engine.Mutation{"Timeline": shared}
	muts := map[string]map[string][]engine.Mutation{
		author.ID.String(): {"Timeline": shared, "Userline": shared},
		widerow.PublicKey:  {"Userline": shared},
	}
	for _, f := range followers {
		muts[f.Cursor] = timelineOnly // widerow's cursor of a follow is the follower's uuid
	}
	// The fan-out as the use case did it before AppendToFollowers: the followers listed by
	// username (each uuid named), then one Append naming each timeline by username (each name
	// looked up again).
	byName := func() error {
		s := named
		now := time.Now().UnixMicro()
		tw := domain.Tweet{ID: domain.NewTimeUUID(now), Username: "author", Body: "hello followers", CreatedAt: domain.TimeFromMicros(now)}
		if err := s.SaveTweet(ctx, tw); err != nil {
			return err
		}
		lines := []domain.LineKey{domain.UserlineOf("author"), domain.PublicLine(), domain.TimelineOf("author")}
		after := ""
		for {
			page, err := s.Followers(ctx, "author", after, domain.MaxFollowPage)
			if err != nil {
				return err
			}
			for _, f := range page {
				lines = append(lines, domain.TimelineOf(f.Username))
			}
			if len(page) < domain.MaxFollowPage {
				break
			}
			after = page[len(page)-1].Cursor
		}
		return s.Append(ctx, domain.LineEntry{Time: now, TweetID: tw.ID, Tweet: &tw}, lines...)
	}
	var keys []string
	for _, f := range allFollowers(b, raw, "author") {
		keys = append(keys, f.Cursor)
	}
	floor, err := raw.Node().Floor(widerow.KeyspaceTwissandra, "Timeline", keys)
	if err != nil {
		b.Fatal(err)
	}
	var now int64
	// A new column for each write of the ways that are not the use case, its value a new tweet
	// id as a post's is: a constant value compresses to nothing in the tables, which made the
	// floor's flushes and compactions cheaper than any post's (its store ended 0.4x the size).
	tick := func() {
		now = time.Now().UnixMicro()
		id = []byte(domain.NewTimeUUID(now).String())
		col = engine.Column{Name: widerow.LongName(now), Value: id, Timestamp: now}
	}
	ways := []struct {
		node *engine.Node
		op   func() error
	}{
		{svcStore.Node(), func() error {
			_, err := svc.Post(ctx, "author", "hello followers")
			return err
		}},
		{named.Node(), byName},
		{s.Node(), func() error {
			tick()
			return s.Node().BatchMutate(ctx, widerow.KeyspaceTwissandra, muts, engine.ONE)
		}},
		{raw.Node(), func() error {
			tick()
			return floor.Write(col.Name, col.Value, now)
		}},
	}
	for _, w := range ways { // what the set-up left is no phase's
		if err := w.node.Compact(ctx); err != nil {
			b.Fatal(err)
		}
	}
	m := cputime.NewMeter("post", "by-name", "batch_mutate", "floor")
	b.ResetTimer()
	for i, w := range ways {
		for range b.N {
			m.Measure(i, w.op)
		}
		m.Charge(i, func() error { return w.node.Compact(ctx) }) // what the phase left
	}
	m.Report(b)
}

// BenchmarkPost posts as a user with 0, 100 and 10,000 followers on an on-disk store in periodic
// commit-log mode: the fan-out is one BatchMutate, one Pebble batch. The last runs the 10,000
// under OrderPreservingPartitioner: every key of the fan-out is 16 bytes shorter (no MD5 token)
// and no MD5 is computed, which measures what the seeds' RandomPartitioner costs a fan-out.
func BenchmarkPost(b *testing.B) {
	for _, bc := range []struct {
		n int
		p engine.Partitioner
	}{{0, engine.RandomPartitioner}, {100, engine.RandomPartitioner}, {10000, engine.RandomPartitioner}, {10000, engine.OrderPreservingPartitioner}} {
		name := fmt.Sprintf("followers=%d", bc.n)
		if bc.p != engine.RandomPartitioner {
			name += "/" + bc.p.String()
		}
		b.Run(name, func(b *testing.B) {
			svc := fanoutStore(b, bc.n, bc.p)
			ctx := context.Background()
			b.ResetTimer()
			cpu0 := cputime.Process()
			for i := 0; i < b.N; i++ {
				if _, err := svc.Post(ctx, "author", "hello followers"); err != nil {
					b.Fatal(err)
				}
			}
			// The process's CPU time per post (every goroutine, Pebble's own included): unlike
			// the wall time it does not grow when a shared machine lends the CPU to others.
			b.ReportMetric(cputime.PerOp(cpu0, b.N), "cpu-ms/op")
		})
	}
}

// BenchmarkTimelinePageAfterFanout reads followers' home timelines (a page of 40) after 150
// posts to 10,000 followers: 1.5 million timeline columns written, memtables flushed, tables
// waiting for compaction, as a store looks after a burst of fan-out.
func BenchmarkTimelinePageAfterFanout(b *testing.B) {
	svc := fanoutStore(b, 10000, engine.RandomPartitioner)
	ctx := context.Background()
	for range 150 {
		if _, err := svc.Post(ctx, "author", "hello followers"); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	i := 0
	for b.Loop() {
		i++
		p, err := svc.Timeline(ctx, fmt.Sprintf("fan%05d", (i*7919)%10000), "", 40)
		if err != nil || len(p.Tweets) != 40 {
			b.Fatal(len(p.Tweets), err)
		}
	}
}

// BenchmarkTimelinePage40 reads a 40-tweet page of a timeline through the use case: one reversed
// slice, one multiget of Tweet rows, one of User rows (served from the name cache when warm),
// on disk with the row cache as the schema configures it (Tweet rows cached) and without it.
func BenchmarkTimelinePage40(b *testing.B) {
	for _, bc := range []struct {
		name     string
		rowCache int
	}{{"rowcache=on", 0}, {"rowcache=off", -1}} {
		b.Run(bc.name, func(b *testing.B) {
			node, err := engine.Open(engine.Options{Dir: b.TempDir(), CommitLogSync: engine.SyncPeriodic, RowCacheSize: bc.rowCache})
			if err != nil {
				b.Fatal(err)
			}
			defer node.Close()
			s := widerow.NewStore(node)
			svc := social.New(s, s, s, nil, domain.NewPasswordHasher(bcrypt.MinCost))
			ctx := context.Background()
			if _, err := svc.SignUp(ctx, "reader", "password1"); err != nil {
				b.Fatal(err)
			}
			for i := 0; i < 200; i++ {
				if _, err := svc.Post(ctx, "reader", fmt.Sprintf("tweet %d, of some ordinary length for a tweet", i)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				p, err := svc.Timeline(ctx, "reader", "", 40)
				if err != nil || len(p.Tweets) != 40 {
					b.Fatal(len(p.Tweets), err)
				}
			}
		})
	}
}
