package compare

import (
	"context"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/blog/model"
	"twissandra/ports"
)

// pick returns a when primary, else b.
func pick[T any](primary bool, a, b T) T {
	if primary {
		return a
	}
	return b
}

// keys renders a list by one key per element, shortened for a report.
func keys[T any](xs []T, key func(T) string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = key(x)
	}
	s := fmt.Sprintf("%d: [%s]", len(xs), strings.Join(parts, " "))
	if len(s) > 240 {
		s = s[:240] + "…]"
	}
	return s
}

func micros(t time.Time) int64 { return t.UnixMicro() }

func userKey(u domain.User) string {
	return fmt.Sprintf("%s/%s/%s/%d", u.Username, u.ID, hex.EncodeToString(u.PasswordHash[:min(len(u.PasswordHash), 8)]), micros(u.CreatedAt))
}
func followKey(f domain.Follow) string { return fmt.Sprintf("%s@%d", f.Username, micros(f.Since)) }
func tweetKey(t domain.Tweet) string {
	return fmt.Sprintf("%s/%s/%q/%d", t.ID, t.Username, t.Body, micros(t.CreatedAt))
}
func entryKey(e domain.LineEntry) string { return fmt.Sprintf("%d/%s", e.Time, e.TweetID) }
func authorKey(a model.Author) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s/%d", a.Name, a.Posts)
	for _, k := range slices.Sorted(maps.Keys(a.Profile)) {
		fmt.Fprintf(&b, "/%s=%q", k, a.Profile[k])
	}
	return b.String()
}
func blogEntryKey(e model.Entry) string {
	return fmt.Sprintf("%s/%s/%q/%s/%v/%d", e.Slug, e.ID, e.Title, e.Author, e.Tags, e.PublishedAt.Unix())
}
func tagRefKey(r model.TagRef) string   { return r.ID.String() + "/" + r.Slug }
func commentKey(c model.Comment) string { return fmt.Sprintf("%s/%q/%d", c.ID, c.Text, c.Time.Unix()) }

// Users runs a UserStore on two models.
func Users(p *Pair, primary, secondary ports.UserStore) ports.UserStore {
	return users{p, primary, secondary}
}

type users struct {
	p    *Pair
	a, b ports.UserStore
}

func (s users) CreateUser(ctx context.Context, u domain.User) error {
	return s.p.write(ctx, "create user "+u.Username, func(ctx context.Context, first bool) error {
		return pick(first, s.a, s.b).CreateUser(ctx, u)
	})
}

func (s users) GetUser(ctx context.Context, name string) (domain.User, error) {
	return read(ctx, s.p, "get user "+name, func(ctx context.Context, first bool) (domain.User, error) {
		return pick(first, s.a, s.b).GetUser(ctx, name)
	}, userKey)
}

func (s users) GetUsers(ctx context.Context, names []string) ([]domain.User, error) {
	return read(ctx, s.p, fmt.Sprintf("get %d users", len(names)), func(ctx context.Context, first bool) ([]domain.User, error) {
		return pick(first, s.a, s.b).GetUsers(ctx, names)
	}, func(us []domain.User) string { return keys(us, userKey) })
}

func (s users) Follow(ctx context.Context, username, friend string, since time.Time) error {
	return s.p.write(ctx, "follow "+username+" -> "+friend, func(ctx context.Context, first bool) error {
		return pick(first, s.a, s.b).Follow(ctx, username, friend, since)
	})
}

func (s users) Unfollow(ctx context.Context, username, friend string) error {
	return s.p.write(ctx, "unfollow "+username+" -> "+friend, func(ctx context.Context, first bool) error {
		return pick(first, s.a, s.b).Unfollow(ctx, username, friend)
	})
}

func (s users) Friends(ctx context.Context, username, after string, limit int) ([]domain.Follow, error) {
	return s.follows(ctx, "friends of "+username, after, func(st ports.UserStore) func(context.Context, string, string, int) ([]domain.Follow, error) {
		return st.Friends
	}, username, limit)
}

