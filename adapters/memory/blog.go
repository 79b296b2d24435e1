package memory

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/blog/model"
	"twissandra/ports/oplog"
)

// BlogStore implements the blog's ports (ports.AuthorStore, ports.EntryStore, ports.TagIndex and
// ports.CommentStore): one map per column family of the BloggyAppy keyspace, the time-ordered
// rows kept as slices sorted by model.CompareTimeUUID.
type BlogStore struct {
	mu       sync.RWMutex
	authors  map[string]model.Author
	entries  map[string]model.Entry
	tagged   map[string][]model.TagRef  // ascending
	comments map[string][]model.Comment // ascending
}

// NewBlog returns an empty BlogStore.
func NewBlog() *BlogStore {
	return &BlogStore{
		authors:  map[string]model.Author{},
		entries:  map[string]model.Entry{},
		tagged:   map[string][]model.TagRef{},
		comments: map[string][]model.Comment{},
	}
}

func copyAuthor(a model.Author) model.Author {
	a.Profile = maps.Clone(a.Profile)
	if a.Profile == nil {
		a.Profile = map[string]string{}
	}
	return a
}

func copyEntry(e model.Entry) model.Entry {
	e.Tags = slices.Clone(e.Tags)
	return e
}

// PutAuthor replaces the profile and keeps the post count.
func (s *BlogStore) PutAuthor(ctx context.Context, a model.Author) error {
	err := s.putAuthor(ctx, a)
	if describe(ctx, oplog.Write, "put") {
		note(ctx, oplog.Write, err, "put author %q (%d attributes)", a.Name, len(a.Profile))
	}
	return err
}

