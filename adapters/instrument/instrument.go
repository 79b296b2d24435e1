// Package instrument wraps the seven storage ports so that every call is counted and timed per
// adapter and operation, and every LineStore.Append reports its fan-out (how many lines one entry
// went to). Wrapped stores behave exactly as the stores they wrap.
//
// The wrappers have the shape of web/opstrace's: one type per port, one method per port method.
// They measure the store alone, so wrap the store first and put the trace outside:
// opstrace.Users(instrument.Users(s, "widerow", sink)).
//
// Each wrapper asks the Sink for one recorder per operation when it is made, so a call costs two
// clock readings and the recorder's own work: no label lookups on the hot path.
package instrument

import (
	"context"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/blog/model"
	"twissandra/ports"
)

// Sink receives the measurements (web/metrics implements it for Prometheus).
type Sink interface {
	// Op returns the recorder of one operation of one adapter. It is called when a store is
	// wrapped, once per operation.
	Op(adapter, op string) OpRecorder
	// Fanout returns the recorder of the number of lines per Append of one adapter.
	Fanout(adapter string) SizeRecorder
}

// OpRecorder records one finished call: its duration and its error (nil on success).
type OpRecorder interface {
	Done(d time.Duration, err error)
}

// SizeRecorder records one size.
type SizeRecorder interface {
	Observe(n int)
}

// Operation names, the op label of every measurement.
const (
	OpCreateUser     = "create_user"
	OpGetUser        = "get_user"
	OpGetUsers       = "get_users"
	OpFollow         = "follow"
	OpUnfollow       = "unfollow"
	OpFriends        = "friends"
	OpFollowers      = "followers"
	OpFollowerCount  = "follower_count"
	OpMarkPulled     = "mark_pulled"
	OpPulledFriends  = "pulled_friends"
	OpPulledAuthors  = "pulled_authors"
	OpSaveTweet      = "save_tweet"
	OpGetTweet       = "get_tweet"
	OpGetTweets      = "get_tweets"
	OpAppend         = "append"
	OpAppendEntries  = "append_entries"
	OpSlice          = "slice"
	OpSliceMany      = "slice_many"
	OpRemove         = "remove"
	OpPutAuthor      = "put_author"
	OpGetAuthor      = "get_author"
	OpGetAuthors     = "get_authors"
	OpAddPosts       = "add_posts"
	OpCreateEntry    = "create_entry"
	OpGetEntry       = "get_entry"
	OpGetEntries     = "get_entries"
	OpDeleteEntry    = "delete_entry"
	OpAddTagged      = "add_tagged"
	OpSliceTagged    = "slice_tagged"
	OpRemoveTagged   = "remove_tagged"
	OpAddComment     = "add_comment"
	OpSliceComments  = "slice_comments"
	OpDeleteComments = "delete_comments"
)

// done records the call that started at start.
func done(r OpRecorder, start time.Time, err error) { r.Done(time.Since(start), err) }

// Users wraps a UserStore.
func Users(s ports.UserStore, adapter string, sink Sink) ports.UserStore {
	return &users{s: s,
		create: sink.Op(adapter, OpCreateUser), get: sink.Op(adapter, OpGetUser), getMany: sink.Op(adapter, OpGetUsers),
		follow: sink.Op(adapter, OpFollow), unfollow: sink.Op(adapter, OpUnfollow),
		friends: sink.Op(adapter, OpFriends), followers: sink.Op(adapter, OpFollowers),
		count: sink.Op(adapter, OpFollowerCount), markPulled: sink.Op(adapter, OpMarkPulled), pulledFriends: sink.Op(adapter, OpPulledFriends),
		pulledAuthors: sink.Op(adapter, OpPulledAuthors)}
}

type users struct {
	s                                                          ports.UserStore
	create, get, getMany, follow, unfollow, friends, followers OpRecorder
	count, markPulled, pulledFriends, pulledAuthors            OpRecorder
}

func (u *users) CreateUser(ctx context.Context, x domain.User) error {
	t := time.Now()
	err := u.s.CreateUser(ctx, x)
	done(u.create, t, err)
	return err
}

func (u *users) GetUser(ctx context.Context, name string) (domain.User, error) {
	t := time.Now()
	x, err := u.s.GetUser(ctx, name)
	done(u.get, t, err)
	return x, err
}

func (u *users) GetUsers(ctx context.Context, names []string) ([]domain.User, error) {
	t := time.Now()
	xs, err := u.s.GetUsers(ctx, names)
	done(u.getMany, t, err)
	return xs, err
}

func (u *users) Follow(ctx context.Context, username, friend string, since time.Time) error {
	t := time.Now()
	err := u.s.Follow(ctx, username, friend, since)
	done(u.follow, t, err)
	return err
}

