package compare

import (
	"context"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"twissandra/domain"
	"twissandra/domain/blog/model"
	"twissandra/ports"
)

//go:generate go run twissandra/internal/portgen/cmd/portgen -kind compare

// The wrappers of Stores are generated from the ports (stores_gen.go): a method that returns
// only an error is a write, run by Pair.write; one that returns a value is a read, run by read
// and compared by the key function of its value's type, below. The methods that do more are
// written here, and the generator skips them.

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

// listKey is the key of a list, from the key of its elements.
func listKey[T any](key func(T) string) func([]T) string {
	return func(xs []T) string { return keys(xs, key) }
}

// The key of each type a read returns: what the two models must agree on (no store-specific
// cursors or time zones).

func micros(t time.Time) int64 { return t.UnixMicro() }

func userKey(u domain.User) string {
	return fmt.Sprintf("%s/%s/%s/%d", u.Username, u.ID, hex.EncodeToString(u.PasswordHash[:min(len(u.PasswordHash), 8)]), micros(u.CreatedAt))
}
func followKey(f domain.Follow) string { return fmt.Sprintf("%s@%d", f.Username, micros(f.Since)) }
func tweetKey(t domain.Tweet) string {
	return fmt.Sprintf("%s/%s/%q/%d", t.ID, t.Username, t.Body, micros(t.CreatedAt))
}
func lineEntryKey(e domain.LineEntry) string { return fmt.Sprintf("%d/%s", e.Time, e.TweetID) }
func authorKey(a model.Author) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s/%d", a.Name, a.Posts)
	for _, k := range slices.Sorted(maps.Keys(a.Profile)) {
		fmt.Fprintf(&b, "/%s=%q", k, a.Profile[k])
	}
	return b.String()
}
func entryKey(e model.Entry) string {
	return fmt.Sprintf("%s/%s/%q/%s/%v/%d", e.Slug, e.ID, e.Title, e.Author, e.Tags, e.PublishedAt.Unix())
}
func tagRefKey(r model.TagRef) string   { return r.ID.String() + "/" + r.Slug }
func commentKey(c model.Comment) string { return fmt.Sprintf("%s/%q/%d", c.ID, c.Text, c.Time.Unix()) }
func int64Key(n int64) string           { return fmt.Sprint(n) }
func stringKey(s string) string         { return s }
func timeKey(t time.Time) string        { return fmt.Sprint(micros(t)) }
func boolKey(b bool) string             { return fmt.Sprint(b) }

// Friends and Followers shadow the first page of a follow list only, and compare it as a set.
func (w userStore) Friends(ctx context.Context, username, after string, limit int) ([]domain.Follow, error) {
	return w.follows(ctx, "friends "+username, after, func(st ports.UserStore) followList { return st.Friends }, username, limit)
}

func (w userStore) Followers(ctx context.Context, username, after string, limit int) ([]domain.Follow, error) {
	return w.follows(ctx, "followers "+username, after, func(st ports.UserStore) followList { return st.Followers }, username, limit)
}

type followList func(ctx context.Context, username, after string, limit int) ([]domain.Follow, error)

// follows shadows the first page of a follow list only: a later page starts at a cursor of the
// primary's own, which the secondary cannot read (each model pages in its own order).
func (w userStore) follows(ctx context.Context, op, after string, list func(ports.UserStore) followList, username string, limit int) ([]domain.Follow, error) {
	if after != "" {
		var out []domain.Follow
		err := w.p.primary(ctx, func(ctx context.Context) error {
			var err error
			out, err = list(w.a)(ctx, username, after, limit)
			return err
		})
		return out, err
	}
	return read(ctx, w.p, op, func(ctx context.Context, first bool) ([]domain.Follow, error) {
		return list(pick(first, w.a, w.b))(ctx, username, "", limit)
	}, func(fs []domain.Follow) string {
		// Each model lists in its own order (by uuid, by name, by token): compare as sets.
		ks := make([]string, len(fs))
		for i, f := range fs {
			ks[i] = followKey(f)
		}
		slices.Sort(ks)
		return keys(ks, stringKey)
	})
}

// AppendToFollowers runs on each model, each fanning out to its own followers as it lists
// them, so that no model's row keys reach the other; it answers the primary's count, and
// reports a secondary that reached a different number of lines.
func (w lineStore) AppendToFollowers(ctx context.Context, e domain.LineEntry, author string, lines ...domain.LineKey) (int, error) {
	var counts [2]int
	op := "append_to_followers " + author
	err := w.p.write(ctx, op, func(ctx context.Context, first bool) error {
		n, err := pick(first, w.a, w.b).AppendToFollowers(ctx, e, author, lines...)
		counts[btoi(!first)] = n
		return err
	})
	if err == nil && counts[1] != 0 && counts[1] != counts[0] {
		w.p.report(ctx, op, fmt.Sprintf("%s wrote %d lines, %s %d", w.p.Primary, counts[0], w.p.Secondary, counts[1]), true)
	}
	return counts[0], err
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ReadPage runs the page's plan on each model's own lines, so that each reads the page as it
// would alone (a 0.6 line row then a multiget of the Tweet rows; a query-first partition whose
// rows carry their tweets), and compares the pages: the entries and the tweets of the first
// limit.
func (w lineStore) ReadPage(ctx context.Context, limit int, plan domain.PagePlan) ([]domain.LineEntry, error) {
	return read(ctx, w.p, "page", func(ctx context.Context, first bool) ([]domain.LineEntry, error) {
		return pick(first, w.a, w.b).ReadPage(ctx, limit, plan)
	}, func(es []domain.LineEntry) string {
		// The entry past limit says only that a next page exists: a model that carries tweets
		// in its lines has its tweet, one that does not has none.
		page := make([]string, len(es))
		for i, e := range es {
			page[i] = lineEntryKey(e)
			if i < limit && e.Tweet != nil {
				page[i] += "/" + tweetKey(*e.Tweet)
			}
		}
		return keys(page, stringKey)
	})
}
