package cql3

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gocql/gocql"
	"github.com/scylladb/gocqlx/v2"
	"github.com/scylladb/gocqlx/v2/qb"

	"twissandra/domain"
	"twissandra/ports/oplog"
)

// Follower counts and the pulled authors (the hybrid fan-out of domain/social/fanout.go); the
// tables are migration 005's.

const pulledLine = "pulled"

// The follow's conditional batches: the follower row and the partition's static count change in
// one Paxos round on the followed user's partition.
const (
	cqlFollowRow   = `INSERT INTO followers (username, follower, since, since_us) VALUES (?, ?, ?, ?) IF NOT EXISTS`
	cqlUnfollowRow = `DELETE FROM followers WHERE username = ? AND follower = ? IF EXISTS`
	cqlSetCount    = `UPDATE followers SET follower_count = ? WHERE username = ? IF follower_count = ?`
)

var (
	stFollowerCount  = mk(qb.Select(followersTable.Name()).Columns("follower_count").Where(qb.Eq("username")).Limit(1).ToCql())
	stCountFollowers = mk(qb.Select(followersTable.Name()).CountAll().Where(qb.Eq("username")).ToCql())
	stFollowerRow    = mk(followersTable.SelectBuilder("since", "since_us").Where(qb.Eq("follower")).ToCql())
	stMarkPulled     = mk(qb.Insert("pulled_authors").Columns("line", "username", "since").ToCql())
	stPulledAuthors  = mk(qb.Select("pulled_authors").Columns("username").Where(qb.Eq("line")).ToCql())
	stFriendsIn      = mk(friendsTable.SelectBuilder("friend", "since", "since_us").Where(qb.In("friend")).ToCql())
)

// pulledTTL is how long this process trusts what it read of the pulled authors and of a
// reader's follows among them. What this process writes (a mark, a follow, an unfollow) it
// sees at once; a change made through another process may go unseen here for this long: a
// page then misses a pulled author's posts for a moment, and shows them on a later read. In
// exchange, a home-timeline page is one query, not three.
const pulledTTL = time.Second

// pulledCache is this process's copy of pulled_authors and of the readers' follows among them.
type pulledCache struct {
	mu      sync.Mutex
	ttl     time.Duration
	names   []string // sorted; the set only grows
	read    time.Time
	readers map[string]readerPulled
	// gen counts the changes this process made; a lookup that began before one keeps nothing.
	gen uint64
}

type readerPulled struct {
	follows []domain.Follow
	read    time.Time
}

// forget drops what the cache knows of reader's follows (this process changed them).
func (c *pulledCache) forget(reader string) {
	c.mu.Lock()
	delete(c.readers, reader)
	c.gen++
	c.mu.Unlock()
}

// Follow inserts the follower row and the count, one more, in one conditional batch, then the
// friends row. Following again writes nothing but the friends row of the first since (it
// repairs a follow whose friends row a failure left unwritten).
func (s *Store) Follow(ctx context.Context, username, friend string, since time.Time) error {
	return s.changeFollow(ctx, username, friend, since, true)
}

// Unfollow deletes the follower row and sets the count one less in one conditional batch,
// then deletes the friends row.
func (s *Store) Unfollow(ctx context.Context, username, friend string) error {
	return s.changeFollow(ctx, username, friend, time.Time{}, false)
}

