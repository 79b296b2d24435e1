package migrate

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"strings"

	"twissandra/domain"
	"twissandra/domain/blog/model"
	"twissandra/ports"
	"twissandra/tools/dump"
)

// MaxDifferences is how many differences Verify reports at most.
const MaxDifferences = 20

// Counts are the records of each kind on one side.
type Counts struct {
	Users, Follows, Tweets, LineEntries, Authors, Entries, TagRefs, Comments int
}

// VerifyReport is what Verify found.
type VerifyReport struct {
	From, To    Counts
	Differences []string // at most MaxDifferences
	Total       int      // every difference found, including those not listed
}

// VerifyOptions configure Verify.
type VerifyOptions struct {
	// Sample is how many users, timelines and entries are compared field by field (in full:
	// every entry of the timeline, every comment of the entry); 0 means 100.
	Sample int
	Seed   uint64
}

type diffs struct{ r *VerifyReport }

func (d diffs) addf(format string, args ...any) {
	d.r.Total++
	if len(d.r.Differences) < MaxDifferences {
		d.r.Differences = append(d.r.Differences, fmt.Sprintf(format, args...))
	}
}

// Verify compares two backends: the number of records of each kind (users, follows, tweets,
// line entries, authors, entries, tag references, comments), every user and every tweet field
// by field (both lists are read whole to be counted anyway), every line by a fingerprint of its
// entries, and a random sample of users' timelines and of entries with their comments field by
// field.
func Verify(ctx context.Context, from, to ports.Stores, o VerifyOptions) (VerifyReport, error) {
	if o.Sample <= 0 {
		o.Sample = 100
	}
	var r VerifyReport
	d := diffs{&r}
	rng := rand.New(rand.NewPCG(o.Seed, o.Seed+1))

	fu, err := dump.AllUsers(ctx, from.Users)
	if err != nil {
		return r, fmt.Errorf("source users: %w", err)
	}
	tu, err := dump.AllUsers(ctx, to.Users)
	if err != nil {
		return r, fmt.Errorf("target users: %w", err)
	}
	r.From.Users, r.To.Users = len(fu), len(tu)
	if len(fu) != len(tu) {
		d.addf("users: %d in the source, %d in the target", len(fu), len(tu))
	}
	compareByKey(d, "user", fu, tu, func(u domain.User) string { return u.Username }, func(a, b domain.User) string {
		switch {
		case a.ID != b.ID:
			return fmt.Sprintf("id %s != %s", a.ID, b.ID)
		case !bytes.Equal(a.PasswordHash, b.PasswordHash):
			return "password hashes differ"
		case !a.CreatedAt.Equal(b.CreatedAt):
			return fmt.Sprintf("created_at %s != %s", a.CreatedAt, b.CreatedAt)
		}
		return ""
	})

	// Follows and lines, user by user.
	for _, u := range fu {
		ff, err := dump.AllFollows(ctx, from.Users, u.Username)
		if err != nil {
			return r, err
		}
		tf, err := dump.AllFollows(ctx, to.Users, u.Username)
		if err != nil {
			return r, err
		}
		r.From.Follows += len(ff)
		r.To.Follows += len(tf)
		compareByKey(d, "follow of "+u.Username, ff, tf, func(f domain.Follow) string { return f.Username }, func(a, b domain.Follow) string {
			if !a.Since.Equal(b.Since) {
				return fmt.Sprintf("since %s != %s", a.Since, b.Since)
			}
			return ""
		})
	}
	fp, err := from.Users.PulledAuthors(ctx)
	if err != nil {
		return r, fmt.Errorf("source pulled authors: %w", err)
	}
	tp, err := to.Users.PulledAuthors(ctx)
	if err != nil {
		return r, fmt.Errorf("target pulled authors: %w", err)
	}
	if !slices.Equal(fp, tp) {
		d.addf("pulled authors: %v in the source, %v in the target", fp, tp)
	}
	lines := []domain.LineKey{domain.PublicLine()}
	for _, u := range fu {
		lines = append(lines, domain.UserlineOf(u.Username), domain.TimelineOf(u.Username))
	}
	for _, l := range lines {
		fn, fh, err := fingerprint(ctx, from, l)
		if err != nil {
			return r, err
		}
		tn, th, err := fingerprint(ctx, to, l)
		if err != nil {
			return r, err
		}
		r.From.LineEntries += fn
		r.To.LineEntries += tn
		if fn != tn || fh != th {
			d.addf("%s: %d entries in the source, %d in the target, or different entries", l, fn, tn)
		}
	}

	ft, err := dump.AllTweets(ctx, from.Tweets)
	if err != nil {
		return r, fmt.Errorf("source tweets: %w", err)
	}
	tt, err := dump.AllTweets(ctx, to.Tweets)
	if err != nil {
		return r, fmt.Errorf("target tweets: %w", err)
	}
	r.From.Tweets, r.To.Tweets = len(ft), len(tt)
	if len(ft) != len(tt) {
		d.addf("tweets: %d in the source, %d in the target", len(ft), len(tt))
	}
	compareByKey(d, "tweet", ft, tt, func(t domain.Tweet) string { return t.ID.String() }, func(a, b domain.Tweet) string {
		switch {
		case a.Username != b.Username:
			return fmt.Sprintf("author %s != %s", a.Username, b.Username)
		case a.Body != b.Body:
			return fmt.Sprintf("body %q != %q", a.Body, b.Body)
		case !a.CreatedAt.Equal(b.CreatedAt):
			return fmt.Sprintf("created_at %s != %s", a.CreatedAt, b.CreatedAt)
		}
		return ""
	})

	// Sampled timelines, entry by entry, through GetTweets as a reader would see them.
	for _, i := range sample(rng, len(fu), o.Sample) {
		l := domain.TimelineOf(fu[i].Username)
		fe, err := dump.AllLine(ctx, from.Lines, l)
		if err != nil {
			return r, err
		}
		te, err := dump.AllLine(ctx, to.Lines, l)
		if err != nil {
			return r, err
		}
	entries:
		for j := 0; j < max(len(fe), len(te)); j++ {
			switch {
			case j >= len(fe):
				d.addf("%s: the target has an extra entry %d at %d", l, j, te[j].Time)
			case j >= len(te):
				d.addf("%s: the target lacks entry %d at %d", l, j, fe[j].Time)
			case fe[j].Time != te[j].Time || fe[j].TweetID != te[j].TweetID:
				d.addf("%s: entry %d is %d/%s in the source, %d/%s in the target", l, j, fe[j].Time, fe[j].TweetID, te[j].Time, te[j].TweetID)
			default:
				continue
			}
			break entries // one difference per line is enough
		}
	}

	if from.Authors != nil && to.Authors != nil {
		if err := verifyBlog(ctx, from, to, d, &r, rng, o.Sample); err != nil {
			return r, err
		}
	}
	return r, nil
}

