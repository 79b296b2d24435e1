package widerow

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"slices"
	"strconv"
	"sync"
	"time"

	"twissandra/adapters/internal/lastcount"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/ports/oplog"
)

// Follower counts and the pulled authors (the hybrid fan-out of domain/social/fanout.go).
//
// Cassandra 0.6 had no counters: its get_count walks the whole row, so counting a million
// followers at every post reads a million columns. This store keeps the count as a column of
// the author's User row, "followers", and rewrites it in the same batch as the follow's two
// columns. Read-modify-write is only exact when nothing runs between the read and the write:
// the store serialises the follows of one author with a lock of its own, which works because
// the engine is embedded in this one process (which therefore also remembers the last count it
// wrote: see followLocks). A 0.6 cluster has no such lock: its clients
// needed one outside Cassandra (ZooKeeper, as Cages did), or get_count at every read. A store
// written before the count existed counts the row once, with get_count, at its next follow.
//
// The pulled authors are the columns of one well-known row, Followers['!PULLED!'] (author uuid
// -> an empty value: the row is a set, like an index row), in the idiom of the public line's
// Userline['!PUBLIC!']: no user uuid can be that key.

// PulledKey is the Followers row that lists the pulled authors.
const PulledKey = "!PULLED!"

// colFollowers is the User row's follower count, decimal text like every number of the rows.
const colFollowers = "followers"

// maxPulled bounds the pulled authors one page looks at; pulled authors are the few above the
// threshold, by construction.
const maxPulled = 1 << 16

// followLocks serialise the follows and unfollows of one author (see above), and remember the
// counts they wrote. The count column is rewritten at every follow, and the engine keeps every
// write of a column until a flush or compaction merges them, so a read of an author's count
// right after a burst of follows would walk the burst. The process that serialises the writes
// knows the value it wrote last: it reads the column once per author and process.
type followLocks struct {
	seed   maphash.Seed
	locks  [256]sync.Mutex
	counts lastcount.Counts // author uuid -> follower count, written under the author's lock
}

func (l *followLocks) of(id string) *sync.Mutex {
	return &l.locks[maphash.String(l.seed, id)%uint64(len(l.locks))]
}

// Follow writes Friends[user][friend], Followers[friend][user] and the friend's count, one more,
// in one batch, unless user already follows friend (then the first since stays).
func (s *Store) Follow(ctx context.Context, username, friend string, since time.Time) error {
	uid, fid, following, unlock, err := s.lockFollow(ctx, username, friend)
	if err != nil {
		return err
	}
	defer unlock()
	if following {
		return nil // the first since stays
	}
	n, err := s.followerCount(ctx, fid)
	if err != nil {
		return wrap("follow", err)
	}
	ts := s.ts()
	if err := s.node.BatchMutate(ctx, KeyspaceTwissandra, map[string]map[string][]engine.Mutation{
		uid: {cfFriends: {col(fid, micros(since), ts)}},
		fid: {cfFollowers: {col(uid, micros(since), ts)}, cfUser: {col(colFollowers, strconv.AppendInt(nil, n+1, 10), ts)}},
	}, cl); err != nil {
		return wrap("follow", err)
	}
	s.followLock.counts.Put(fid, n+1)
	s.pulled.changed(username)
	return nil
}

// Unfollow deletes both columns in one batch, with the friend's count one less when user was a
// follower.
func (s *Store) Unfollow(ctx context.Context, username, friend string) error {
	uid, fid, following, unlock, err := s.lockFollow(ctx, username, friend)
	if err != nil {
		return err
	}
	defer unlock()
	ts := s.ts()
	del := func(name string) []engine.Mutation {
		return []engine.Mutation{{Deletion: &engine.Deletion{Timestamp: ts, Predicate: &engine.SlicePredicate{ColumnNames: [][]byte{[]byte(name)}}}}}
	}
	rows := map[string]map[string][]engine.Mutation{
		uid: {cfFriends: del(fid)},
		fid: {cfFollowers: del(uid)},
	}
	n := int64(-1)
	if following {
		if n, err = s.followerCount(ctx, fid); err != nil {
			return wrap("unfollow", err)
		}
		n = max(n-1, 0)
		rows[fid][cfUser] = []engine.Mutation{col(colFollowers, strconv.AppendInt(nil, n, 10), ts)}
	}
	if err := s.node.BatchMutate(ctx, KeyspaceTwissandra, rows, cl); err != nil {
		return wrap("unfollow", err)
	}
	if n >= 0 {
		s.followLock.counts.Put(fid, n)
	}
	s.pulled.changed(username)
	return nil
}

