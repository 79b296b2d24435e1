package cql3

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/gocql/gocql"
	"github.com/google/uuid"
	"github.com/scylladb/gocqlx/v2"
	"github.com/scylladb/gocqlx/v2/qb"

	"twissandra/domain"
	"twissandra/domain/blog/model"
)

// maxCASAttempts bounds one AddPosts' compare-and-set loop. The per-author lock leaves only
// other processes to contend with, so this is reached only by a pathological storm.
const maxCASAttempts = 64

type authorRow struct {
	Name    string            `db:"name"`
	Profile map[string]string `db:"profile"`
	Posts   *int64            `db:"posts"`
}

func (r authorRow) author() model.Author {
	a := model.Author{Name: r.Name, Profile: r.Profile}
	if a.Profile == nil {
		a.Profile = map[string]string{}
	}
	if r.Posts != nil {
		a.Posts = *r.Posts
	}
	return a
}

// PutAuthor replaces the profile. It is an INSERT, so the row exists even with an empty profile
// (an UPDATE writes no row marker), and it never names posts, so the count stays.
func (s *Store) PutAuthor(ctx context.Context, a model.Author) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	var profile map[string]string
	if len(a.Profile) > 0 {
		profile = maps.Clone(a.Profile)
	}
	return wrap("put author", query(ctx, sess, stPutAuthor, qb.M{"name": a.Name, "profile": profile}).ExecRelease())
}

// GetAuthor reads one author.
func (s *Store) GetAuthor(ctx context.Context, name string) (model.Author, error) {
	sess, err := s.sess()
	if err != nil {
		return model.Author{}, err
	}
	var r authorRow
	if err := query(ctx, sess, stGetAuthor, qb.M{"name": name}).GetRelease(&r); err != nil {
		return model.Author{}, wrap(fmt.Sprintf("get author %q", name), err)
	}
	return r.author(), nil
}

// GetAuthors reads the authors of one page with one IN query.
func (s *Store) GetAuthors(ctx context.Context, names []string) ([]model.Author, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	return getIn(ctx, sess, stGetAuthors, "name", "get authors", names, func(r *authorRow) (string, model.Author) {
		return r.Name, r.author()
	})
}

// AddPosts changes the post count by compare-and-set: read the count at serial consistency
// (which completes any Paxos round in flight), then UPDATE ... IF posts = <what was read>, and
// again on a lost race. A counter column could not do it: counters cannot stop at zero, nor
// share a table with the profile. Calls of this process for one author wait for each other, so
// Paxos sees one proposer per process.
func (s *Store) AddPosts(ctx context.Context, name string, delta int64) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	unlock, err := s.lwtLocks.lock(ctx, "posts\x00"+name)
	if err != nil {
		return wrap("add posts", err)
	}
	defer unlock()
	for attempt := 0; attempt < maxCASAttempts; attempt++ {
		var cur *int64
		q := query(ctx, sess, stAuthorPosts, qb.M{"name": name})
		s.atSerial(q)
		if err := q.GetRelease(&cur); err != nil {
			return wrap(fmt.Sprintf("add posts of %q", name), err)
		}
		var expected any // nil: the count was never set (a new author), which is 0
		next := delta
		if cur != nil {
			expected, next = *cur, *cur+delta
		}
		applied, err := s.cas(ctx, sess, stSetPosts, qb.M{"posts": max(0, next), "name": name, "expected": expected})
		if err != nil {
			return wrap(fmt.Sprintf("add posts of %q", name), err)
		}
		if applied {
			return nil
		}
	}
	return fmt.Errorf("cql3: add posts of %q: %d compare-and-set rounds lost to concurrent writers: %w", name, maxCASAttempts, domain.ErrUnavailable)
}

type entryRow struct {
	Slug        string     `db:"slug"`
	ID          gocql.UUID `db:"id"`
	Title       string     `db:"title"`
	Body        string     `db:"body"`
	Author      string     `db:"author"`
	Tags        []string   `db:"tags"`
	PublishedAt time.Time  `db:"published_at"`
	PublishedUs int        `db:"published_at_us"`
}

func (r entryRow) entry() model.Entry {
	return model.Entry{
		Slug: r.Slug, ID: uuid.UUID(r.ID), Title: r.Title, Body: r.Body, Author: r.Author,
		Tags: r.Tags, PublishedAt: joinMicros(r.PublishedAt, r.PublishedUs),
	}
}

// CreateEntry claims the slug with INSERT ... IF NOT EXISTS.
func (s *Store) CreateEntry(ctx context.Context, e model.Entry) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	var tags []string
	if len(e.Tags) > 0 {
		tags = e.Tags
	}
	published, publishedUs := splitMicros(e.PublishedAt)
	applied, err := s.cas(ctx, sess, stCreateEntry, qb.M{
		"slug": e.Slug, "id": gu(e.ID), "title": e.Title, "body": e.Body, "author": e.Author,
		"tags": tags, "published_at": published, "published_at_us": publishedUs,
	})
	if err != nil {
		return wrap(fmt.Sprintf("create entry %q", e.Slug), err)
	}
	if !applied {
		return fmt.Errorf("cql3: entry %q: %w", e.Slug, domain.ErrAlreadyExists)
	}
	return nil
}

