// Package opstrace wraps the storage ports so that every call records itself in the request's
// web.OpLog ("slice line timeline:bob before=0 limit=41 -> 40 entries"). Wrapped stores behave
// exactly as the stores they wrap; without an OpLog in the context they only pass calls on.
//
// The records are port-level: one line per port call, the same words on every backend, so a
// page can show what an action costs in round trips whatever model runs below.
package opstrace

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/blog/model"
	"twissandra/ports"
	"twissandra/ports/oplog"
)

func record(ctx context.Context, err error, format string, args ...any) {
	l := oplog.LogFrom(ctx)
	if l == nil {
		return
	}
	if !l.Detailed() { // counted only: the verb (the format's first word) is all it needs
		verb, _, _ := strings.Cut(format, " ")
		l.Record(oplog.Op{Model: "memory", Kind: kindOf(verb), Call: verb})
		return
	}
	text := fmt.Sprintf(format, args...)
	if err != nil {
		text += " -> error"
	}
	verb, rest, _ := strings.Cut(text, " ")
	family, _, _ := strings.Cut(rest, " ")
	l.Record(oplog.Op{Model: "memory", Kind: kindOf(verb), Call: verb, Family: family, Text: text})
}

func kindOf(verb string) oplog.Kind {
	switch verb {
	case "get", "multiget", "slice":
		return oplog.Read
	case "create": // a user or an entry: the check and the write in one step
		return oplog.LWT
	}
	return oplog.Write
}

// Users wraps a UserStore.
func Users(s ports.UserStore) ports.UserStore { return users{s} }

// Tweets wraps a TweetStore.
func Tweets(s ports.TweetStore) ports.TweetStore { return tweets{s} }

// Lines wraps a LineStore.
func Lines(s ports.LineStore) ports.LineStore { return lines{s} }

type users struct{ s ports.UserStore }

func (u users) CreateUser(ctx context.Context, x domain.User) error {
	err := u.s.CreateUser(ctx, x)
	record(ctx, err, "create user %s", x.Username)
	return err
}

func (u users) GetUser(ctx context.Context, name string) (domain.User, error) {
	x, err := u.s.GetUser(ctx, name)
	found := 1
	if err != nil {
		found = 0
	}
	if err == nil || isNotFound(err) {
		record(ctx, nil, "get user %s -> %d", name, found)
	} else {
		record(ctx, err, "get user %s", name)
	}
	return x, err
}

func (u users) GetUsers(ctx context.Context, names []string) ([]domain.User, error) {
	xs, err := u.s.GetUsers(ctx, names)
	record(ctx, err, "multiget users %d names -> %d", len(names), len(xs))
	return xs, err
}

func (u users) Follow(ctx context.Context, username, friend string, since time.Time) error {
	err := u.s.Follow(ctx, username, friend, since)
	record(ctx, err, "follow %s -> %s (friends and followers)", username, friend)
	return err
}

func (u users) Unfollow(ctx context.Context, username, friend string) error {
	err := u.s.Unfollow(ctx, username, friend)
	record(ctx, err, "unfollow %s -> %s (friends and followers)", username, friend)
	return err
}

func (u users) Friends(ctx context.Context, username, after string, limit int) ([]domain.Follow, error) {
	fs, err := u.s.Friends(ctx, username, after, limit)
	record(ctx, err, "slice friends:%s after=%q limit=%d -> %d", username, after, limit, len(fs))
	return fs, err
}

func (u users) Followers(ctx context.Context, username, after string, limit int) ([]domain.Follow, error) {
	fs, err := u.s.Followers(ctx, username, after, limit)
	record(ctx, err, "slice followers:%s after=%q limit=%d -> %d", username, after, limit, len(fs))
	return fs, err
}

func (u users) FollowerCount(ctx context.Context, username string) (int64, error) {
	n, err := u.s.FollowerCount(ctx, username)
	record(ctx, err, "follower count %s -> %d", username, n)
	return n, err
}

