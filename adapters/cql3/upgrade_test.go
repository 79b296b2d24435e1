package cql3

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gocql/gocql"
	"github.com/google/uuid"
	"golang.org/x/crypto/bcrypt"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/domain/social"
)

// schemaBefore is the schema up to the migration before query-first lines (001-003).
func schemaBefore(t *testing.T) fs.FS {
	t.Helper()
	out := fstest.MapFS{}
	err := fs.WalkDir(Migrations(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path >= "004" {
			return err
		}
		b, err := fs.ReadFile(Migrations(), path)
		out[path] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil || len(out) != 3 {
		t.Fatalf("the schema before 004: %d files, %v", len(out), err)
	}
	return out
}

// oldLineRow writes a line row as the adapter wrote them before migration 004: the ID only.
// oldFollowRows writes a follow as the schema before 005 held it: two rows, no count.
func oldFollowRows(ctx context.Context, s *Store, fan, followed string, since time.Time) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	ms, us := splitMicros(since)
	b := sess.NewBatch(gocql.LoggedBatch).WithContext(ctx)
	b.Query(stInsertFriend.cql, fan, followed, ms, us)
	b.Query(stInsertFollower.cql, followed, fan, ms, us)
	return sess.ExecuteBatch(b)
}

func oldLineRow(ctx context.Context, s *Store, table string, key any, e domain.LineEntry) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	pk := "username"
	if table == "public_line" {
		pk = "day"
	}
	stmt := fmt.Sprintf("INSERT INTO %s (%s, time, tweet_id) VALUES (?, ?, ?)", table, pk)
	return sess.Session.Query(stmt, key, gu(lineTime(e)), gu(e.TweetID)).WithContext(ctx).Exec()
}