// lockFollow resolves both users, takes the followed one's lock and says whether username
// follows friend already. Unless it fails, the caller releases the lock with unlock.
func (s *Store) lockFollow(ctx context.Context, username, friend string) (uid, fid string, following bool, unlock func(), err error) {
	if uid, fid, err = s.pair(ctx, username, friend); err != nil {
		return "", "", false, nil, err
	}
	mu := s.followLock.of(fid)
	mu.Lock()
	if following, err = s.isFollower(ctx, fid, uid); err != nil {
		mu.Unlock()
		return "", "", false, nil, wrap("follow", err)
	}
	return uid, fid, following, mu.Unlock, nil
}

// isFollower reads the one column Friends[uid][fid]: the follower's side, written in the same
// batch as the other. Not Followers[fid][uid]: the Followers rows are row-cached, and a read of
// one column of a cached row loads the whole row, which for an author with a million followers
// is a million columns at every follow.
func (s *Store) isFollower(ctx context.Context, fid, uid string) (bool, error) {
	_, err := s.node.Get(ctx, KeyspaceTwissandra, uid, engine.ColumnPath{ColumnFamily: cfFriends, Column: []byte(fid)}, cl)
	if errors.Is(err, engine.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// followerCount is the count this process last wrote or read, else User[id]["followers"], else
// (a store written before the count) the live columns of the Followers row, counted once. The
// caller holds the author's lock.
func (s *Store) followerCount(ctx context.Context, id string) (int64, error) {
	if n, ok := s.followLock.counts.Get(id); ok {
		noteCountKnown(ctx, id, n)
		return n, nil
	}
	var n int64
	c, err := s.node.Get(ctx, KeyspaceTwissandra, id, engine.ColumnPath{ColumnFamily: cfUser, Column: []byte(colFollowers)}, cl)
	switch {
	case err == nil:
		if n, err = strconv.ParseInt(string(c.Column.Value), 10, 64); err != nil {
			return 0, fmt.Errorf("the count User[%s][%s] = %q: %w", id, colFollowers, c.Column.Value, err)
		}
	case errors.Is(err, engine.ErrNotFound):
		var counted int
		if counted, err = s.node.GetCount(ctx, KeyspaceTwissandra, id, engine.ColumnParent{ColumnFamily: cfFollowers}, cl); err != nil {
			return 0, err
		}
		n = int64(counted)
	default:
		return 0, err
	}
	s.followLock.counts.Put(id, n)
	return n, nil
}

// noteCountKnown tells the request's operations that a count came from the adapter's memory.
func noteCountKnown(ctx context.Context, id string, n int64) {
	switch {
	case !oplog.Enabled(ctx):
	case !oplog.Detailed(ctx):
		oplog.Record(ctx, oplog.Op{Model: "widerow", Kind: oplog.Note, Call: "cache"})
	default:
		oplog.Record(ctx, oplog.Op{Model: "widerow", Kind: oplog.Note, Call: "cache", Family: KeyspaceTwissandra + "." + cfUser,
			Touched: fmt.Sprintf("%d followers", n),
			Text:    fmt.Sprintf("cache User[%s][%s]: %d, the count this process last wrote (it serialises every follow of the author), not read", id, colFollowers, n)})
	}
}

// FollowerCount reads the author's count (see followerCount).
func (s *Store) FollowerCount(ctx context.Context, username string) (int64, error) {
	id, ok, err := s.userID(ctx, username)
	if err != nil || !ok {
		return 0, err
	}
	if n, ok := s.followLock.counts.Get(id); ok {
		noteCountKnown(ctx, id, n)
		return n, nil
	}
	mu := s.followLock.of(id)
	mu.Lock()
	defer mu.Unlock()
	n, err := s.followerCount(ctx, id)
	if err != nil {
		return 0, wrap(fmt.Sprintf("follower count of %q", username), err)
	}
	return n, nil
}

// MarkPulled writes the author's column of Followers['!PULLED!'], once.
func (s *Store) MarkPulled(ctx context.Context, username string) error {
	id, ok, err := s.userID(ctx, username)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("widerow: mark pulled %q: %w", username, domain.ErrNotFound)
	}
	_, err = s.node.Get(ctx, KeyspaceTwissandra, PulledKey, engine.ColumnPath{ColumnFamily: cfFollowers, Column: []byte(id)}, cl)
	if !errors.Is(err, engine.ErrNotFound) {
		return wrap("mark pulled", err)
	}
	ts := s.ts()
	err = s.node.BatchMutate(ctx, KeyspaceTwissandra, map[string]map[string][]engine.Mutation{
		PulledKey: {cfFollowers: {col(id, nil, ts)}},
	}, cl)
	s.pulled.changed("") // any reader may follow the new one
	return wrap("mark pulled", err)
}

// PulledAuthors slices Followers['!PULLED!'] and names its columns' users, as a follow list's
// columns are named.
func (s *Store) PulledAuthors(ctx context.Context) ([]string, error) {
	cols, err := s.node.GetSlice(ctx, KeyspaceTwissandra, PulledKey, engine.ColumnParent{ColumnFamily: cfFollowers}, all(maxPulled), cl)
	if err != nil {
		return nil, wrap("pulled authors", err)
	}
	follows, err := s.followsOf(ctx, cols)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(follows))
	for i, f := range follows {
		out[i] = f.Username
	}
	slices.Sort(out)
	return out, nil
}

