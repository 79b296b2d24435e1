package memory

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/blog/model"
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
	if err := done(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return found(s.authors, names, copyAuthor), nil
}

// AddPosts adjusts the post count under the lock, never below zero.
func (s *BlogStore) AddPosts(ctx context.Context, name string, delta int64) error {
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
	if err := done(ctx); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return found(s.entries, slugs, copyEntry), nil
}

// DeleteEntry deletes the entry of slug if it has the ID id.
func (s *BlogStore) DeleteEntry(ctx context.Context, slug string, id uuid.UUID) error {
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

// RemoveTagged deletes the column id from every tag row.
func (s *BlogStore) RemoveTagged(ctx context.Context, id uuid.UUID, tags ...string) error {
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
	if err := done(ctx); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.comments, slug)
	return nil
}
