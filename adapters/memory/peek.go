package memory

import (
	"slices"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/blog/model"
)

// The Peek reads are for the teaching views (package teach beside this one), which show where a
// record lives in these maps and how many entries each row holds. Each reads under the store's
// read lock, returns copies, and records nothing in the operation log: looking at the maps is
// not one of the page's storage calls.

// PeekUser is the users map's entry of name.
func (s *Store) PeekUser(name string) (domain.User, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u, ok := s.users[name]
	u.PasswordHash = slices.Clone(u.PasswordHash)
	return u, ok
}

// PeekTweet is the tweets map's entry of id.
func (s *Store) PeekTweet(id uuid.UUID) (domain.Tweet, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, ok := s.tweets[id]
	return t, ok
}

// PeekLineEntry finds the entry of time t in line: the entry, its index in the line (where it
// would be when absent) and the line's length.
func (s *Store) PeekLineEntry(line domain.LineKey, t int64) (e domain.LineEntry, index, length int, ok bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	l := s.lines[line]
	i, ok := slices.BinarySearchFunc(l, t, func(e domain.LineEntry, t int64) int { return cmpInt(e.Time, t) })
	if ok {
		e = l[i]
	}
	return e, i, len(l), ok
}

// PeekFollow is when owner's set in the friends map (friends true) or the followers map took
// in other.
func (s *Store) PeekFollow(friends bool, owner, other string) (since time.Time, ok bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	m := s.followers
	if friends {
		m = s.friends
	}
	if set := m[owner]; set != nil {
		if i, ok := set.find(other); ok {
			return set.items[i].Since, true
		}
	}
	return time.Time{}, false
}

// PeekRows calls yield with each row of the map named container ("lines", "friends" or
// "followers") and its number of entries, in the map's order, until yield returns false.
func (s *Store) PeekRows(container string, yield func(key string, entries int) bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	switch container {
	case "lines":
		for k, line := range s.lines {
			if !yield(k.String(), len(line)) {
				return
			}
		}
	case "friends", "followers":
		sets := s.followers
		if container == "friends" {
			sets = s.friends
		}
		for name, set := range sets {
			if !yield(name, len(set.items)) {
				return
			}
		}
	}
}

// PeekLineLength is the number of entries of line.
func (s *Store) PeekLineLength(line domain.LineKey) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.lines[line])
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// PeekAuthor is the authors map's entry of name.
func (b *BlogStore) PeekAuthor(name string) (model.Author, bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	a, ok := b.authors[name]
	return copyAuthor(a), ok
}

// PeekEntry is the entries map's entry of slug.
func (b *BlogStore) PeekEntry(slug string) (model.Entry, bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	e, ok := b.entries[slug]
	return copyEntry(e), ok
}

// PeekTagRef is the reference to entry id in the tagged row of tag.
func (b *BlogStore) PeekTagRef(tag string, id uuid.UUID) (model.TagRef, bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	i := slices.IndexFunc(b.tagged[tag], func(r model.TagRef) bool { return r.ID == id })
	if i < 0 {
		return model.TagRef{}, false
	}
	return b.tagged[tag][i], true
}

// PeekComment is comment id in the comments row of slug.
func (b *BlogStore) PeekComment(slug string, id uuid.UUID) (model.Comment, bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	cs := b.comments[slug]
	i := slices.IndexFunc(cs, func(c model.Comment) bool { return c.ID == id })
	if i < 0 {
		return model.Comment{}, false
	}
	return cs[i], true
}
