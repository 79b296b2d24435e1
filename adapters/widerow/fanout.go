package widerow

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"strconv"
	"sync"
	"time"

	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
)

// Follower counts and the pulled authors (the hybrid fan-out of domain/social/fanout.go).
//
// Cassandra 0.6 had no counters: its get_count walks the whole row, so counting a million
// followers at every post reads a million columns. This store keeps the count as a column of
// the author's User row, "followers", and rewrites it in the same batch as the follow's two
// columns. Read-modify-write is only exact when nothing runs between the read and the write:
// the store serialises the follows of one author with a lock of its own, which works because
// the engine is embedded in this one process. A 0.6 cluster has no such lock: its clients
// needed one outside Cassandra (ZooKeeper, as Cages did), or get_count at every read. A store
// written before the count existed counts the row once, with get_count, at its next follow.
//
// The pulled authors are the columns of one well-known row, Followers['!PULLED!'] (author uuid
// -> the time first marked), in the idiom of the public line's Userline['!PUBLIC!']: no user
// uuid can be that key.

// PulledKey is the Followers row that lists the pulled authors.
const PulledKey = "!PULLED!"

// colFollowers is the User row's follower count, decimal text like every number of the rows.
const colFollowers = "followers"

// maxPulled bounds the pulled authors one page looks at; pulled authors are the few above the
// threshold, by construction.
const maxPulled = 1 << 16

// followLocks serialise the follows and unfollows of one author (see above).
type followLocks struct {
	seed  maphash.Seed
	locks [256]sync.Mutex
}

func (l *followLocks) of(id string) *sync.Mutex {
	return &l.locks[maphash.String(l.seed, id)%uint64(len(l.locks))]
}

// Follow writes Friends[user][friend], Followers[friend][user] and the friend's count, one more,
// in one batch, unless user already follows friend (then the first since stays).
func (s *Store) Follow(ctx context.Context, username, friend string, since time.Time) error {
	uid, fid, err := s.pair(ctx, username, friend)
	if err != nil {
		return err
	}
	mu := s.followLock.of(fid)
	mu.Lock()
	defer mu.Unlock()
	following, err := s.isFollower(ctx, fid, uid)
	if err != nil || following {
		return wrap("follow", err)
	}
	n, err := s.followerCount(ctx, fid)
	if err != nil {
		return wrap("follow", err)
	}
	ts := s.ts()
	return wrap("follow", s.node.BatchMutate(ctx, KeyspaceTwissandra, map[string]map[string][]engine.Mutation{
		uid: {cfFriends: {col(fid, micros(since), ts)}},
		fid: {cfFollowers: {col(uid, micros(since), ts)}, cfUser: {col(colFollowers, strconv.AppendInt(nil, n+1, 10), ts)}},
	}, cl))
}

// Unfollow deletes both columns in one batch, with the friend's count one less when user was a
// follower.
func (s *Store) Unfollow(ctx context.Context, username, friend string) error {
	uid, fid, err := s.pair(ctx, username, friend)
	if err != nil {
		return err
	}
	mu := s.followLock.of(fid)
	mu.Lock()
	defer mu.Unlock()
	following, err := s.isFollower(ctx, fid, uid)
	if err != nil {
		return wrap("unfollow", err)
	}
	ts := s.ts()
	del := func(name string) []engine.Mutation {
		return []engine.Mutation{{Deletion: &engine.Deletion{Timestamp: ts, Predicate: &engine.SlicePredicate{ColumnNames: [][]byte{[]byte(name)}}}}}
	}
	rows := map[string]map[string][]engine.Mutation{
		uid: {cfFriends: del(fid)},
		fid: {cfFollowers: del(uid)},
	}
	if following {
		n, err := s.followerCount(ctx, fid)
		if err != nil {
			return wrap("unfollow", err)
		}
		rows[fid][cfUser] = []engine.Mutation{col(colFollowers, strconv.AppendInt(nil, max(n-1, 0), 10), ts)}
	}
	return wrap("unfollow", s.node.BatchMutate(ctx, KeyspaceTwissandra, rows, cl))
}

// isFollower reads the one column Followers[fid][uid].
func (s *Store) isFollower(ctx context.Context, fid, uid string) (bool, error) {
	_, err := s.node.Get(ctx, KeyspaceTwissandra, fid, engine.ColumnPath{ColumnFamily: cfFollowers, Column: []byte(uid)}, cl)
	if errors.Is(err, engine.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// followerCount reads User[id]["followers"], or counts the Followers row of a store written
// before the count.
func (s *Store) followerCount(ctx context.Context, id string) (int64, error) {
	c, err := s.node.Get(ctx, KeyspaceTwissandra, id, engine.ColumnPath{ColumnFamily: cfUser, Column: []byte(colFollowers)}, cl)
	if err == nil {
		return strconv.ParseInt(string(c.Column.Value), 10, 64)
	}
	if !errors.Is(err, engine.ErrNotFound) {
		return 0, err
	}
	n, err := s.node.GetCount(ctx, KeyspaceTwissandra, id, engine.ColumnParent{ColumnFamily: cfFollowers}, cl)
	return int64(n), err
}

// FollowerCount reads the User row's count.
func (s *Store) FollowerCount(ctx context.Context, username string) (int64, error) {
	id, ok, err := s.userID(ctx, username)
	if err != nil || !ok {
		return 0, err
	}
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
	return wrap("mark pulled", s.node.BatchMutate(ctx, KeyspaceTwissandra, map[string]map[string][]engine.Mutation{
		PulledKey: {cfFollowers: {col(id, strconv.AppendInt(nil, ts, 10), ts)}},
	}, cl))
}

// PulledFriends slices Followers['!PULLED!'], then reads the Friends row of username by those
// column names only: two reads, whatever the length of the friend list.
func (s *Store) PulledFriends(ctx context.Context, username string) ([]domain.Follow, error) {
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