// TestUpgradeToQueryFirstLines starts from today's schema holding data (5 users, 120 tweets,
// follows, the three kinds of line, written as the adapter wrote them before migration 004),
// upgrades the live keyspace, and checks that every page of every line equals the same data's
// pages on the memory adapter: right after the upgrade (rows fall back to the lookup by ID),
// while FillLines runs beside the readers, and after it. A second fill finds nothing to do.
func TestUpgradeToQueryFirstLines(t *testing.T) {
	cfg := nodeConfig(t)
	cfg.Keyspace = randomKeyspace("twissandra_test_upgrade_")
	ctx := testCtx(t, 5*time.Minute)
	old, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	old.migrations = schemaBefore(t)
	if err := old.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = dropKeyspace(old); _ = old.Close() })

	ref := memory.New()
	users := []string{"ann", "bob", "cat", "dan", "eve"}
	for _, name := range users {
		u := domain.User{ID: uuid.New(), Username: name, PasswordHash: []byte("$2a$04$x"), CreatedAt: time.Now().UTC().Truncate(time.Millisecond)}
		for _, st := range []interface {
			CreateUser(context.Context, domain.User) error
		}{old, ref} {
			if err := st.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
		}
	}
	follows := map[string][]string{"ann": {"bob", "cat", "dan", "eve"}, "bob": {"cat", "eve"}} // followed -> followers
	for followed, fans := range follows {
		for _, fan := range fans {
			since := time.Now().UTC().Truncate(time.Millisecond)
			if err := oldFollowRows(ctx, old, fan, followed, since); err != nil {
				t.Fatal(err)
			}
			if err := ref.Follow(ctx, fan, followed, since); err != nil {
				t.Fatal(err)
			}
		}
	}
	base := time.Date(2010, 5, 12, 22, 0, 0, 0, time.UTC).UnixMicro() // the public line crosses midnight
	for i := range 120 {
		author := users[i%len(users)]
		micros := base + int64(i)*60_000_000 + int64(i)
		tw := domain.Tweet{ID: domain.NewTimeUUID(micros), Username: author, Body: fmt.Sprintf("tweet %d by %s", i, author), CreatedAt: domain.TimeFromMicros(micros)}
		e := domain.LineEntry{Time: micros, TweetID: tw.ID}
		if err := old.SaveTweet(ctx, tw); err != nil {
			t.Fatal(err)
		}
		if err := ref.SaveTweet(ctx, tw); err != nil {
			t.Fatal(err)
		}
		lines := []domain.LineKey{domain.UserlineOf(author), domain.TimelineOf(author), domain.PublicLine()}
		for _, fan := range follows[author] {
			lines = append(lines, domain.TimelineOf(fan))
		}
		for _, l := range lines {
			table, key := "userline", any(l.Owner)
			switch l.Kind {
			case domain.Timeline:
				table = "timeline"
			case domain.Public:
				table, key = "public_line", dayOf(micros)
			}
			if err := oldLineRow(ctx, old, table, key, e); err != nil {
				t.Fatal(err)
			}
			if err := ref.AppendEntries(ctx, l, []domain.LineEntry{e}); err != nil {
				t.Fatal(err)
			}
		}
		sess, _ := old.sess()
		if err := sess.Session.Query(stInsertPublicDay.cql, publicLineName, dayOf(micros)).WithContext(ctx).Exec(); err != nil {
			t.Fatal(err)
		}
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}

	// The upgrade: a server of the new version starts on the live keyspace and applies 004.
	s, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	hasher := domain.NewPasswordHasher(bcrypt.MinCost)
	got, want := social.New(s, s, s, nil, hasher), social.New(ref, ref, ref, nil, hasher)
	samePages := func(when string) error {
		for _, name := range users {
			for _, line := range []string{"userline", "timeline"} {
				if err := compareLine(ctx, got, want, line, name); err != nil {
					return fmt.Errorf("%s: %w", when, err)
				}
			}
		}
		return compareLine(ctx, got, want, "public", "")
	}
	if err := samePages("right after the upgrade"); err != nil {
		t.Fatal(err)
	}

	// During: the fill runs while readers page through every line.
	var wg sync.WaitGroup
	done := make(chan struct{})
	errs := make(chan error, 1)
	wg.Go(func() {
		for {
			select {
			case <-done:
				return
			default:
			}
			if err := samePages("during the fill"); err != nil {
				select {
				case errs <- err:
				default:
				}
				return
			}
		}
	})
	r, err := s.FillLines(ctx, nil)
	close(done)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errs:
		t.Fatal(err)
	default:
	}
	rows := 120 * 3 // every tweet's userline, own timeline and public line rows
	for _, fans := range follows {
		rows += len(fans) * 24 // ann and bob post 24 tweets each
	}
	if r.Scanned != rows || r.Filled != rows || r.Dangling != 0 || r.Left != 0 {
		t.Fatalf("fill: %+v, want %d rows scanned and filled", r, rows)
	}
	if err := samePages("after the fill"); err != nil {
		t.Fatal(err)
	}
	if again, err := s.FillLines(ctx, nil); err != nil || again.Filled != 0 || again.Left != 0 || again.Scanned != rows {
		t.Fatalf("a second fill: %+v, %v; want nothing to do", again, err)
	}
	// The follower counts of partitions from before 005 are counted, then kept from there.
	checkCounts := func(when string) {
		t.Helper()
		for _, name := range users {
			g, err := s.FollowerCount(ctx, name)
			w, _ := ref.FollowerCount(ctx, name)
			if err != nil || g != w {
				t.Fatalf("%s: FollowerCount(%s) = %d, %v; want %d", when, name, g, err, w)
			}
		}
	}
	checkCounts("after the upgrade")
	for _, st := range []interface {
		Follow(context.Context, string, string, time.Time) error
		Unfollow(context.Context, string, string) error
	}{s, ref} {
		if err := st.Follow(ctx, "dan", "bob", time.Now()); err != nil {
			t.Fatal(err)
		}
		if err := st.Unfollow(ctx, "eve", "ann"); err != nil {
			t.Fatal(err)
		}
	}
	checkCounts("after a follow and an unfollow on the upgraded partitions")
	// After the fill every entry carries its tweet: a page is the line alone.
	entries, err := s.Slice(ctx, domain.TimelineOf("eve"), 0, 100)
	if err != nil || len(entries) == 0 || slices.ContainsFunc(entries, func(e domain.LineEntry) bool { return e.Tweet == nil }) {
		t.Fatalf("eve's timeline after the fill: %d entries, %v; want every one carrying its tweet", len(entries), err)
	}
}

