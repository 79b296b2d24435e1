package memory

import (
	"bytes"
	"cmp"
	"context"
	"slices"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/blog/model"
)

// The scanners (scan.Users, scan.Tweets, scan.Authors, scan.Entries) walk the maps in
// key order: usernames, tweet IDs (as bytes), author names, slugs. A page costs one pass over
// the map plus sorting what lies after the position: fine for the sizes a memory store holds.

// page returns the keys of m after `after` (all when after is ""), sorted by less, at most limit,
// and the next position: the last key returned, "" when nothing is left.
func page[K comparable, V any](m map[K]V, after *K, limit int, compare func(a, b K) int, pos func(K) string) ([]K, string) {
	keys := make([]K, 0, min(len(m), 4*limit+16))
	for k := range m {
		if after == nil || compare(k, *after) > 0 {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, compare)
	if len(keys) <= limit {
		return keys, ""
	}
	keys = keys[:limit]
	return keys, pos(keys[len(keys)-1])
}

func strPos(s string) string { return s }

func afterString(after string) *string {
	if after == "" {
		return nil
	}
	return &after
}

// ScanUsers pages through the users by username.
func (s *Store) ScanUsers(ctx context.Context, after string, limit int) ([]domain.User, string, error) {
	if err := done(ctx); err != nil {
		return nil, "", err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	keys, next := page(s.users, afterString(after), limit, cmp.Compare[string], strPos)
	out := make([]domain.User, len(keys))
	for i, k := range keys {
		u := s.users[k]
		u.PasswordHash = bytes.Clone(u.PasswordHash)
		out[i] = u
	}
	return out, next, nil
}

// ScanTweets pages through the tweets by ID.
func (s *Store) ScanTweets(ctx context.Context, after string, limit int) ([]domain.Tweet, string, error) {
	if err := done(ctx); err != nil {
		return nil, "", err
	}
	var from *uuid.UUID
	if after != "" {
		id, err := uuid.Parse(after)
		if err != nil {
			return nil, "", domain.Invalid("after", "is not a position of this store")
		}
		from = &id
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	keys, next := page(s.tweets, from, limit, func(a, b uuid.UUID) int { return bytes.Compare(a[:], b[:]) }, uuid.UUID.String)
	out := make([]domain.Tweet, len(keys))
	for i, k := range keys {
		out[i] = s.tweets[k]
	}
	return out, next, nil
}

// ScanAuthors pages through the authors by name.
func (s *BlogStore) ScanAuthors(ctx context.Context, after string, limit int) ([]model.Author, string, error) {
	if err := done(ctx); err != nil {
		return nil, "", err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	keys, next := page(s.authors, afterString(after), limit, cmp.Compare[string], strPos)
	out := make([]model.Author, len(keys))
	for i, k := range keys {
		out[i] = copyAuthor(s.authors[k])
	}
	return out, next, nil
}

// ScanEntries pages through the entries by slug.
func (s *BlogStore) ScanEntries(ctx context.Context, after string, limit int) ([]model.Entry, string, error) {
	if err := done(ctx); err != nil {
		return nil, "", err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	keys, next := page(s.entries, afterString(after), limit, cmp.Compare[string], strPos)
	out := make([]model.Entry, len(keys))
	for i, k := range keys {
		out[i] = copyEntry(s.entries[k])
	}
	return out, next, nil
}
