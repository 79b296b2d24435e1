// Package model holds the records of the blog from "WTF is a SuperColumn" (the BloggyAppy
// keyspace: Authors, BlogEntries, TaggedPosts, Comments) and their rules. It imports nothing of
// the project's own but domain, so the blog ports can name these types while the blog's use
// cases (package blog, which imports the ports) re-export them.
package model

import (
	"bytes"
	"encoding/base64"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
)

// NoTag is the tag row every entry is indexed under, so one TaggedPosts row lists all entries
// newest first. It cannot be a user's tag: the tag pattern has no underscore.
const NoTag = "__notag__"

// Author is one row of the Authors column family, keyed by the author's full name. Profile holds
// free-form attributes (email, twitter, bio, ...), one column each; Posts is the number of
// entries the author has published (the article's numPosts column), kept by the use cases.
type Author struct {
	Name    string
	Profile map[string]string
	Posts   int64
}

// Entry is one blog entry, keyed by its slug. ID is a version-1 (time) UUID whose time is
// PublishedAt: it is the entry's column name in every TaggedPosts row it is in, so the entry row
// alone names exactly the index columns to delete with it. Tags are sorted and distinct, never
// holding NoTag (every entry is under NoTag implicitly).
type Entry struct {
	Slug        string
	ID          uuid.UUID
	Title       string
	Body        string
	Author      string
	Tags        []string
	PublishedAt time.Time
}

// Comment is one comment on an entry: a super column of the entry's Comments row, named by ID (a
// time UUID whose time is Time). Commenters do not register: Name and Email are whatever they
// typed; Email may be empty.
type Comment struct {
	ID    uuid.UUID
	Slug  string
	Name  string
	Email string
	Text  string
	Time  time.Time
}

// TagRef is one column of a TaggedPosts row: its name is the entry's ID, its value the entry's
// slug (the BlogEntries row key).
type TagRef struct {
	ID   uuid.UUID
	Slug string
}

// CompareTimeUUID orders time UUIDs as TimeUUIDType does: by their time first, then by their
// bytes (unsigned), so two UUIDs of the same instant still have a fixed order. The memory and
// widerow adapters order the TaggedPosts and Comments rows by it.
func CompareTimeUUID(a, b uuid.UUID) int {
	ta, tb := domain.TimeUUIDTicks(a), domain.TimeUUIDTicks(b)
	switch {
	case ta < tb:
		return -1
	case ta > tb:
		return 1
	}
	return bytes.Compare(a[:], b[:])
}

// IsTimeUUID reports whether u is a version-1 UUID of a time not before the Unix epoch.
func IsTimeUUID(u uuid.UUID) bool {
	return u.Version() == 1 && domain.TimeUUIDTicks(u) >= domain.UnixEpochTicks
}

// cursorVersion tells blog cursors from line cursors (version 1), so one is never taken for the other.
const cursorVersion = 2

// EncodeCursor makes the opaque "next" cursor of an entry or comment page: the page continues
// strictly past the column named id.
func EncodeCursor(id uuid.UUID) string {
	b := make([]byte, 0, 1+len(id))
	b = append(b, cursorVersion)
	b = append(b, id[:]...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ParseCursor reads a cursor made by EncodeCursor. "" means the first page (uuid.Nil).
func ParseCursor(s string) (uuid.UUID, error) {
	if s == "" {
		return uuid.Nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) != 17 || b[0] != cursorVersion {
		return uuid.Nil, domain.Invalid("start", "is not a cursor this server made")
	}
	id, _ := uuid.FromBytes(b[1:])
	if !IsTimeUUID(id) {
		return uuid.Nil, domain.Invalid("start", "is not a cursor this server made")
	}
	return id, nil
}
