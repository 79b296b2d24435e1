package teaching

import (
	"context"

	"github.com/google/uuid"

	"twissandra/domain"
)

// Locator says where records live in a store: every row, column, partition or map entry one
// record occupies, read from the store now. Every adapter implements it; the contract suite
// checks it on each.
type Locator interface {
	// Locate returns the places of each locus in the order asked (a locus may occupy several:
	// a user is a User row and a Username column on the 0.6 model). A place the record should
	// occupy but does not is returned with Present false; an unknown user or entry is not an
	// error, its places are simply absent.
	Locate(ctx context.Context, loci []Locus) ([]Placement, error)
}

// LocusKind names what a Locus points at.
type LocusKind string

// The loci of Twissandra and of the blog.
const (
	LocusUser      LocusKind = "user"       // User: the user's record (and its index)
	LocusTweet     LocusKind = "tweet"      // Tweet: the tweet's record
	LocusLineEntry LocusKind = "line entry" // Line, Time, Tweet: one entry of a line
	LocusFollow    LocusKind = "follow"     // User follows Other: both sides
	LocusAuthor    LocusKind = "author"     // Name: a blog author's profile
	LocusEntry     LocusKind = "entry"      // Slug: a blog entry's record
	LocusTagRef    LocusKind = "tag ref"    // Tag, ID, Slug: an entry's place in a tag's index
	LocusComment   LocusKind = "comment"    // Slug, ID: one comment of an entry
)

// Locus is one record to locate. Role says what it is to the learner ("bob's timeline").
type Locus struct {
	Kind  LocusKind
	Role  string
	User  string // the user (a follow's follower)
	Other string // a follow's followed user
	Line  domain.LineKey
	Time  int64 // a line entry's time, microseconds
	Tweet uuid.UUID
	Name  string // a blog author's name
	Slug  string // a blog entry's slug
	Tag   string // a tag ("" for the __notag__ row of every entry)
	ID    uuid.UUID
}

// Placement is one place a record occupies in one model.
type Placement struct {
	Locus Locus
	// Part says which part of the record the place holds when the record occupies several in
	// one model, in the learner's words: "the Username index (the name → the user's UUID)",
	// "ann's side: whom ann follows". Two placements of one locus in one model never share a
	// Part; "" for a record's only place.
	Part string
	// Model names the store's model: "widerow", "cql3" or "memory".
	Model string
	// Container is the column family ("Twissandra.Timeline"), table ("twissandra.timeline") or
	// map that holds the place.
	Container string
	// Key is the row key or partition key, as text.
	Key string
	// Token is the partitioner's token of Key, in decimal: RandomPartitioner's MD5 on widerow,
	// Murmur3's on cql3; "" where the model has no partitioner (memory) or the key's type is
	// not one the adapter hashes.
	Token string
	// Address is the place in the model's own notation, e.g.
	// Twissandra.Timeline['<uuid>'][1273651200000000] or
	// timeline WHERE username = 'bob' AND time = 1273651200000000.
	Address string
	// Cells are what is stored there, in the model's order: columns of a row, or the cells
	// of a CQL row with its key columns marked.
	Cells []Cell
	// Present reports whether the place holds the record now.
	Present bool
	// Table describes the CQL table of a cql3 placement (nil on the other models), so that a
	// page can show the row as CQL and as the composite cells of Cassandra 1.2 to 2.2.
	Table *CQLTable
	// Inspect is the query of the storage inspector that shows the row or partition
	// ("cf_path=Twissandra.Timeline&key=..." or "table=timeline&k.username=bob"), "" for none.
	Inspect string
}

// Cell is one stored column or cell: its name, its value as text (secrets already hidden), and
// its write timestamp in microseconds (0 when the model keeps none).
type Cell struct {
	Name      string
	Value     string
	Timestamp int64
	// TTL is the seconds a cell has left to live (0: none; 0.6 had no TTL).
	TTL int
	// Key marks a CQL key column: "K" for the partition key, "C↑" or "C↓" for a clustering
	// column in ascending or descending order, "S" for a static column.
	Key string
	// Super is the name of the super column that holds the cell, a subcolumn (widerow's
	// Comments); "" for a column of a standard column family.
	Super string
}

// FriendSide and FollowerSide are the Parts of a follow's two places (a LocusFollow): the
// follower's side, whom the follower follows, and the followed user's, who follows them.
func FriendSide(l Locus) string { return l.User + "'s side: whom " + l.User + " follows" }

// FollowerSide is the followed user's side of a follow (see FriendSide).
func FollowerSide(l Locus) string { return l.Other + "'s side: who follows " + l.Other }