func (u *users) Unfollow(ctx context.Context, username, friend string) error {
	t := time.Now()
	err := u.s.Unfollow(ctx, username, friend)
	done(u.unfollow, t, err)
	return err
}

func (u *users) Friends(ctx context.Context, username, after string, limit int) ([]domain.Follow, error) {
	t := time.Now()
	fs, err := u.s.Friends(ctx, username, after, limit)
	done(u.friends, t, err)
	return fs, err
}

func (u *users) Followers(ctx context.Context, username, after string, limit int) ([]domain.Follow, error) {
	t := time.Now()
	fs, err := u.s.Followers(ctx, username, after, limit)
	done(u.followers, t, err)
	return fs, err
}

func (u *users) FollowerCount(ctx context.Context, username string) (int64, error) {
	t := time.Now()
	n, err := u.s.FollowerCount(ctx, username)
	done(u.count, t, err)
	return n, err
}

func (u *users) MarkPulled(ctx context.Context, username string) error {
	t := time.Now()
	err := u.s.MarkPulled(ctx, username)
	done(u.markPulled, t, err)
	return err
}

func (u *users) PulledFriends(ctx context.Context, username string) ([]domain.Follow, error) {
	t := time.Now()
	fs, err := u.s.PulledFriends(ctx, username)
	done(u.pulledFriends, t, err)
	return fs, err
}

func (u *users) PulledAuthors(ctx context.Context) ([]string, error) {
	t := time.Now()
	ns, err := u.s.PulledAuthors(ctx)
	done(u.pulledAuthors, t, err)
	return ns, err
}

// Tweets wraps a TweetStore.
func Tweets(s ports.TweetStore, adapter string, sink Sink) ports.TweetStore {
	return &tweets{s: s, save: sink.Op(adapter, OpSaveTweet), get: sink.Op(adapter, OpGetTweet), getMany: sink.Op(adapter, OpGetTweets)}
}

type tweets struct {
	s                  ports.TweetStore
	save, get, getMany OpRecorder
}

func (w *tweets) SaveTweet(ctx context.Context, x domain.Tweet) error {
	t := time.Now()
	err := w.s.SaveTweet(ctx, x)
	done(w.save, t, err)
	return err
}

func (w *tweets) GetTweet(ctx context.Context, id uuid.UUID) (domain.Tweet, error) {
	t := time.Now()
	x, err := w.s.GetTweet(ctx, id)
	done(w.get, t, err)
	return x, err
}

func (w *tweets) GetTweets(ctx context.Context, ids []uuid.UUID) ([]domain.Tweet, error) {
	t := time.Now()
	xs, err := w.s.GetTweets(ctx, ids)
	done(w.getMany, t, err)
	return xs, err
}

// Lines wraps a LineStore; every Append also reports how many lines it wrote to.
func Lines(s ports.LineStore, adapter string, sink Sink) ports.LineStore {
	return &lines{s: s, fanout: sink.Fanout(adapter),
		append: sink.Op(adapter, OpAppend), appendEntries: sink.Op(adapter, OpAppendEntries),
		slice: sink.Op(adapter, OpSlice), sliceMany: sink.Op(adapter, OpSliceMany), remove: sink.Op(adapter, OpRemove)}
}

type lines struct {
	s                                               ports.LineStore
	fanout                                          SizeRecorder
	append, appendEntries, slice, sliceMany, remove OpRecorder
}

func (l *lines) Append(ctx context.Context, e domain.LineEntry, ks ...domain.LineKey) error {
	l.fanout.Observe(len(ks))
	t := time.Now()
	err := l.s.Append(ctx, e, ks...)
	done(l.append, t, err)
	return err
}

func (l *lines) AppendEntries(ctx context.Context, k domain.LineKey, es []domain.LineEntry) error {
	t := time.Now()
	err := l.s.AppendEntries(ctx, k, es)
	done(l.appendEntries, t, err)
	return err
}

func (l *lines) Slice(ctx context.Context, k domain.LineKey, before int64, limit int) ([]domain.LineEntry, error) {
	t := time.Now()
	es, err := l.s.Slice(ctx, k, before, limit)
	done(l.slice, t, err)
	return es, err
}

func (l *lines) SliceMany(ctx context.Context, reqs []domain.LineSlice) ([][]domain.LineEntry, error) {
	t := time.Now()
	out, err := l.s.SliceMany(ctx, reqs)
	done(l.sliceMany, t, err)
	return out, err
}

func (l *lines) Remove(ctx context.Context, k domain.LineKey, times ...int64) error {
	t := time.Now()
	err := l.s.Remove(ctx, k, times...)
	done(l.remove, t, err)
	return err
}

// Authors wraps an AuthorStore.
func Authors(s ports.AuthorStore, adapter string, sink Sink) ports.AuthorStore {
	return &authors{s: s, put: sink.Op(adapter, OpPutAuthor), get: sink.Op(adapter, OpGetAuthor),
		getMany: sink.Op(adapter, OpGetAuthors), addPosts: sink.Op(adapter, OpAddPosts)}
}