func verifyBlog(ctx context.Context, from, to ports.Stores, d diffs, r *VerifyReport, rng *rand.Rand, n int) error {
	fa, err := dump.AllAuthors(ctx, from.Authors)
	if err != nil {
		return err
	}
	ta, err := dump.AllAuthors(ctx, to.Authors)
	if err != nil {
		return err
	}
	r.From.Authors, r.To.Authors = len(fa), len(ta)
	if len(fa) != len(ta) {
		d.addf("authors: %d in the source, %d in the target", len(fa), len(ta))
	}
	compareByKey(d, "author", fa, ta, func(a model.Author) string { return a.Name }, func(a, b model.Author) string {
		if a.Posts != b.Posts {
			return fmt.Sprintf("posts %d != %d", a.Posts, b.Posts)
		}
		if fmt.Sprint(a.Profile) != fmt.Sprint(b.Profile) {
			return fmt.Sprintf("profile %v != %v", a.Profile, b.Profile)
		}
		return ""
	})
	fe, err := dump.AllEntries(ctx, from.Entries)
	if err != nil {
		return err
	}
	te, err := dump.AllEntries(ctx, to.Entries)
	if err != nil {
		return err
	}
	r.From.Entries, r.To.Entries = len(fe), len(te)
	if len(fe) != len(te) {
		d.addf("entries: %d in the source, %d in the target", len(fe), len(te))
	}
	sampled := map[string]bool{}
	for _, i := range sample(rng, len(fe), n) {
		sampled[fe[i].Slug] = true
	}
	compareByKey(d, "entry", fe, te, func(e model.Entry) string { return e.Slug }, func(a, b model.Entry) string {
		if !sampled[a.Slug] {
			if a.ID != b.ID {
				return fmt.Sprintf("id %s != %s", a.ID, b.ID)
			}
			return ""
		}
		switch {
		case a.ID != b.ID:
			return fmt.Sprintf("id %s != %s", a.ID, b.ID)
		case a.Title != b.Title || a.Body != b.Body || a.Author != b.Author:
			return "title, body or author differ"
		case !slices.Equal(a.Tags, b.Tags):
			return fmt.Sprintf("tags %v != %v", a.Tags, b.Tags)
		case !a.PublishedAt.Equal(b.PublishedAt):
			return fmt.Sprintf("published %s != %s", a.PublishedAt, b.PublishedAt)
		}
		return ""
	})
	for _, tag := range dump.Tags(fe) {
		fr, err := dump.AllTagRefs(ctx, from.Tags, tag)
		if err != nil {
			return err
		}
		tr, err := dump.AllTagRefs(ctx, to.Tags, tag)
		if err != nil {
			return err
		}
		r.From.TagRefs += len(fr)
		r.To.TagRefs += len(tr)
		if !slices.Equal(fr, tr) {
			d.addf("tag %q: %d references in the source, %d in the target, or different ones", tag, len(fr), len(tr))
		}
	}
	for _, e := range fe {
		fc, err := dump.AllComments(ctx, from.Comments, e.Slug)
		if err != nil {
			return err
		}
		tc, err := dump.AllComments(ctx, to.Comments, e.Slug)
		if err != nil {
			return err
		}
		r.From.Comments += len(fc)
		r.To.Comments += len(tc)
		if len(fc) != len(tc) {
			d.addf("comments of %q: %d in the source, %d in the target", e.Slug, len(fc), len(tc))
			continue
		}
		if sampled[e.Slug] {
			for i := range fc {
				a, b := fc[i], tc[i]
				if a.ID != b.ID || a.Name != b.Name || a.Email != b.Email || a.Text != b.Text || !a.Time.Equal(b.Time) {
					d.addf("comment %s of %q differs", a.ID, e.Slug)
				}
			}
		}
	}
	return nil
}