func (s *BlogStore) putAuthor(ctx context.Context, a model.Author) error {
	if err := done(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a = copyAuthor(a)
	a.Posts = s.authors[a.Name].Posts
	s.authors[a.Name] = a
	return nil
}

// GetAuthor returns one author.
func (s *BlogStore) GetAuthor(ctx context.Context, name string) (model.Author, error) {
	v, err := s.getAuthor(ctx, name)
	if describe(ctx, oplog.Read, "get") {
		n, failed := lookup(err)
		note(ctx, oplog.Read, failed, "get author %q -> %d", name, n)
	}
	return v, err
}

func (s *BlogStore) getAuthor(ctx context.Context, name string) (model.Author, error) {
	if err := done(ctx); err != nil {
		return model.Author{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	a, ok := s.authors[name]
	if !ok {
		return model.Author{}, fmt.Errorf("memory: author %q: %w", name, domain.ErrNotFound)
	}
	return copyAuthor(a), nil
}

// GetAuthors returns the authors found, in the order asked.
func (s *BlogStore) GetAuthors(ctx context.Context, names []string) ([]model.Author, error) {
	v, err := s.getAuthors(ctx, names)
	if describe(ctx, oplog.Read, "multiget") {
		note(ctx, oplog.Read, err, "multiget authors %d names -> %d", len(names), len(v))
	}
	return v, err
}

func (s *BlogStore) getAuthors(ctx context.Context, names []string) ([]model.Author, error) {
	if err := done(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return found(s.authors, names, copyAuthor), nil
}

// AddPosts adjusts the post count under the lock, never below zero.
func (s *BlogStore) AddPosts(ctx context.Context, name string, delta int64) error {
	err := s.addPosts(ctx, name, delta)
	if describe(ctx, oplog.Write, "add") {
		note(ctx, oplog.Write, err, "add posts %q %+d", name, delta)
	}
	return err
}

func (s *BlogStore) addPosts(ctx context.Context, name string, delta int64) error {
	if err := done(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.authors[name]
	if !ok {
		return fmt.Errorf("memory: author %q: %w", name, domain.ErrNotFound)
	}
	a.Posts = max(0, a.Posts+delta)
	s.authors[name] = a
	return nil
}

// CreateEntry stores e unless its slug is taken; the check and the write happen under one lock.
func (s *BlogStore) CreateEntry(ctx context.Context, e model.Entry) error {
	err := s.createEntry(ctx, e)
	if describe(ctx, oplog.LWT, "create") {
		note(ctx, oplog.LWT, err, "create entry %s", e.Slug)
	}
	return err
}

func (s *BlogStore) createEntry(ctx context.Context, e model.Entry) error {
	if err := done(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.entries[e.Slug]; ok {
		return fmt.Errorf("memory: entry %q: %w", e.Slug, domain.ErrAlreadyExists)
	}
	s.entries[e.Slug] = copyEntry(e)
	return nil
}

// GetEntry returns one entry.
func (s *BlogStore) GetEntry(ctx context.Context, slug string) (model.Entry, error) {
	v, err := s.getEntry(ctx, slug)
	if describe(ctx, oplog.Read, "get") {
		n, failed := lookup(err)
		note(ctx, oplog.Read, failed, "get entry %s -> %d", slug, n)
	}
	return v, err
}

func (s *BlogStore) getEntry(ctx context.Context, slug string) (model.Entry, error) {
	if err := done(ctx); err != nil {
		return model.Entry{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	e, ok := s.entries[slug]
	if !ok {
		return model.Entry{}, fmt.Errorf("memory: entry %q: %w", slug, domain.ErrNotFound)
	}
	return copyEntry(e), nil
}

// GetEntries returns the entries found, in the order asked.
func (s *BlogStore) GetEntries(ctx context.Context, slugs []string) ([]model.Entry, error) {
	v, err := s.getEntries(ctx, slugs)
	if describe(ctx, oplog.Read, "multiget") {
		note(ctx, oplog.Read, err, "multiget entries %d slugs -> %d", len(slugs), len(v))
	}
	return v, err
}

func (s *BlogStore) getEntries(ctx context.Context, slugs []string) ([]model.Entry, error) {
	if err := done(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return found(s.entries, slugs, copyEntry), nil
}

// DeleteEntry deletes the entry of slug if it has the ID id.
func (s *BlogStore) DeleteEntry(ctx context.Context, slug string, id uuid.UUID) error {
	err := s.deleteEntry(ctx, slug, id)
	if describe(ctx, oplog.Write, "delete") {
		note(ctx, oplog.Write, err, "delete entry %s", slug)
	}
	return err
}

func (s *BlogStore) deleteEntry(ctx context.Context, slug string, id uuid.UUID) error {
	if err := done(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.entries[slug]
	if !ok || e.ID != id {
		return fmt.Errorf("memory: entry %q of ID %s: %w", slug, id, domain.ErrNotFound)
	}
	delete(s.entries, slug)
	return nil
}

// AddTagged puts the column (id -> slug) in every tag row.
func (s *BlogStore) AddTagged(ctx context.Context, id uuid.UUID, slug string, tags ...string) error {
	err := s.addTagged(ctx, id, slug, tags...)
	if describe(ctx, oplog.Write, "append") {
		note(ctx, oplog.Write, err, "append tagged %s to %d tag rows", slug, len(tags))
	}
	return err
}

func (s *BlogStore) addTagged(ctx context.Context, id uuid.UUID, slug string, tags ...string) error {
	if err := done(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, tag := range tags {
		row := s.tagged[tag]
		i, ok := findRef(row, id)
		if ok {
			row[i].Slug = slug
			continue
		}
		s.tagged[tag] = slices.Insert(row, i, model.TagRef{ID: id, Slug: slug})
	}
	return nil
}

func findRef(row []model.TagRef, id uuid.UUID) (int, bool) {
	return slices.BinarySearchFunc(row, id, func(r model.TagRef, id uuid.UUID) int { return model.CompareTimeUUID(r.ID, id) })
}

// SliceTagged returns up to limit columns of tag's row older than before, newest first.
func (s *BlogStore) SliceTagged(ctx context.Context, tag string, before uuid.UUID, limit int) ([]model.TagRef, error) {
	v, err := s.sliceTagged(ctx, tag, before, limit)
	if describe(ctx, oplog.Read, "slice") {
		note(ctx, oplog.Read, err, "slice tagged:%s limit=%d -> %d", tag, limit, len(v))
	}
	return v, err
}

func (s *BlogStore) sliceTagged(ctx context.Context, tag string, before uuid.UUID, limit int) ([]model.TagRef, error) {
	if err := done(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	row := s.tagged[tag]
	end := len(row)
	if before != uuid.Nil {
		end, _ = findRef(row, before)
	}
	out := make([]model.TagRef, 0, min(limit, end))
	for i := end - 1; i >= 0 && len(out) < limit; i-- {
		out = append(out, row[i])
	}
	return out, nil
}

// SliceTaggedBetween returns up to limit columns of tag's row whose time lies from oldest to
// newest, older than before, newest first.
func (s *BlogStore) SliceTaggedBetween(ctx context.Context, tag string, oldest, newest time.Time, before uuid.UUID, limit int) ([]model.TagRef, error) {
	v, err := s.sliceTaggedBetween(ctx, tag, oldest, newest, before, limit)
	if describe(ctx, oplog.Read, "slice") {
		note(ctx, oplog.Read, err, "slice tagged:%s from=%d to=%d limit=%d -> %d", tag, oldest.UnixMicro(), newest.UnixMicro(), limit, len(v))
	}
	return v, err
}

func (s *BlogStore) sliceTaggedBetween(ctx context.Context, tag string, oldest, newest time.Time, before uuid.UUID, limit int) ([]model.TagRef, error) {
	if err := done(ctx); err != nil {
		return nil, err
	}
	from, to := oldest.UnixMicro(), newest.UnixMicro()
	s.mu.RLock()
	defer s.mu.RUnlock()
	row := s.tagged[tag]
	end := len(row)
	if before != uuid.Nil {
		end, _ = findRef(row, before)
	}
	var out []model.TagRef
	for i := end - 1; i >= 0 && len(out) < limit; i-- {
		switch at := domain.TimeUUIDMicros(row[i].ID); {
		case at > to:
			continue
		case at < from:
			return out, nil
		}
		out = append(out, row[i])
	}
	return out, nil
}

// RemoveTagged deletes the column id from every tag row.
func (s *BlogStore) RemoveTagged(ctx context.Context, id uuid.UUID, tags ...string) error {
	err := s.removeTagged(ctx, id, tags...)
	if describe(ctx, oplog.Write, "remove") {
		note(ctx, oplog.Write, err, "remove tagged %s from %d tag rows", id, len(tags))
	}
	return err
}

func (s *BlogStore) removeTagged(ctx context.Context, id uuid.UUID, tags ...string) error {
	if err := done(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, tag := range tags {
		row := s.tagged[tag]
		if i, ok := findRef(row, id); ok {
			row = slices.Delete(row, i, i+1)
		}
		if len(row) == 0 {
			delete(s.tagged, tag)
			continue
		}
		s.tagged[tag] = row
	}
	return nil
}

// AddComment stores c in its entry's row.
func (s *BlogStore) AddComment(ctx context.Context, c model.Comment) error {
	err := s.addComment(ctx, c)
	if describe(ctx, oplog.Write, "append") {
		note(ctx, oplog.Write, err, "append comment to comments:%s", c.Slug)
	}
	return err
}

func (s *BlogStore) addComment(ctx context.Context, c model.Comment) error {
	if err := done(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	row := s.comments[c.Slug]
	i, ok := findComment(row, c.ID)
	if ok {
		row[i] = c
		return nil
	}
	s.comments[c.Slug] = slices.Insert(row, i, c)
	return nil
}

func findComment(row []model.Comment, id uuid.UUID) (int, bool) {
	return slices.BinarySearchFunc(row, id, func(c model.Comment, id uuid.UUID) int { return model.CompareTimeUUID(c.ID, id) })
}

// SliceComments returns up to limit comments of slug newer than after, oldest first.
func (s *BlogStore) SliceComments(ctx context.Context, slug string, after uuid.UUID, limit int) ([]model.Comment, error) {
	v, err := s.sliceComments(ctx, slug, after, limit)
	if describe(ctx, oplog.Read, "slice") {
		note(ctx, oplog.Read, err, "slice comments:%s limit=%d -> %d", slug, limit, len(v))
	}
	return v, err
}

func (s *BlogStore) sliceComments(ctx context.Context, slug string, after uuid.UUID, limit int) ([]model.Comment, error) {
	if err := done(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	row := s.comments[slug]
	start := 0
	if after != uuid.Nil {
		start = sort.Search(len(row), func(i int) bool { return model.CompareTimeUUID(row[i].ID, after) > 0 })
	}
	end := start + min(limit, len(row)-start)
	return slices.Clone(row[start:end]), nil
}

// DeleteComments deletes the row of slug.
func (s *BlogStore) DeleteComments(ctx context.Context, slug string) error {
	err := s.deleteComments(ctx, slug)
	if describe(ctx, oplog.Write, "delete") {
		note(ctx, oplog.Write, err, "delete comments:%s", slug)
	}
	return err
}

func (s *BlogStore) deleteComments(ctx context.Context, slug string) error {
	if err := done(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.comments, slug)
	return nil
}
