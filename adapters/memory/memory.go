// Package memory is the in-memory adapter: plain Go maps and sorted slices behind a mutex. It is
// the reference behaviour of the contract suite and the fast store of unit tests.
package memory

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"twissandra/adapters/internal/linestore"
	"twissandra/domain"
	"twissandra/ports/oplog"
)

// Store implements ports.UserStore, ports.TweetStore and ports.LineStore.
type Store struct {
	mu        sync.RWMutex
	users     map[string]domain.User
	friends   map[string]*followSet
	followers map[string]*followSet
	tweets    map[uuid.UUID]domain.Tweet
	lines     map[domain.LineKey][]domain.LineEntry // ascending by Time
	pulled    map[string]struct{}                   // the authors ever marked pulled
	linesID   domain.LinesID
}

// New returns an empty store.
func New() *Store {
	return &Store{
		users:     map[string]domain.User{},
		friends:   map[string]*followSet{},
		followers: map[string]*followSet{},
		tweets:    map[uuid.UUID]domain.Tweet{},
		lines:     map[domain.LineKey][]domain.LineEntry{},
		pulled:    map[string]struct{}{},
		linesID:   domain.NewLinesID(),
	}
}

// LinesID names the store's lines for what a server keeps of them between pages.
func (s *Store) LinesID() domain.LinesID { return s.linesID }

// found returns the records of keys in m, in the order of keys (a missing key left out, a key
// asked twice returned twice), each through cp when it is not nil: the multigets of the ports.
func found[K comparable, V any](m map[K]V, keys []K, cp func(V) V) []V {
	out := make([]V, 0, len(keys))
	for _, k := range keys {
		if v, ok := m[k]; ok {
			if cp != nil {
				v = cp(v)
			}
			out = append(out, v)
		}
	}
	return out
}

func done(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	return nil
}

// CreateUser stores u unless the name is taken; the check and the write happen under one lock.
func (s *Store) CreateUser(ctx context.Context, u domain.User) error {
	err := s.createUser(ctx, u)
	if describe(ctx, oplog.LWT, "create") {
		note(ctx, oplog.LWT, err, "create user %s", u.Username)
	}
	return err
}