type authors struct {
	s                           ports.AuthorStore
	put, get, getMany, addPosts OpRecorder
}

func (a *authors) PutAuthor(ctx context.Context, x model.Author) error {
	t := time.Now()
	err := a.s.PutAuthor(ctx, x)
	done(a.put, t, err)
	return err
}

func (a *authors) GetAuthor(ctx context.Context, name string) (model.Author, error) {
	t := time.Now()
	x, err := a.s.GetAuthor(ctx, name)
	done(a.get, t, err)
	return x, err
}

func (a *authors) GetAuthors(ctx context.Context, names []string) ([]model.Author, error) {
	t := time.Now()
	xs, err := a.s.GetAuthors(ctx, names)
	done(a.getMany, t, err)
	return xs, err
}

func (a *authors) AddPosts(ctx context.Context, name string, delta int64) error {
	t := time.Now()
	err := a.s.AddPosts(ctx, name, delta)
	done(a.addPosts, t, err)
	return err
}

// Entries wraps an EntryStore.
func Entries(s ports.EntryStore, adapter string, sink Sink) ports.EntryStore {
	return &entries{s: s, create: sink.Op(adapter, OpCreateEntry), get: sink.Op(adapter, OpGetEntry),
		getMany: sink.Op(adapter, OpGetEntries), del: sink.Op(adapter, OpDeleteEntry)}
}

type entries struct {
	s                         ports.EntryStore
	create, get, getMany, del OpRecorder
}

func (e *entries) CreateEntry(ctx context.Context, x model.Entry) error {
	t := time.Now()
	err := e.s.CreateEntry(ctx, x)
	done(e.create, t, err)
	return err
}

func (e *entries) GetEntry(ctx context.Context, slug string) (model.Entry, error) {
	t := time.Now()
	x, err := e.s.GetEntry(ctx, slug)
	done(e.get, t, err)
	return x, err
}

func (e *entries) GetEntries(ctx context.Context, slugs []string) ([]model.Entry, error) {
	t := time.Now()
	xs, err := e.s.GetEntries(ctx, slugs)
	done(e.getMany, t, err)
	return xs, err
}

func (e *entries) DeleteEntry(ctx context.Context, slug string, id uuid.UUID) error {
	t := time.Now()
	err := e.s.DeleteEntry(ctx, slug, id)
	done(e.del, t, err)
	return err
}

// Tags wraps a TagIndex.
func Tags(s ports.TagIndex, adapter string, sink Sink) ports.TagIndex {
	return &tags{s: s, add: sink.Op(adapter, OpAddTagged), slice: sink.Op(adapter, OpSliceTagged), remove: sink.Op(adapter, OpRemoveTagged)}
}

type tags struct {
	s                  ports.TagIndex
	add, slice, remove OpRecorder
}

func (g *tags) AddTagged(ctx context.Context, id uuid.UUID, slug string, ts ...string) error {
	t := time.Now()
	err := g.s.AddTagged(ctx, id, slug, ts...)
	done(g.add, t, err)
	return err
}

func (g *tags) SliceTagged(ctx context.Context, tag string, before uuid.UUID, limit int) ([]model.TagRef, error) {
	t := time.Now()
	rs, err := g.s.SliceTagged(ctx, tag, before, limit)
	done(g.slice, t, err)
	return rs, err
}

func (g *tags) RemoveTagged(ctx context.Context, id uuid.UUID, ts ...string) error {
	t := time.Now()
	err := g.s.RemoveTagged(ctx, id, ts...)
	done(g.remove, t, err)
	return err
}

// Comments wraps a CommentStore.
func Comments(s ports.CommentStore, adapter string, sink Sink) ports.CommentStore {
	return &comments{s: s, add: sink.Op(adapter, OpAddComment), slice: sink.Op(adapter, OpSliceComments), del: sink.Op(adapter, OpDeleteComments)}
}

type comments struct {
	s               ports.CommentStore
	add, slice, del OpRecorder
}

func (c *comments) AddComment(ctx context.Context, x model.Comment) error {
	t := time.Now()
	err := c.s.AddComment(ctx, x)
	done(c.add, t, err)
	return err
}

func (c *comments) SliceComments(ctx context.Context, slug string, after uuid.UUID, limit int) ([]model.Comment, error) {
	t := time.Now()
	xs, err := c.s.SliceComments(ctx, slug, after, limit)
	done(c.slice, t, err)
	return xs, err
}

func (c *comments) DeleteComments(ctx context.Context, slug string) error {
	t := time.Now()
	err := c.s.DeleteComments(ctx, slug)
	done(c.del, t, err)
	return err
}