func (s users) Followers(ctx context.Context, username, after string, limit int) ([]domain.Follow, error) {
	return s.follows(ctx, "followers of "+username, after, func(st ports.UserStore) func(context.Context, string, string, int) ([]domain.Follow, error) {
		return st.Followers
	}, username, limit)
}

func (s users) FollowerCount(ctx context.Context, username string) (int64, error) {
	return read(ctx, s.p, "follower count of "+username, func(ctx context.Context, first bool) (int64, error) {
		return pick(first, s.a, s.b).FollowerCount(ctx, username)
	}, func(n int64) string { return fmt.Sprint(n) })
}

func (s users) MarkPulled(ctx context.Context, username string) error {
	return s.p.write(ctx, "mark pulled "+username, func(ctx context.Context, first bool) error {
		return pick(first, s.a, s.b).MarkPulled(ctx, username)
	})
}

func (s users) PulledFriends(ctx context.Context, username string) ([]domain.Follow, error) {
	return read(ctx, s.p, "pulled friends of "+username, func(ctx context.Context, first bool) ([]domain.Follow, error) {
		return pick(first, s.a, s.b).PulledFriends(ctx, username)
	}, func(fs []domain.Follow) string { return keys(fs, followKey) })
}

func (s users) PulledAuthors(ctx context.Context) ([]string, error) {
	return read(ctx, s.p, "pulled authors", func(ctx context.Context, first bool) ([]string, error) {
		return pick(first, s.a, s.b).PulledAuthors(ctx)
	}, func(ns []string) string { return keys(ns, func(n string) string { return n }) })
}

// follows shadows the first page of a follow list only: a later page starts at a cursor of the
// primary's own, which the secondary cannot read (each model pages in its own order).
func (s users) follows(ctx context.Context, op, after string, list func(ports.UserStore) func(context.Context, string, string, int) ([]domain.Follow, error), username string, limit int) ([]domain.Follow, error) {
	if after != "" {
		var out []domain.Follow
		err := s.p.primary(ctx, func(ctx context.Context) error {
			var err error
			out, err = list(s.a)(ctx, username, after, limit)
			return err
		})
		return out, err
	}
	return read(ctx, s.p, op, func(ctx context.Context, first bool) ([]domain.Follow, error) {
		return list(pick(first, s.a, s.b))(ctx, username, "", limit)
	}, func(fs []domain.Follow) string {
		// Each model lists in its own order (by uuid, by name, by token): compare as sets.
		ks := make([]string, len(fs))
		for i, f := range fs {
			ks[i] = followKey(f)
		}
		slices.Sort(ks)
		return keys(ks, func(k string) string { return k })
	})
}

// Tweets runs a TweetStore on two models.
func Tweets(p *Pair, primary, secondary ports.TweetStore) ports.TweetStore {
	return tweets{p, primary, secondary}
}

type tweets struct {
	p    *Pair
	a, b ports.TweetStore
}

func (s tweets) SaveTweet(ctx context.Context, t domain.Tweet) error {
	return s.p.write(ctx, "save tweet "+t.ID.String(), func(ctx context.Context, first bool) error {
		return pick(first, s.a, s.b).SaveTweet(ctx, t)
	})
}

func (s tweets) GetTweet(ctx context.Context, id uuid.UUID) (domain.Tweet, error) {
	return read(ctx, s.p, "get tweet "+id.String(), func(ctx context.Context, first bool) (domain.Tweet, error) {
		return pick(first, s.a, s.b).GetTweet(ctx, id)
	}, tweetKey)
}

func (s tweets) GetTweets(ctx context.Context, ids []uuid.UUID) ([]domain.Tweet, error) {
	return read(ctx, s.p, fmt.Sprintf("get %d tweets", len(ids)), func(ctx context.Context, first bool) ([]domain.Tweet, error) {
		return pick(first, s.a, s.b).GetTweets(ctx, ids)
	}, func(ts []domain.Tweet) string { return keys(ts, tweetKey) })
}