func (s *Store) changeFollow(ctx context.Context, username, friend string, since time.Time, follow bool) error {
	what := fmt.Sprintf("unfollow %s -> %s", username, friend)
	if follow {
		what = fmt.Sprintf("follow %s -> %s", username, friend)
	}
	sess, err := s.sess()
	if err != nil {
		return err
	}
	unlock, err := s.lwtLocks.lock(ctx, "followers\x00"+friend)
	if err != nil {
		return wrap(what, err)
	}
	defer unlock()
	defer s.pulled.forget(username)
	for attempt := 0; attempt < maxCASAttempts; attempt++ {
		// The count this process last wrote for friend is the expected value, unless another
		// process changed it since (the batch then does not apply, and the loop reads it).
		n, known := s.counts.Get(friend)
		if !known {
			if n, known, err = s.storedCount(ctx, sess, friend); err != nil {
				return wrap(what, err)
			}
		}
		var expected any // nil: a partition without a count (none yet, or older than it)
		if known {
			expected = n
		} else if n, err = s.countRows(ctx, sess, friend); err != nil {
			return wrap(what, err)
		}
		b := sess.NewBatch(gocql.LoggedBatch).WithContext(ctx)
		b.SerialConsistency(s.cfg.serial)
		b.RetryPolicy(nil) // a retried proposal that did commit would report "not applied"
		if follow {
			ms, us := splitMicros(since)
			b.Query(cqlFollowRow, friend, username, ms, us)
			b.Query(cqlSetCount, int(n+1), friend, expected)
		} else {
			b.Query(cqlUnfollowRow, friend, username)
			b.Query(cqlSetCount, int(max(n-1, 0)), friend, expected)
		}
		applied, iter, err := sess.MapExecuteBatchCAS(b, map[string]any{})
		if iter != nil {
			err = errors.Join(err, iter.Close())
		}
		if err != nil || !applied {
			s.counts.Drop(friend) // unknown (a timeout may have applied it), or stale
		}
		if err != nil {
			return wrap(what, err)
		}
		if applied {
			next := n + 1
			if !follow {
				next = max(n-1, 0)
			}
			s.counts.Put(friend, next)
		} else {
			// Lost to a concurrent change of the count, or nothing to change: the row is
			// there already (a follow) or gone already (an unfollow).
			row, present, err := s.followerRow(ctx, sess, friend, username)
			if err != nil {
				return wrap(what, err)
			}
			if present != follow {
				continue
			}
			since = row
		}
		if follow {
			ms, us := splitMicros(since)
			return wrap(what, query(ctx, sess, stInsertFriend, qb.M{"username": username, "friend": friend, "since": ms, "since_us": us}).ExecRelease())
		}
		return wrap(what, query(ctx, sess, stDeleteFriend, qb.M{"username": username, "friend": friend}).ExecRelease())
	}
	return fmt.Errorf("cql3: %s: %d compare-and-set rounds lost to concurrent writers: %w", what, maxCASAttempts, domain.ErrUnavailable)
}

// storedCount reads the partition's static count at serial consistency (which completes any
// Paxos round in flight); known is false when it was never set.
func (s *Store) storedCount(ctx context.Context, sess gocqlx.Session, username string) (n int64, known bool, err error) {
	var cur *int
	q := query(ctx, sess, stFollowerCount, qb.M{"username": username})
	s.atSerial(q)
	if err := q.GetRelease(&cur); err != nil && !errors.Is(err, gocql.ErrNotFound) {
		return 0, false, err
	}
	if cur == nil {
		return 0, false, nil
	}
	return int64(*cur), true, nil
}

// countRows counts a partition without a count: Cassandra 0.6's get_count, once.
func (s *Store) countRows(ctx context.Context, sess gocqlx.Session, username string) (int64, error) {
	var n int64
	err := query(ctx, sess, stCountFollowers, qb.M{"username": username}).GetRelease(&n)
	return n, err
}

// followerRow reads one follower row at serial consistency.
func (s *Store) followerRow(ctx context.Context, sess gocqlx.Session, username, follower string) (time.Time, bool, error) {
	var (
		since time.Time
		us    int
	)
	q := query(ctx, sess, stFollowerRow, qb.M{"username": username, "follower": follower})
	s.atSerial(q)
	err := q.Query.Scan(&since, &us)
	q.Release()
	if errors.Is(err, gocql.ErrNotFound) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, err
	}
	return joinMicros(since, us), true, nil
}

// FollowerCount reads the followers partition's static count (one row), or counts a partition
// written before the count existed.
func (s *Store) FollowerCount(ctx context.Context, username string) (int64, error) {
	sess, err := s.sess()
	if err != nil {
		return 0, err
	}
	var cur *int
	err = query(ctx, sess, stFollowerCount, qb.M{"username": username}).GetRelease(&cur)
	switch {
	case errors.Is(err, gocql.ErrNotFound):
		return 0, nil
	case err != nil:
		return 0, wrap("follower count of "+username, err)
	case cur != nil:
		return int64(*cur), nil
	}
	n, err := s.countRows(ctx, sess, username)
	return n, wrap("follower count of "+username, err)
}

