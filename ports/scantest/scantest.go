// Package scantest is the contract of the optional scanners of ports/scan: every adapter that
// implements them runs Run against its stores.
package scantest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/blog/model"
	"twissandra/ports"
	"twissandra/ports/scan"
)

// Stores are the stores under test; each must implement its scanner.
type Stores struct {
	Users   ports.UserStore
	Tweets  ports.TweetStore
	Authors ports.AuthorStore
	Entries ports.EntryStore
}

// Run checks, for page sizes from 1 up, that a scan returns every record exactly once, with
// every field, and ends with an empty next position.
func Run(t *testing.T, newStores func(t *testing.T) Stores) {
	ctx := context.Background()
	t.Run("empty", func(t *testing.T) {
		s := newStores(t)
		us, next, err := s.Users.(scan.Users).ScanUsers(ctx, "", 10)
		if err != nil || len(us) != 0 || next != "" {
			t.Fatalf("empty store: %v %q %v", us, next, err)
		}
		ts, next, err := s.Tweets.(scan.Tweets).ScanTweets(ctx, "", 10)
		if err != nil || len(ts) != 0 || next != "" {
			t.Fatalf("empty store: %v %q %v", ts, next, err)
		}
	})
	t.Run("all once", func(t *testing.T) {
		s := newStores(t)
		base := time.Date(2010, 5, 12, 0, 0, 0, 0, time.UTC)
		users := map[string]domain.User{}
		tweets := map[uuid.UUID]domain.Tweet{}
		for i := range 23 {
			u := domain.User{ID: uuid.New(), Username: fmt.Sprintf("user%02d", i), PasswordHash: []byte(fmt.Sprintf("hash-%d", i)), CreatedAt: base.Add(time.Duration(i) * time.Second)}
			if err := s.Users.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			users[u.Username] = u
			for j := range 2 {
				at := base.Add(time.Duration(i*10+j) * time.Minute)
				tw := domain.Tweet{ID: domain.NewTimeUUID(at.UnixMicro()), Username: u.Username, Body: fmt.Sprintf("tweet %d of %s", j, u.Username), CreatedAt: at}
				if err := s.Tweets.SaveTweet(ctx, tw); err != nil {
					t.Fatal(err)
				}
				tweets[tw.ID] = tw
			}
		}
		authors := map[string]model.Author{}
		entries := map[string]model.Entry{}
		for i := range 7 {
			a := model.Author{Name: fmt.Sprintf("Author %d", i), Profile: map[string]string{"email": fmt.Sprintf("a%d@example.com", i)}}
			if err := s.Authors.PutAuthor(ctx, a); err != nil {
				t.Fatal(err)
			}
			if err := s.Authors.AddPosts(ctx, a.Name, int64(i)); err != nil {
				t.Fatal(err)
			}
			a.Posts = int64(i)
			authors[a.Name] = a
			at := base.Add(time.Duration(i) * time.Hour)
			e := model.Entry{Slug: fmt.Sprintf("entry-%d", i), ID: domain.NewTimeUUID(at.UnixMicro()), Title: "T", Body: "B", Author: a.Name, Tags: []string{"go", "x"}, PublishedAt: at}
			if err := s.Entries.CreateEntry(ctx, e); err != nil {
				t.Fatal(err)
			}
			entries[e.Slug] = e
		}
		for _, limit := range []int{1, 2, 5, 22, 23, 24, 100} {
			got := scanAll(t, limit, func(after string, limit int) ([]domain.User, string, error) {
				return s.Users.(scan.Users).ScanUsers(ctx, after, limit)
			}, func(u domain.User) string { return u.Username })
			if len(got) != len(users) {
				t.Fatalf("limit %d: %d users, want %d", limit, len(got), len(users))
			}
			for n, u := range got {
				w := users[n]
				if u.ID != w.ID || string(u.PasswordHash) != string(w.PasswordHash) || !u.CreatedAt.Equal(w.CreatedAt) {
					t.Fatalf("user %s: got %+v, want %+v", n, u, w)
				}
			}
			gotT := scanAll(t, limit, func(after string, limit int) ([]domain.Tweet, string, error) {
				return s.Tweets.(scan.Tweets).ScanTweets(ctx, after, limit)
			}, func(tw domain.Tweet) uuid.UUID { return tw.ID })
			if len(gotT) != len(tweets) {
				t.Fatalf("limit %d: %d tweets, want %d", limit, len(gotT), len(tweets))
			}
			for id, tw := range gotT {
				w := tweets[id]
				if tw.Username != w.Username || tw.Body != w.Body || !tw.CreatedAt.Equal(w.CreatedAt) {
					t.Fatalf("tweet %s: got %+v, want %+v", id, tw, w)
				}
			}
			gotA := scanAll(t, limit, func(after string, limit int) ([]model.Author, string, error) {
				return s.Authors.(scan.Authors).ScanAuthors(ctx, after, limit)
			}, func(a model.Author) string { return a.Name })
			if len(gotA) != len(authors) {
				t.Fatalf("limit %d: %d authors, want %d", limit, len(gotA), len(authors))
			}
			for n, a := range gotA {
				if w := authors[n]; a.Posts != w.Posts || a.Profile["email"] != w.Profile["email"] {
					t.Fatalf("author %s: got %+v, want %+v", n, a, w)
				}
			}
			gotE := scanAll(t, limit, func(after string, limit int) ([]model.Entry, string, error) {
				return s.Entries.(scan.Entries).ScanEntries(ctx, after, limit)
			}, func(e model.Entry) string { return e.Slug })
			if len(gotE) != len(entries) {
				t.Fatalf("limit %d: %d entries, want %d", limit, len(gotE), len(entries))
			}
			for n, e := range gotE {
				if w := entries[n]; e.ID != w.ID || e.Author != w.Author || len(e.Tags) != 2 {
					t.Fatalf("entry %s: got %+v, want %+v", n, e, w)
				}
			}
		}
	})
}

func scanAll[T any, K comparable](t *testing.T, limit int, pageOf func(after string, limit int) ([]T, string, error), key func(T) K) map[K]T {
	t.Helper()
	out := map[K]T{}
	after := ""
	for pages := 0; ; pages++ {
		if pages > 10000 {
			t.Fatal("the scan does not end")
		}
		got, next, err := pageOf(after, limit)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) > limit {
			t.Fatalf("page of %d records, limit %d", len(got), limit)
		}
		for _, r := range got {
			k := key(r)
			if _, dup := out[k]; dup {
				t.Fatalf("limit %d: %v returned twice", limit, k)
			}
			out[k] = r
		}
		if next == "" {
			return out
		}
		after = next
	}
}
