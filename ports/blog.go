package ports

import (
	"context"
	"time"

	"github.com/google/uuid"

	"twissandra/domain/blog/model"
)

// The blog of "WTF is a SuperColumn" has four stores, one per column family of its BloggyAppy
// keyspace. Each maps onto the Thrift-era model and onto a CQL3 table directly:
//
//	AuthorStore   Authors (BytesType; row = author name, a column per profile attribute
//	              plus numPosts)            authors (name PRIMARY KEY, profile map<text,text>, posts)
//	EntryStore    BlogEntries (BytesType; row = slug; title, body, author, pubdate, id, tags
//	              comma-separated)          blog_entries (slug PRIMARY KEY, id timeuuid, ..., tags set<text>)
//	TagIndex      TaggedPosts (TimeUUIDType; row = tag or __notag__, column = entry ID -> slug)
//	                                        tagged_posts ((tag), id timeuuid DESC, slug)
//	CommentStore  Comments (Super, TimeUUIDType / BytesType; row = slug, super column = comment
//	              ID, subcolumns = the commenter's fields)
//	                                        comments ((slug), id timeuuid ASC, name, email, text)
//
// The stores keep no cross-row invariant: the use cases (domain/blog) write the entry row, the
// index columns and the post count in turn, and readers skip index columns whose entry is gone
// or is another entry of the same slug (its ID differs).

// AuthorStore keeps author profiles and post counts.
type AuthorStore interface {
	// PutAuthor creates or replaces the author's profile: afterwards the profile is exactly
	// a.Profile (attributes absent from it are removed). It never changes the post count; a new
	// author starts at 0. a.Posts is ignored.
	PutAuthor(ctx context.Context, a model.Author) error
	// GetAuthor returns the author or domain.ErrNotFound. Profile is never nil.
	GetAuthor(ctx context.Context, name string) (model.Author, error)
	// GetAuthors returns the authors that exist, in the order asked, in one round trip (or a
	// bounded set of concurrent ones); missing names are dropped.
	GetAuthors(ctx context.Context, names []string) ([]model.Author, error)
	// AddPosts adds delta (positive or negative) to the author's post count atomically: of any
	// number of concurrent calls none is lost. The count never goes below 0 (a decrement past 0
	// leaves 0). An author that does not exist is domain.ErrNotFound and is not created.
	AddPosts(ctx context.Context, name string, delta int64) error
}

// EntryStore keeps blog entries by slug.
type EntryStore interface {
	// CreateEntry stores e unless an entry of its slug exists: exactly one of any number of
	// concurrent creates of one slug succeeds, the others get domain.ErrAlreadyExists and change
	// nothing. The use cases pass the tags sorted and distinct; GetEntry returns them so (a
	// comma-separated column keeps their order, CQL's set<text> sorts them).
	CreateEntry(ctx context.Context, e model.Entry) error
	// GetEntry returns the entry or domain.ErrNotFound.
	GetEntry(ctx context.Context, slug string) (model.Entry, error)
	// GetEntries returns the entries that exist, in the order asked, in one round trip (or a
	// bounded set of concurrent ones); missing slugs are dropped, a slug asked twice is returned
	// twice.
	GetEntries(ctx context.Context, slugs []string) ([]model.Entry, error)
	// DeleteEntry deletes the entry of slug if its ID is id, atomically: of concurrent deletes
	// exactly one succeeds. No such entry, or one of another ID (the slug was deleted and
	// published again), is domain.ErrNotFound and deletes nothing.
	DeleteEntry(ctx context.Context, slug string, id uuid.UUID) error
}

// TagIndex keeps the TaggedPosts rows: per tag (and NoTag), the entries' IDs in time order,
// each naming the entry's slug. Tags reach the store already normalized.
type TagIndex interface {
	// AddTagged writes the column (id -> slug) into the row of every tag given, in one batch
	// where the store can. Writing a column again is harmless.
	AddTagged(ctx context.Context, id uuid.UUID, slug string, tags ...string) error
	// SliceTagged returns at most limit columns of tag's row, newest first, strictly older than
	// before (uuid.Nil: from the newest) in the row's order. The row is ordered by the time of
	// the TimeUUIDs; columns of one time stay in the store's own fixed order (TimeUUIDType's is
	// model.CompareTimeUUID; CQL's timeuuid order may differ), so paging past one reaches the
	// other. An unknown tag is an empty row, not an error.
	SliceTagged(ctx context.Context, tag string, before uuid.UUID, limit int) ([]model.TagRef, error)
	// SliceTaggedBetween is SliceTagged bounded in time at both ends: the columns of tag's row
	// whose TimeUUID falls in the microseconds from oldest to newest, both included, newest
	// first, strictly older than before (uuid.Nil: from newest on), at most limit. It is one
	// slice however many entries the row holds outside the range: on the 0.6 model a get_slice
	// from the largest TimeUUID of newest to the smallest of oldest, reversed (a TimeUUIDType
	// name carries its time); on CQL3 a clustering range between maxTimeuuid and minTimeuuid.
	// newest before oldest is an empty slice; an unknown tag is an empty row.
	SliceTaggedBetween(ctx context.Context, tag string, oldest, newest time.Time, before uuid.UUID, limit int) ([]model.TagRef, error)
	// RemoveTagged deletes the column id from the row of every tag given (no scan: the entry
	// row names its tags and its ID). Absent columns are ignored.
	RemoveTagged(ctx context.Context, id uuid.UUID, tags ...string) error
}

// CommentStore keeps the comments of every entry, one row per slug.
type CommentStore interface {
	// AddComment stores c in the row of c.Slug under c.ID; two comments of one microsecond have
	// different IDs and are both kept. Writing the same ID again replaces it.
	AddComment(ctx context.Context, c model.Comment) error
	// SliceComments returns at most limit comments of slug, oldest first, strictly newer than
	// after (uuid.Nil: from the oldest) in the row's order, which is SliceTagged's reversed. An
	// unknown slug has none, not an error.
	SliceComments(ctx context.Context, slug string, after uuid.UUID, limit int) ([]model.Comment, error)
	// DeleteComments deletes the whole row of slug. An empty row is not an error.
	DeleteComments(ctx context.Context, slug string) error
}