// MarkPulled inserts the author's row of pulled_authors, once per process.
func (s *Store) MarkPulled(ctx context.Context, username string) error {
	s.pulled.mu.Lock()
	_, known := slices.BinarySearch(s.pulled.names, username)
	s.pulled.mu.Unlock()
	if known {
		return nil
	}
	sess, err := s.sess()
	if err != nil {
		return err
	}
	ms, _ := splitMicros(time.Now())
	if err := query(ctx, sess, stMarkPulled, qb.M{"line": pulledLine, "username": username, "since": ms}).ExecRelease(); err != nil {
		return wrap("mark pulled "+username, err)
	}
	s.pulled.mu.Lock()
	if i, found := slices.BinarySearch(s.pulled.names, username); !found {
		s.pulled.names = slices.Insert(slices.Clip(s.pulled.names), i, username) // readers may hold the old slice
	}
	clear(s.pulled.readers) // any of them may follow the new one
	s.pulled.gen++
	s.pulled.mu.Unlock()
	return nil
}

// PulledFriends reads the pulled authors, then username's friends rows among them with one IN
// query on username's partition; both are kept for pulledTTL.
func (s *Store) PulledFriends(ctx context.Context, username string) ([]domain.Follow, error) {
	ttl := s.pulled.ttlOrDefault()
	s.pulled.mu.Lock()
	if r, ok := s.pulled.readers[username]; ok && time.Since(r.read) < ttl {
		s.pulled.mu.Unlock()
		noteRemembered(ctx, username, len(r.follows))
		return r.follows, nil
	}
	gen := s.pulled.gen
	s.pulled.mu.Unlock()
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	began := time.Now()
	names, err := s.pulledAuthors(ctx, sess, ttl)
	if err != nil {
		return nil, err
	}
	var out []domain.Follow
	for chunk := range slices.Chunk(names, maxIn) {
		iter := query(ctx, sess, stFriendsIn, qb.M{"username": username, "friend": inValues(chunk)}).Iter()
		var (
			name  string
			since time.Time
			us    int
		)
		for iter.Scan(&name, &since, &us) {
			out = append(out, domain.Follow{Username: name, Since: joinMicros(since, us), Cursor: name})
		}
		if err := iter.Close(); err != nil {
			return nil, wrap("pulled friends of "+username, err)
		}
	}
	s.pulled.mu.Lock()
	if s.pulled.readers == nil {
		s.pulled.readers = map[string]readerPulled{}
	}
	for r, e := range s.pulled.readers { // bounded by the readers of the last ttl
		if time.Since(e.read) >= ttl {
			delete(s.pulled.readers, r)
		}
	}
	if s.pulled.gen == gen {
		s.pulled.readers[username] = readerPulled{follows: out, read: began}
	}
	s.pulled.mu.Unlock()
	return out, nil
}

func (c *pulledCache) ttlOrDefault() time.Duration {
	if c.ttl > 0 {
		return c.ttl
	}
	return pulledTTL
}

// noteRemembered tells the request's operations that the pulled authors a reader follows came
// from this process's memory, not from a query.
func noteRemembered(ctx context.Context, reader string, n int) {
	switch {
	case !oplog.Enabled(ctx):
	case !oplog.Detailed(ctx):
		oplog.Record(ctx, oplog.Op{Model: "cql3", Kind: oplog.Note, Call: "cache"})
	default:
		oplog.Record(ctx, oplog.Op{Model: "cql3", Kind: oplog.Note, Call: "cache", Family: "pulled_authors",
			Touched: fmt.Sprintf("%d follows", n),
			Text:    fmt.Sprintf("cache: the %d pulled authors %s follows, as this server read them less than %v ago (no query)", n, reader, pulledTTL)})
	}
}

// PulledAuthors reads pulled_authors, now (not this process's copy).
func (s *Store) PulledAuthors(ctx context.Context) ([]string, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	return s.pulledAuthors(ctx, sess, 0)
}

func (s *Store) pulledAuthors(ctx context.Context, sess gocqlx.Session, ttl time.Duration) ([]string, error) {
	s.pulled.mu.Lock()
	if time.Since(s.pulled.read) < ttl {
		names := s.pulled.names
		s.pulled.mu.Unlock()
		return names, nil
	}
	s.pulled.mu.Unlock()
	iter := query(ctx, sess, stPulledAuthors, qb.M{"line": pulledLine}).Iter()
	var (
		names []string
		name  string
	)
	for iter.Scan(&name) {
		names = append(names, name)
	}
	if err := iter.Close(); err != nil {
		return nil, wrap("pulled authors", err)
	}
	s.pulled.mu.Lock()
	defer s.pulled.mu.Unlock()
	// Keep what this process marked meanwhile: the set only grows.
	for _, n := range s.pulled.names {
		if i, found := slices.BinarySearch(names, n); !found {
			names = slices.Insert(names, i, n)
		}
	}
	s.pulled.names, s.pulled.read = names, time.Now()
	return names, nil
}