func (u users) MarkPulled(ctx context.Context, username string) error {
	err := u.s.MarkPulled(ctx, username)
	record(ctx, err, "mark pulled %s", username)
	return err
}

func (u users) PulledFriends(ctx context.Context, username string) ([]domain.Follow, error) {
	fs, err := u.s.PulledFriends(ctx, username)
	record(ctx, err, "pulled friends of %s -> %d", username, len(fs))
	return fs, err
}

func (u users) PulledAuthors(ctx context.Context) ([]string, error) {
	ns, err := u.s.PulledAuthors(ctx)
	record(ctx, err, "pulled authors -> %d", len(ns))
	return ns, err
}

type tweets struct{ s ports.TweetStore }

func (t tweets) SaveTweet(ctx context.Context, x domain.Tweet) error {
	err := t.s.SaveTweet(ctx, x)
	record(ctx, err, "save tweet %s", x.ID)
	return err
}

func (t tweets) GetTweet(ctx context.Context, id uuid.UUID) (domain.Tweet, error) {
	x, err := t.s.GetTweet(ctx, id)
	if err == nil || isNotFound(err) {
		record(ctx, nil, "get tweet %s -> %d", id, boolInt(err == nil))
	} else {
		record(ctx, err, "get tweet %s", id)
	}
	return x, err
}

func (t tweets) GetTweets(ctx context.Context, ids []uuid.UUID) ([]domain.Tweet, error) {
	xs, err := t.s.GetTweets(ctx, ids)
	record(ctx, err, "multiget tweets %d ids -> %d", len(ids), len(xs))
	return xs, err
}

type lines struct{ s ports.LineStore }

func (l lines) Append(ctx context.Context, e domain.LineEntry, ks ...domain.LineKey) error {
	err := l.s.Append(ctx, e, ks...)
	record(ctx, err, "append entry time=%d to %d lines (%s)", e.Time, len(ks), lineNames(ks))
	return err
}

func (l lines) AppendEntries(ctx context.Context, k domain.LineKey, es []domain.LineEntry) error {
	err := l.s.AppendEntries(ctx, k, es)
	record(ctx, err, "append %d entries to line %s", len(es), k)
	return err
}

func (l lines) Slice(ctx context.Context, k domain.LineKey, before int64, limit int) ([]domain.LineEntry, error) {
	es, err := l.s.Slice(ctx, k, before, limit)
	record(ctx, err, "slice line %s before=%d limit=%d -> %d entries", k, before, limit, len(es))
	return es, err
}

func (l lines) SliceMany(ctx context.Context, reqs []domain.LineSlice) ([][]domain.LineEntry, error) {
	out, err := l.s.SliceMany(ctx, reqs)
	for i, r := range reqs {
		n := 0
		if err == nil {
			n = len(out[i])
		}
		record(ctx, err, "slice line %s before=%d limit=%d -> %d entries", r.Line, r.Before, r.Limit, n)
	}
	return out, err
}

func (l lines) Remove(ctx context.Context, k domain.LineKey, times ...int64) error {
	err := l.s.Remove(ctx, k, times...)
	record(ctx, err, "remove %d entries from line %s", len(times), k)
	return err
}

// lineNames lists up to four lines, then how many more.
func lineNames(ks []domain.LineKey) string {
	const show = 4
	s := ""
	for i, k := range ks {
		if i == show {
			return fmt.Sprintf("%s, +%d more", s, len(ks)-show)
		}
		if i > 0 {
			s += ", "
		}
		s += k.String()
	}
	return s
}

// Authors wraps an AuthorStore.
func Authors(s ports.AuthorStore) ports.AuthorStore { return authors{s} }

// Entries wraps an EntryStore.
func Entries(s ports.EntryStore) ports.EntryStore { return entries{s} }

// Tags wraps a TagIndex.
func Tags(s ports.TagIndex) ports.TagIndex { return tags{s} }

// Comments wraps a CommentStore.
func Comments(s ports.CommentStore) ports.CommentStore { return comments{s} }