// pulledFriends remembers what PulledFriends read for each reader, until a write changes it:
// a follow or unfollow by the reader drops the reader's, a new pulled author everyone's. The
// store serialises those writes in this process (the engine is embedded: no other process
// writes its rows), so what it remembers is exact, not a copy some time old. A home page read
// again costs no read of Followers['!PULLED!'] (a column per pulled author) nor of the reader's
// Friends row by those names (a seek per pulled author).
type pulledFriends struct {
	mu      sync.Mutex
	gen     uint64 // changed by every write that may change a reader's follows among the pulled
	readers map[string][]domain.Follow
}

// maxPulledReaders bounds the readers remembered: past it, they are forgotten all at once.
const maxPulledReaders = 1 << 16

// get returns reader's follows if remembered, and the generation to keep a fresh read under.
func (p *pulledFriends) get(reader string) ([]domain.Follow, bool, uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	f, ok := p.readers[reader]
	return f, ok, p.gen
}

// keep remembers reader's follows, read under generation gen, unless a write came since.
func (p *pulledFriends) keep(reader string, f []domain.Follow, gen uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gen != gen {
		return
	}
	if p.readers == nil || len(p.readers) >= maxPulledReaders {
		p.readers = map[string][]domain.Follow{}
	}
	p.readers[reader] = f
}

// changed forgets reader's follows ("": every reader's), after a write.
func (p *pulledFriends) changed(reader string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.gen++
	if reader == "" {
		p.readers = nil
	} else {
		delete(p.readers, reader)
	}
}

// notePulledKnown tells the request's operations that the reader's pulled follows came from
// the adapter's memory.
func notePulledKnown(ctx context.Context, reader string, n int) {
	switch {
	case !oplog.Enabled(ctx):
	case !oplog.Detailed(ctx):
		oplog.Record(ctx, oplog.Op{Model: "widerow", Kind: oplog.Note, Call: "cache"})
	default:
		oplog.Record(ctx, oplog.Op{Model: "widerow", Kind: oplog.Note, Call: "cache", Family: KeyspaceTwissandra + "." + cfFriends,
			Touched: fmt.Sprintf("%d follows", n),
			Text: fmt.Sprintf("cache Followers['%s'] and Friends[%s] by those names: the %d pulled authors %s follows, as this process last read them; its follows and marks since would have dropped them (not read)",
				PulledKey, reader, n, reader)})
	}
}

// PulledFriends slices Followers['!PULLED!'], then reads the Friends row of username by those
// column names only: two reads, whatever the length of the friend list; remembered until a
// write changes them (pulledFriends).
func (s *Store) PulledFriends(ctx context.Context, username string) ([]domain.Follow, error) {
	f, ok, gen := s.pulled.get(username)
	if ok {
		notePulledKnown(ctx, username, len(f))
		return f, nil
	}
	f, err := s.readPulledFriends(ctx, username)
	if err != nil {
		return nil, err
	}
	s.pulled.keep(username, f, gen)
	return f, nil
}

func (s *Store) readPulledFriends(ctx context.Context, username string) ([]domain.Follow, error) {
	pulled, err := s.node.GetSlice(ctx, KeyspaceTwissandra, PulledKey, engine.ColumnParent{ColumnFamily: cfFollowers}, all(maxPulled), cl)
	if err != nil {
		return nil, wrap("pulled authors", err)
	}
	if len(pulled) == 0 {
		return nil, nil
	}
	uid, ok, err := s.userID(ctx, username)
	if err != nil || !ok {
		return nil, err
	}
	names := make([][]byte, len(pulled))
	for i, c := range pulled {
		names[i] = c.Column.Name
	}
	cols, err := s.node.GetSlice(ctx, KeyspaceTwissandra, uid, engine.ColumnParent{ColumnFamily: cfFriends}, engine.SlicePredicate{ColumnNames: names}, cl)
	if err != nil {
		return nil, wrap("pulled friends", err)
	}
	return s.followsOf(ctx, cols)
}