// GetEntry reads one entry.
func (s *Store) GetEntry(ctx context.Context, slug string) (model.Entry, error) {
	sess, err := s.sess()
	if err != nil {
		return model.Entry{}, err
	}
	var r entryRow
	if err := query(ctx, sess, stGetEntry, qb.M{"slug": slug}).GetRelease(&r); err != nil {
		return model.Entry{}, wrap(fmt.Sprintf("get entry %q", slug), err)
	}
	return r.entry(), nil
}

// GetEntries reads the entries of one page with one IN query; a slug asked twice is returned
// twice.
func (s *Store) GetEntries(ctx context.Context, slugs []string) ([]model.Entry, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	out, err := getIn(ctx, sess, stGetEntries, "slug", "get entries", slugs, func(r *entryRow) (string, model.Entry) {
		return r.Slug, r.entry()
	})
	for i := range out { // a slug asked twice must not share its tags
		out[i].Tags = slices.Clone(out[i].Tags)
	}
	return out, err
}

// DeleteEntry deletes the row with DELETE ... IF id = ?: of concurrent deletes one applies.
func (s *Store) DeleteEntry(ctx context.Context, slug string, id uuid.UUID) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	applied, err := s.cas(ctx, sess, stDeleteEntry, qb.M{"slug": slug, "id": gu(id)})
	if err != nil {
		return wrap(fmt.Sprintf("delete entry %q", slug), err)
	}
	if !applied {
		return fmt.Errorf("cql3: entry %q of ID %s: %w", slug, id, domain.ErrNotFound)
	}
	return nil
}

// AddTagged writes the entry's row into every tag's partition in one logged batch: the index
// rows of one entry appear together or not at all.
func (s *Store) AddTagged(ctx context.Context, id uuid.UUID, slug string, tags ...string) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	if len(tags) == 0 {
		return nil
	}
	b := sess.NewBatch(gocql.LoggedBatch).WithContext(ctx)
	for _, tag := range tags {
		b.Query(stInsertTagged.cql, tag, gu(id), slug)
	}
	return wrap("add tagged", sess.ExecuteBatch(b))
}

// RemoveTagged deletes the entry's row from every tag's partition in one logged batch.
func (s *Store) RemoveTagged(ctx context.Context, id uuid.UUID, tags ...string) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	if len(tags) == 0 {
		return nil
	}
	b := sess.NewBatch(gocql.LoggedBatch).WithContext(ctx)
	for _, tag := range tags {
		b.Query(stDeleteTagged.cql, tag, gu(id))
	}
	return wrap("remove tagged", sess.ExecuteBatch(b))
}

// SliceTagged reads a tag's partition newest first, strictly older than before.
func (s *Store) SliceTagged(ctx context.Context, tag string, before uuid.UUID, limit int) ([]model.TagRef, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		return nil, nil
	}
	keep := func(uuid.UUID) bool { return true }
	var hi uuid.UUID
	if before != uuid.Nil {
		_, hi = tickBounds(before)
		keep = func(id uuid.UUID) bool { return model.CompareTimeUUID(id, before) < 0 }
	}
	fetch := func(n int) ([]model.TagRef, error) {
		var q *gocqlx.Queryx
		if before == uuid.Nil {
			q = query(ctx, sess, stTagged, qb.M{"tag": tag, "limit": n})
		} else {
			q = query(ctx, sess, stTaggedUntil, qb.M{"tag": tag, "time": gu(hi), "limit": n})
		}
		q.PageSize(n)
		iter := q.Iter()
		var (
			out  []model.TagRef
			id   gocql.UUID
			slug string
		)
		for iter.Scan(&id, &slug) {
			out = append(out, model.TagRef{ID: uuid.UUID(id), Slug: slug})
		}
		return out, iter.Close()
	}
	refs, err := exactSlice(limit, fetch, func(r model.TagRef) uuid.UUID { return r.ID }, keep, true)
	return refs, wrap(fmt.Sprintf("slice tag %q", tag), err)
}

// SliceTaggedBetween reads a tag's partition newest first between maxTimeuuid(newest) (or the
// cursor's tick, when it is older) and minTimeuuid(oldest): one clustering range, whatever the
// partition holds outside it.
func (s *Store) SliceTaggedBetween(ctx context.Context, tag string, oldest, newest time.Time, before uuid.UUID, limit int) ([]model.TagRef, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	if limit <= 0 || newest.Before(oldest) {
		return nil, nil
	}
	lo, hi := minTimeUUID(oldest.UnixMicro()), maxTimeUUID(newest.UnixMicro())
	keep := func(uuid.UUID) bool { return true }
	if before != uuid.Nil {
		if domain.TimeUUIDTicks(before) < domain.TimeUUIDTicks(lo) {
			return nil, nil
		}
		if _, tick := tickBounds(before); domain.TimeUUIDTicks(tick) <= domain.TimeUUIDTicks(hi) {
			hi = tick
		}
		keep = func(id uuid.UUID) bool { return model.CompareTimeUUID(id, before) < 0 }
	}
	fetch := func(n int) ([]model.TagRef, error) {
		q := query(ctx, sess, stTaggedBetween, qb.M{"tag": tag, "newest": gu(hi), "oldest": gu(lo), "limit": n})
		q.PageSize(n)
		iter := q.Iter()
		var (
			out  []model.TagRef
			id   gocql.UUID
			slug string
		)
		for iter.Scan(&id, &slug) {
			out = append(out, model.TagRef{ID: uuid.UUID(id), Slug: slug})
		}
		return out, iter.Close()
	}
	refs, err := exactSlice(limit, fetch, func(r model.TagRef) uuid.UUID { return r.ID }, keep, true)
	return refs, wrap(fmt.Sprintf("slice tag %q between", tag), err)
}