// compareLine walks every page of one line, 7 at a time, on both services.
func compareLine(ctx context.Context, got, want *social.Service, line, user string) error {
	page := func(svc *social.Service, start string) (social.TweetPage, error) {
		switch line {
		case "userline":
			return svc.Userline(ctx, user, start, 7)
		case "timeline":
			return svc.Timeline(ctx, user, start, 7)
		}
		return svc.PublicLine(ctx, start, 7)
	}
	start := ""
	for n := 0; ; n++ {
		g, err := page(got, start)
		if err != nil {
			return err
		}
		w, err := page(want, start)
		if err != nil {
			return err
		}
		if g.Next != w.Next || len(g.Tweets) != len(w.Tweets) {
			return fmt.Errorf("%s %s page %d: %d tweets next %q, want %d next %q", line, user, n, len(g.Tweets), g.Next, len(w.Tweets), w.Next)
		}
		for i := range g.Tweets {
			a, b := g.Tweets[i], w.Tweets[i]
			if a.ID != b.ID || a.Username != b.Username || a.Body != b.Body || !a.CreatedAt.Equal(b.CreatedAt) {
				return fmt.Errorf("%s %s page %d tweet %d: %+v, want %+v", line, user, n, i, a, b)
			}
		}
		if g.Next == "" {
			return nil
		}
		start = g.Next
	}
}

// A fill never brings back a row deleted after it was read: it writes at the row's own write
// time, older than the delete's tombstone.
func TestFillNeverResurrectsARow(t *testing.T) {
	s := sharedStore(t)
	ctx := testCtx(t, time.Minute)
	owner := "fill_" + uuid.NewString()[:8]
	micros := time.Now().UnixMicro()
	tw := domain.Tweet{ID: domain.NewTimeUUID(micros), Username: owner, Body: "gone", CreatedAt: domain.TimeFromMicros(micros)}
	if err := s.SaveTweet(ctx, tw); err != nil {
		t.Fatal(err)
	}
	e := domain.LineEntry{Time: micros, TweetID: tw.ID}
	if err := oldLineRow(ctx, s, "timeline", owner, e); err != nil {
		t.Fatal(err)
	}
	sess, _ := s.sess()
	var ts int64
	if err := sess.Session.Query("SELECT WRITETIME(tweet_id) FROM timeline WHERE username = ?", owner).WithContext(ctx).Scan(&ts); err != nil {
		t.Fatal(err)
	}
	// The unfollow lands between the fill's read and its write.
	if err := s.Remove(ctx, domain.TimelineOf(owner), micros); err != nil {
		t.Fatal(err)
	}
	filled, _, err := s.fill(ctx, []unfilled{{table: filledTables[1], key: owner, time: gu(lineTime(e)), tweet: gu(tw.ID), ts: ts}})
	if err != nil || filled != 1 {
		t.Fatalf("fill: %d, %v", filled, err)
	}
	if got, err := s.Slice(ctx, domain.TimelineOf(owner), 0, 10); err != nil || len(got) != 0 {
		t.Fatalf("after the fill the deleted row reads %+v, %v; want nothing", got, err)
	}
	var n int
	if err := sess.Session.Query("SELECT COUNT(*) FROM timeline WHERE username = ?", owner).WithContext(ctx).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d rows, %v: the fill brought the row back", n, err)
	}

}