// compareByKey reports records missing on either side and, for records on both, what same says.
func compareByKey[T any](d diffs, kind string, from, to []T, key func(T) string, same func(a, b T) string) {
	target := make(map[string]T, len(to))
	for _, t := range to {
		target[key(t)] = t
	}
	seen := make(map[string]bool, len(from))
	for _, f := range from {
		k := key(f)
		seen[k] = true
		t, ok := target[k]
		if !ok {
			d.addf("%s %s: missing in the target", kind, k)
			continue
		}
		if why := same(f, t); why != "" {
			d.addf("%s %s: %s", kind, k, why)
		}
	}
	for _, t := range to {
		if k := key(t); !seen[k] {
			d.addf("%s %s: only in the target", kind, k)
		}
	}
}

func fingerprint(ctx context.Context, s ports.Stores, l domain.LineKey) (int, uint64, error) {
	h := fnv.New64a()
	n := 0
	err := dump.EachLinePage(ctx, s.Lines, l, func(page []domain.LineEntry) error {
		for _, e := range page {
			var b [24]byte
			for i := range 8 {
				b[i] = byte(e.Time >> (56 - 8*i))
			}
			copy(b[8:], e.TweetID[:])
			h.Write(b[:])
		}
		n += len(page)
		return nil
	})
	return n, h.Sum64(), err
}

// sample picks min(n, k) distinct indices below n.
func sample(rng *rand.Rand, n, k int) []int {
	if k >= n {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	return rng.Perm(n)[:k]
}

// Error is a failed verification: the differences, one a line.
func (r VerifyReport) Error() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "verification found %d differences", r.Total)
	if r.Total > len(r.Differences) {
		fmt.Fprintf(&sb, " (the first %d follow)", len(r.Differences))
	}
	for _, d := range r.Differences {
		sb.WriteString("\n  " + d)
	}
	return sb.String()
}