// AddComment writes every column of the comment, so writing an ID again replaces it whole.
func (s *Store) AddComment(ctx context.Context, c model.Comment) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	created, createdUs := splitMicros(c.Time)
	return wrap("add comment", query(ctx, sess, stInsertComment, qb.M{
		"slug": c.Slug, "time": gu(c.ID), "name": c.Name, "email": c.Email, "body": c.Text,
		"created_at": created, "created_at_us": createdUs,
	}).ExecRelease())
}

type commentRow struct {
	Time      gocql.UUID `db:"time"`
	Name      string     `db:"name"`
	Email     string     `db:"email"`
	Body      string     `db:"body"`
	CreatedAt time.Time  `db:"created_at"`
	CreatedUs int        `db:"created_at_us"`
}

// SliceComments reads an entry's comments oldest first, strictly newer than after.
func (s *Store) SliceComments(ctx context.Context, slug string, after uuid.UUID, limit int) ([]model.Comment, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		return nil, nil
	}
	keep := func(uuid.UUID) bool { return true }
	var lo uuid.UUID
	if after != uuid.Nil {
		lo, _ = tickBounds(after)
		keep = func(id uuid.UUID) bool { return model.CompareTimeUUID(id, after) > 0 }
	}
	fetch := func(n int) ([]model.Comment, error) {
		var q *gocqlx.Queryx
		if after == uuid.Nil {
			q = query(ctx, sess, stComments, qb.M{"slug": slug, "limit": n})
		} else {
			q = query(ctx, sess, stCommentsFrom, qb.M{"slug": slug, "time": gu(lo), "limit": n})
		}
		q.PageSize(n)
		iter := q.Iter()
		var (
			out []model.Comment
			r   commentRow
		)
		for iter.StructScan(&r) {
			out = append(out, model.Comment{
				ID: uuid.UUID(r.Time), Slug: slug, Name: r.Name, Email: r.Email, Text: r.Body,
				Time: joinMicros(r.CreatedAt, r.CreatedUs),
			})
			r = commentRow{}
		}
		return out, iter.Close()
	}
	cs, err := exactSlice(limit, fetch, func(c model.Comment) uuid.UUID { return c.ID }, keep, false)
	return cs, wrap(fmt.Sprintf("slice comments of %q", slug), err)
}

// DeleteComments deletes the entry's whole comment partition.
func (s *Store) DeleteComments(ctx context.Context, slug string) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	return wrap("delete comments", query(ctx, sess, stDeleteAllComm, qb.M{"slug": slug}).ExecRelease())
}

// exactSlice pages a timeuuid-clustered partition in the order of model.CompareTimeUUID.
//
// Cassandra orders the timeuuids of one 100-ns tick by their last eight bytes compared as
// signed bytes; the contract (and TimeUUIDType of the Thrift era) compares them unsigned. The
// two orders agree except inside one tick, which is where two entries or comments of the same
// microsecond land. So the query's bound takes the cursor's whole tick (keep then drops the
// rows at or before the cursor), rows are re-sorted in Go, and only the rows of ticks read in
// full are returned: the last tick read may go on beyond the LIMIT. Reading limit+2 rows makes
// one query enough unless a tick holds more rows than that, when the read widens.
func exactSlice[T any](limit int, fetch func(n int) ([]T, error), id func(T) uuid.UUID, keep func(uuid.UUID) bool, desc bool) ([]T, error) {
	cmp := func(a, b T) int { return model.CompareTimeUUID(id(a), id(b)) }
	if desc {
		cmp = func(a, b T) int { return model.CompareTimeUUID(id(b), id(a)) }
	}
	for n := limit + 2; ; n *= 4 {
		raw, err := fetch(n)
		if err != nil {
			return nil, err
		}
		rows := make([]T, 0, len(raw))
		for _, r := range raw {
			if keep(id(r)) {
				rows = append(rows, r)
			}
		}
		slices.SortStableFunc(rows, cmp)
		if len(raw) < n {
			return rows[:min(limit, len(rows))], nil
		}
		last := domain.TimeUUIDTicks(id(raw[len(raw)-1]))
		complete := len(rows)
		for complete > 0 && domain.TimeUUIDTicks(id(rows[complete-1])) == last {
			complete--
		}
		if complete >= limit {
			return rows[:limit], nil
		}
	}
}