// Lines runs a LineStore on two models.
func Lines(p *Pair, primary, secondary ports.LineStore) ports.LineStore {
	return lines{p, primary, secondary}
}

type lines struct {
	p    *Pair
	a, b ports.LineStore
}

func (s lines) Append(ctx context.Context, e domain.LineEntry, ls ...domain.LineKey) error {
	return s.p.write(ctx, fmt.Sprintf("append to %d lines", len(ls)), func(ctx context.Context, first bool) error {
		return pick(first, s.a, s.b).Append(ctx, e, ls...)
	})
}

func (s lines) AppendEntries(ctx context.Context, l domain.LineKey, es []domain.LineEntry) error {
	return s.p.write(ctx, fmt.Sprintf("append %d entries to %s", len(es), l), func(ctx context.Context, first bool) error {
		return pick(first, s.a, s.b).AppendEntries(ctx, l, es)
	})
}

func (s lines) Slice(ctx context.Context, l domain.LineKey, before int64, limit int) ([]domain.LineEntry, error) {
	return read(ctx, s.p, "slice "+l.String(), func(ctx context.Context, first bool) ([]domain.LineEntry, error) {
		return pick(first, s.a, s.b).Slice(ctx, l, before, limit)
	}, func(es []domain.LineEntry) string { return keys(es, entryKey) })
}

func (s lines) SliceMany(ctx context.Context, reqs []domain.LineSlice) ([][]domain.LineEntry, error) {
	return read(ctx, s.p, fmt.Sprintf("slice %d lines", len(reqs)), func(ctx context.Context, first bool) ([][]domain.LineEntry, error) {
		return pick(first, s.a, s.b).SliceMany(ctx, reqs)
	}, func(ls [][]domain.LineEntry) string {
		return keys(ls, func(es []domain.LineEntry) string { return keys(es, entryKey) })
	})
}

func (s lines) Remove(ctx context.Context, l domain.LineKey, times ...int64) error {
	return s.p.write(ctx, fmt.Sprintf("remove %d entries from %s", len(times), l), func(ctx context.Context, first bool) error {
		return pick(first, s.a, s.b).Remove(ctx, l, times...)
	})
}

// Authors runs an AuthorStore on two models.
func Authors(p *Pair, primary, secondary ports.AuthorStore) ports.AuthorStore {
	return authors{p, primary, secondary}
}

type authors struct {
	p    *Pair
	a, b ports.AuthorStore
}

func (s authors) PutAuthor(ctx context.Context, a model.Author) error {
	return s.p.write(ctx, "put author "+a.Name, func(ctx context.Context, first bool) error {
		return pick(first, s.a, s.b).PutAuthor(ctx, a)
	})
}

func (s authors) GetAuthor(ctx context.Context, name string) (model.Author, error) {
	return read(ctx, s.p, "get author "+name, func(ctx context.Context, first bool) (model.Author, error) {
		return pick(first, s.a, s.b).GetAuthor(ctx, name)
	}, authorKey)
}

func (s authors) GetAuthors(ctx context.Context, names []string) ([]model.Author, error) {
	return read(ctx, s.p, fmt.Sprintf("get %d authors", len(names)), func(ctx context.Context, first bool) ([]model.Author, error) {
		return pick(first, s.a, s.b).GetAuthors(ctx, names)
	}, func(as []model.Author) string { return keys(as, authorKey) })
}

func (s authors) AddPosts(ctx context.Context, name string, delta int64) error {
	return s.p.write(ctx, "count posts of "+name, func(ctx context.Context, first bool) error {
		return pick(first, s.a, s.b).AddPosts(ctx, name, delta)
	})
}

// Entries runs an EntryStore on two models.
func Entries(p *Pair, primary, secondary ports.EntryStore) ports.EntryStore {
	return entries{p, primary, secondary}
}