type authors struct{ s ports.AuthorStore }

func (a authors) PutAuthor(ctx context.Context, x model.Author) error {
	err := a.s.PutAuthor(ctx, x)
	record(ctx, err, "put author %q (%d attributes)", x.Name, len(x.Profile))
	return err
}

func (a authors) GetAuthor(ctx context.Context, name string) (model.Author, error) {
	x, err := a.s.GetAuthor(ctx, name)
	if err == nil || isNotFound(err) {
		record(ctx, nil, "get author %q -> %d", name, boolInt(err == nil))
	} else {
		record(ctx, err, "get author %q", name)
	}
	return x, err
}

func (a authors) GetAuthors(ctx context.Context, names []string) ([]model.Author, error) {
	xs, err := a.s.GetAuthors(ctx, names)
	record(ctx, err, "multiget authors %d names -> %d", len(names), len(xs))
	return xs, err
}

func (a authors) AddPosts(ctx context.Context, name string, delta int64) error {
	err := a.s.AddPosts(ctx, name, delta)
	record(ctx, err, "add posts %q %+d", name, delta)
	return err
}

type entries struct{ s ports.EntryStore }

func (e entries) CreateEntry(ctx context.Context, x model.Entry) error {
	err := e.s.CreateEntry(ctx, x)
	record(ctx, err, "create entry %s", x.Slug)
	return err
}

func (e entries) GetEntry(ctx context.Context, slug string) (model.Entry, error) {
	x, err := e.s.GetEntry(ctx, slug)
	if err == nil || isNotFound(err) {
		record(ctx, nil, "get entry %s -> %d", slug, boolInt(err == nil))
	} else {
		record(ctx, err, "get entry %s", slug)
	}
	return x, err
}

func (e entries) GetEntries(ctx context.Context, slugs []string) ([]model.Entry, error) {
	xs, err := e.s.GetEntries(ctx, slugs)
	record(ctx, err, "multiget entries %d slugs -> %d", len(slugs), len(xs))
	return xs, err
}

func (e entries) DeleteEntry(ctx context.Context, slug string, id uuid.UUID) error {
	err := e.s.DeleteEntry(ctx, slug, id)
	record(ctx, err, "delete entry %s", slug)
	return err
}

type tags struct{ s ports.TagIndex }

func (t tags) AddTagged(ctx context.Context, id uuid.UUID, slug string, ts ...string) error {
	err := t.s.AddTagged(ctx, id, slug, ts...)
	record(ctx, err, "append tagged %s to %d tag rows", slug, len(ts))
	return err
}

func (t tags) SliceTagged(ctx context.Context, tag string, before uuid.UUID, limit int) ([]model.TagRef, error) {
	rs, err := t.s.SliceTagged(ctx, tag, before, limit)
	record(ctx, err, "slice tagged:%s limit=%d -> %d", tag, limit, len(rs))
	return rs, err
}

func (t tags) RemoveTagged(ctx context.Context, id uuid.UUID, ts ...string) error {
	err := t.s.RemoveTagged(ctx, id, ts...)
	record(ctx, err, "remove tagged %s from %d tag rows", id, len(ts))
	return err
}

type comments struct{ s ports.CommentStore }

func (c comments) AddComment(ctx context.Context, x model.Comment) error {
	err := c.s.AddComment(ctx, x)
	record(ctx, err, "append comment to comments:%s", x.Slug)
	return err
}

func (c comments) SliceComments(ctx context.Context, slug string, after uuid.UUID, limit int) ([]model.Comment, error) {
	xs, err := c.s.SliceComments(ctx, slug, after, limit)
	record(ctx, err, "slice comments:%s limit=%d -> %d", slug, limit, len(xs))
	return xs, err
}

func (c comments) DeleteComments(ctx context.Context, slug string) error {
	err := c.s.DeleteComments(ctx, slug)
	record(ctx, err, "delete comments:%s", slug)
	return err
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func isNotFound(err error) bool { return errors.Is(err, domain.ErrNotFound) }