func (s *Store) createUser(ctx context.Context, u domain.User) error {
	if err := done(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.users[u.Username]; ok {
		return fmt.Errorf("memory: user %q: %w", u.Username, domain.ErrAlreadyExists)
	}
	u.PasswordHash = append([]byte(nil), u.PasswordHash...)
	s.users[u.Username] = u
	return nil
}

// GetUser returns one user.
func (s *Store) GetUser(ctx context.Context, username string) (domain.User, error) {
	if err := done(ctx); err != nil {
		return domain.User{}, err
	}
	s.mu.RLock()
	u, ok := s.users[username]
	s.mu.RUnlock()
	var err error
	if !ok {
		err = fmt.Errorf("memory: user %q: %w", username, domain.ErrNotFound)
	}
	if describe(ctx, oplog.Read, "get") {
		n, failed := lookup(err)
		noteText(ctx, oplog.Read, failed, "get user "+username+" -> "+itoa(n))
	}
	return u, err
}

// GetUsers returns the users found, in the order asked.
func (s *Store) GetUsers(ctx context.Context, usernames []string) ([]domain.User, error) {
	if err := done(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	out := found(s.users, usernames, nil)
	s.mu.RUnlock()
	if describe(ctx, oplog.Read, "multiget") {
		noteText(ctx, oplog.Read, nil, "multiget users "+itoa(len(usernames))+" names -> "+itoa(len(out)))
	}
	return out, nil
}

// Follow records both sides.
func (s *Store) Follow(ctx context.Context, username, friend string, since time.Time) error {
	if err := done(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	setOf(s.friends, username).put(friend, since)
	setOf(s.followers, friend).put(username, since)
	s.mu.Unlock()
	if describe(ctx, oplog.Write, "follow") {
		note(ctx, oplog.Write, nil, "follow %s -> %s (friends and followers)", username, friend)
	}
	return nil
}

// Unfollow removes both sides.
func (s *Store) Unfollow(ctx context.Context, username, friend string) error {
	if err := done(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	setOf(s.friends, username).remove(friend)
	setOf(s.followers, friend).remove(username)
	s.mu.Unlock()
	if describe(ctx, oplog.Write, "unfollow") {
		note(ctx, oplog.Write, nil, "unfollow %s -> %s (friends and followers)", username, friend)
	}
	return nil
}

// Friends lists whom username follows, by username.
func (s *Store) Friends(ctx context.Context, username, after string, limit int) ([]domain.Follow, error) {
	return s.list(ctx, s.friends, "friends", username, after, limit)
}

// Followers lists who follows username, by username.
func (s *Store) Followers(ctx context.Context, username, after string, limit int) ([]domain.Follow, error) {
	return s.list(ctx, s.followers, "followers", username, after, limit)
}

func (s *Store) list(ctx context.Context, sets map[string]*followSet, side, username, after string, limit int) ([]domain.Follow, error) {
	if err := done(ctx); err != nil {
		return nil, err
	}
	var out []domain.Follow
	s.mu.RLock()
	if set := sets[username]; set != nil {
		out = set.after(after, limit)
	}
	s.mu.RUnlock()
	if describe(ctx, oplog.Read, "slice") {
		noteText(ctx, oplog.Read, nil, "slice "+side+":"+username+" after="+strconv.Quote(after)+" limit="+itoa(limit)+" -> "+itoa(len(out)))
	}
	return out, nil
}

// FollowerCount is the size of username's follower set: exact, because every change of the set
// happens under the store's lock.
func (s *Store) FollowerCount(ctx context.Context, username string) (int64, error) {
	if err := done(ctx); err != nil {
		return 0, err
	}
	var n int64
	s.mu.RLock()
	if set := s.followers[username]; set != nil {
		n = int64(len(set.items))
	}
	s.mu.RUnlock()
	if describe(ctx, oplog.Read, "follower") {
		note(ctx, oplog.Read, nil, "follower count %s -> %d", username, n)
	}
	return n, nil
}

// MarkPulled adds username to the pulled authors.
func (s *Store) MarkPulled(ctx context.Context, username string) error {
	if err := done(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	s.pulled[username] = struct{}{}
	s.mu.Unlock()
	if describe(ctx, oplog.Write, "mark") {
		note(ctx, oplog.Write, nil, "mark pulled %s", username)
	}
	return nil
}

// PulledFriends looks each pulled author up in username's friend set.
func (s *Store) PulledFriends(ctx context.Context, username string) ([]domain.Follow, error) {
	out, err := s.pulledFriends(ctx, username)
	if describe(ctx, oplog.Read, "pulled") {
		noteText(ctx, oplog.Read, err, "pulled friends of "+username+" -> "+itoa(len(out)))
	}
	return out, err
}

func (s *Store) pulledFriends(ctx context.Context, username string) ([]domain.Follow, error) {
	if err := done(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	set := s.friends[username]
	if set == nil || len(s.pulled) == 0 {
		return nil, nil
	}
	var out []domain.Follow
	if len(set.items) <= len(s.pulled) { // whichever is smaller: both are in memory
		for _, f := range set.items {
			if _, ok := s.pulled[f.Username]; ok {
				out = append(out, f)
			}
		}
		return out, nil
	}
	for name := range s.pulled {
		if i, ok := set.find(name); ok {
			out = append(out, set.items[i])
		}
	}
	slices.SortFunc(out, func(a, b domain.Follow) int { return cmp.Compare(a.Username, b.Username) })
	return out, nil
}

// PulledAuthors lists the pulled set, sorted.
func (s *Store) PulledAuthors(ctx context.Context) ([]string, error) {
	if err := done(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	out := slices.Sorted(maps.Keys(s.pulled))
	s.mu.RUnlock()
	if describe(ctx, oplog.Read, "pulled") {
		note(ctx, oplog.Read, nil, "pulled authors -> %d", len(out))
	}
	return out, nil
}

func setOf(sets map[string]*followSet, username string) *followSet {
	set := sets[username]
	if set == nil {
		set = &followSet{}
		sets[username] = set
	}
	return set
}

// followSet is a slice of follows sorted by username; the Cursor of each is its username.
type followSet struct{ items []domain.Follow }

func (f *followSet) find(name string) (int, bool) {
	i := sort.Search(len(f.items), func(i int) bool { return f.items[i].Username >= name })
	return i, i < len(f.items) && f.items[i].Username == name
}

func (f *followSet) put(name string, since time.Time) {
	i, ok := f.find(name)
	if ok {
		return // following again: the first since stays
	}
	f.items = append(f.items, domain.Follow{})
	copy(f.items[i+1:], f.items[i:])
	f.items[i] = domain.Follow{Username: name, Since: since, Cursor: name}
}

func (f *followSet) remove(name string) {
	if i, ok := f.find(name); ok {
		f.items = append(f.items[:i], f.items[i+1:]...)
	}
}

func (f *followSet) after(cursor string, limit int) []domain.Follow {
	i := 0
	if cursor != "" {
		i = sort.Search(len(f.items), func(i int) bool { return f.items[i].Username > cursor })
	}
	end := min(i+limit, len(f.items))
	return append([]domain.Follow(nil), f.items[i:end]...)
}

// SaveTweet stores t.
func (s *Store) SaveTweet(ctx context.Context, t domain.Tweet) error {
	if err := done(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	s.tweets[t.ID] = t
	s.mu.Unlock()
	if describe(ctx, oplog.Write, "save") {
		note(ctx, oplog.Write, nil, "save tweet %s", t.ID)
	}
	return nil
}

// GetTweet returns one tweet.
func (s *Store) GetTweet(ctx context.Context, id uuid.UUID) (domain.Tweet, error) {
	if err := done(ctx); err != nil {
		return domain.Tweet{}, err
	}
	s.mu.RLock()
	t, ok := s.tweets[id]
	s.mu.RUnlock()
	var err error
	if !ok {
		err = fmt.Errorf("memory: tweet %s: %w", id, domain.ErrNotFound)
	}
	if describe(ctx, oplog.Read, "get") {
		n, failed := lookup(err)
		noteText(ctx, oplog.Read, failed, "get tweet "+id.String()+" -> "+itoa(n))
	}
	return t, err
}

// GetTweets returns the tweets found, in the order asked.
func (s *Store) GetTweets(ctx context.Context, ids []uuid.UUID) ([]domain.Tweet, error) {
	if err := done(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	out := found(s.tweets, ids, nil)
	s.mu.RUnlock()
	if describe(ctx, oplog.Read, "multiget") {
		noteText(ctx, oplog.Read, nil, "multiget tweets "+itoa(len(ids))+" ids -> "+itoa(len(out)))
	}
	return out, nil
}

// AppendToFollowers lists author's followers and appends to their timelines (linestore.AppendToFollowers).
func (s *Store) AppendToFollowers(ctx context.Context, e domain.LineEntry, author string, lines ...domain.LineKey) (int, error) {
	return linestore.AppendToFollowers(ctx, s, s, e, author, lines...)
}

// Append adds e to every line named.
func (s *Store) Append(ctx context.Context, e domain.LineEntry, lines ...domain.LineKey) error {
	if err := done(ctx); err != nil {
		return err
	}
	e.Tweet = nil // the memory store keeps IDs, as the 0.6 layout does
	s.mu.Lock()
	for _, l := range lines {
		s.lines[l] = insertEntry(s.lines[l], e)
	}
	s.mu.Unlock()
	if describe(ctx, oplog.Write, "append") {
		note(ctx, oplog.Write, nil, "append entry time=%d to %d lines (%s)", e.Time, len(lines), lineNames(lines))
	}
	return nil
}

// AppendEntries adds entries to one line: the batch is sorted and merged into the line in one
// pass, so copying a long line in pages (a migration, a backfill) costs O(n + m) per page, not
// an insertion each.
func (s *Store) AppendEntries(ctx context.Context, line domain.LineKey, entries []domain.LineEntry) error {
	if err := done(ctx); err != nil {
		return err
	}
	batch := slices.Clone(entries)
	for i := range batch {
		batch[i].Tweet = nil
	}
	slices.SortStableFunc(batch, func(a, b domain.LineEntry) int { return cmp.Compare(a.Time, b.Time) })
	s.mu.Lock()
	s.lines[line] = mergeEntries(s.lines[line], batch)
	s.mu.Unlock()
	if describe(ctx, oplog.Write, "append") {
		note(ctx, oplog.Write, nil, "append %d entries to line %s", len(entries), line)
	}
	return nil
}

// mergeEntries merges two ascending lines; on equal times the later entry of b wins, as a
// column written again would.
func mergeEntries(a, b []domain.LineEntry) []domain.LineEntry {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 || a[len(a)-1].Time < b[0].Time {
		out := a
		for _, e := range b {
			out = insertEntry(out, e)
		}
		return out
	}
	out := make([]domain.LineEntry, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i].Time < b[j].Time):
			out = append(out, a[i])
			i++
		case i < len(a) && a[i].Time == b[j].Time:
			i++ // replaced by b[j] below
		default:
			e := b[j]
			for j+1 < len(b) && b[j+1].Time == e.Time {
				j++
				e = b[j]
			}
			out = append(out, e)
			j++
		}
	}
	return out
}

// insertEntry keeps l ascending by Time; an entry of an existing time replaces it, as a column
// of the same name would. Posting appends at the end, so the common case costs O(1).
func insertEntry(l []domain.LineEntry, e domain.LineEntry) []domain.LineEntry {
	if n := len(l); n == 0 || l[n-1].Time < e.Time {
		return append(l, e)
	}
	i := sort.Search(len(l), func(i int) bool { return l[i].Time >= e.Time })
	if i < len(l) && l[i].Time == e.Time {
		l[i] = e
		return l
	}
	l = append(l, domain.LineEntry{})
	copy(l[i+1:], l[i:])
	l[i] = e
	return l
}

// ReadPage runs plan on the store's lines, then reads the tweets the entries lack (each call
// records itself).
func (s *Store) ReadPage(ctx context.Context, limit int, plan domain.PagePlan) ([]domain.LineEntry, error) {
	return linestore.ReadPage(ctx, s, s, limit, plan)
}

// Backfill slices from and appends what it read to line (each call records itself).
func (s *Store) Backfill(ctx context.Context, line, from domain.LineKey, limit int) error {
	return linestore.Backfill(ctx, s, s, line, from, limit)
}

// SliceMany slices one line after another (each slice records itself).
func (s *Store) SliceMany(ctx context.Context, reqs []domain.LineSlice) ([][]domain.LineEntry, error) {
	return linestore.SliceEach(ctx, s, reqs)
}

// Slice returns up to limit entries older than before, newest first.
func (s *Store) Slice(ctx context.Context, line domain.LineKey, before int64, limit int) ([]domain.LineEntry, error) {
	if err := done(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	l := s.lines[line]
	end := len(l)
	if before > 0 {
		end = sort.Search(len(l), func(i int) bool { return l[i].Time >= before })
	}
	out := make([]domain.LineEntry, 0, min(limit, end))
	for i := end - 1; i >= 0 && len(out) < limit; i-- {
		out = append(out, l[i])
	}
	s.mu.RUnlock()
	if describe(ctx, oplog.Read, "slice") {
		noteText(ctx, oplog.Read, nil, "slice line "+line.String()+" before="+itoa(before)+" limit="+itoa(limit)+" -> "+itoa(len(out))+" entries")
	}
	return out, nil
}

// Remove deletes the entries with these times.
func (s *Store) Remove(ctx context.Context, line domain.LineKey, times ...int64) error {
	if err := done(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	l := s.lines[line]
	for _, t := range times {
		i := sort.Search(len(l), func(i int) bool { return l[i].Time >= t })
		if i < len(l) && l[i].Time == t {
			l = append(l[:i], l[i+1:]...)
		}
	}
	s.lines[line] = l
	s.mu.Unlock()
	if describe(ctx, oplog.Write, "remove") {
		note(ctx, oplog.Write, nil, "remove %d entries from line %s", len(times), line)
	}
	return nil
}

// lineNames lists up to four lines, then how many more.
func lineNames(ks []domain.LineKey) string {
	const show = 4
	var b strings.Builder
	for i, k := range ks {
		if i == show {
			fmt.Fprintf(&b, ", +%d more", len(ks)-show)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k.String())
	}
	return b.String()
}