type entries struct {
	p    *Pair
	a, b ports.EntryStore
}

func (s entries) CreateEntry(ctx context.Context, e model.Entry) error {
	return s.p.write(ctx, "create entry "+e.Slug, func(ctx context.Context, first bool) error {
		return pick(first, s.a, s.b).CreateEntry(ctx, e)
	})
}

func (s entries) GetEntry(ctx context.Context, slug string) (model.Entry, error) {
	return read(ctx, s.p, "get entry "+slug, func(ctx context.Context, first bool) (model.Entry, error) {
		return pick(first, s.a, s.b).GetEntry(ctx, slug)
	}, blogEntryKey)
}

func (s entries) GetEntries(ctx context.Context, slugs []string) ([]model.Entry, error) {
	return read(ctx, s.p, fmt.Sprintf("get %d entries", len(slugs)), func(ctx context.Context, first bool) ([]model.Entry, error) {
		return pick(first, s.a, s.b).GetEntries(ctx, slugs)
	}, func(es []model.Entry) string { return keys(es, blogEntryKey) })
}

func (s entries) DeleteEntry(ctx context.Context, slug string, id uuid.UUID) error {
	return s.p.write(ctx, "delete entry "+slug, func(ctx context.Context, first bool) error {
		return pick(first, s.a, s.b).DeleteEntry(ctx, slug, id)
	})
}

// Tags runs a TagIndex on two models.
func Tags(p *Pair, primary, secondary ports.TagIndex) ports.TagIndex {
	return tags{p, primary, secondary}
}

type tags struct {
	p    *Pair
	a, b ports.TagIndex
}

func (s tags) AddTagged(ctx context.Context, id uuid.UUID, slug string, ts ...string) error {
	return s.p.write(ctx, fmt.Sprintf("tag %s under %d tags", slug, len(ts)), func(ctx context.Context, first bool) error {
		return pick(first, s.a, s.b).AddTagged(ctx, id, slug, ts...)
	})
}

func (s tags) SliceTagged(ctx context.Context, tag string, before uuid.UUID, limit int) ([]model.TagRef, error) {
	return read(ctx, s.p, "slice tag "+tag, func(ctx context.Context, first bool) ([]model.TagRef, error) {
		return pick(first, s.a, s.b).SliceTagged(ctx, tag, before, limit)
	}, func(rs []model.TagRef) string { return keys(rs, tagRefKey) })
}

func (s tags) RemoveTagged(ctx context.Context, id uuid.UUID, ts ...string) error {
	return s.p.write(ctx, fmt.Sprintf("untag %s from %d tags", id, len(ts)), func(ctx context.Context, first bool) error {
		return pick(first, s.a, s.b).RemoveTagged(ctx, id, ts...)
	})
}

// Comments runs a CommentStore on two models.
func Comments(p *Pair, primary, secondary ports.CommentStore) ports.CommentStore {
	return comments{p, primary, secondary}
}

type comments struct {
	p    *Pair
	a, b ports.CommentStore
}

func (s comments) AddComment(ctx context.Context, c model.Comment) error {
	return s.p.write(ctx, "comment on "+c.Slug, func(ctx context.Context, first bool) error {
		return pick(first, s.a, s.b).AddComment(ctx, c)
	})
}

func (s comments) SliceComments(ctx context.Context, slug string, after uuid.UUID, limit int) ([]model.Comment, error) {
	return read(ctx, s.p, "comments of "+slug, func(ctx context.Context, first bool) ([]model.Comment, error) {
		return pick(first, s.a, s.b).SliceComments(ctx, slug, after, limit)
	}, func(cs []model.Comment) string { return keys(cs, commentKey) })
}

func (s comments) DeleteComments(ctx context.Context, slug string) error {
	return s.p.write(ctx, "delete comments of "+slug, func(ctx context.Context, first bool) error {
		return pick(first, s.a, s.b).DeleteComments(ctx, slug)
	})
}
