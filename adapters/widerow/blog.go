package widerow

import (
	"context"
	"fmt"
	"hash/maphash"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/domain/blog/model"
)

// The blog of seed 004 ("WTF is a SuperColumn") lives in keyspace BloggyAppy, laid out as the
// article lays it out:
//
//	Authors      BytesType              [author name]      one column per profile attribute,
//	                                                       numPosts (decimal)
//	BlogEntries  BytesType              [slug]             title, body, author, tags (comma-
//	                                                       separated), pubDate (unix seconds),
//	                                                       slug, id (the entry's TimeUUID)
//	TaggedPosts  TimeUUIDType           [tag, __notag__]   entry TimeUUID -> slug
//	Comments     Super, TimeUUIDType /  [slug]             comment TimeUUID -> {commenter, email,
//	             BytesType                                 comment, commentTime (unix seconds)}
//
// The id column is the one addition: the entry's name in every TaggedPosts row, which makes a
// delete exact. pubDate and commentTime are the article's unix seconds; the exact microsecond is
// the TimeUUID's.
const (
	KeyspaceBloggyAppy = "BloggyAppy"
	cfAuthors          = "Authors"
	cfBlogEntries      = "BlogEntries"
	cfTaggedPosts      = "TaggedPosts"
	cfComments         = "Comments"

	colNumPosts    = "numPosts"
	colID          = "id"
	colTitle       = "title"
	colBody        = "body"
	colAuthor      = "author"
	colTags        = "tags"
	colPubDate     = "pubDate"
	colSlug        = "slug"
	subCommenter   = "commenter"
	subEmail       = "email"
	subComment     = "comment"
	subCommentTime = "commentTime"
)

const blogCL = engine.QUORUM

// blogRowMax bounds the reads of rows that are small by construction (an author's profile of at
// most 20 attributes, an entry's seven columns).
const blogRowMax = 1000

// blogLockStripes is the number of striped locks of a BlogStore.
const blogLockStripes = 64

// BlogStore implements the blog's ports (ports.AuthorStore, ports.EntryStore, ports.TagIndex and
// ports.CommentStore) on a Node.
//
// Three operations read, then write: replacing a profile (its stale attributes are deleted by
// name), adjusting numPosts, and deleting an entry only if it is still the one of that ID.
// Cassandra 0.6 could not make them atomic; here a Node belongs to one process (its directory is
// locked), so a striped lock of the BlogStore serialises them per row. Use one BlogStore per
// Node. Creating an entry uses the engine's InsertIfAbsent on the row's id column instead.
type BlogStore struct {
	node  *engine.Node
	stamp *domain.Stamper
	seed  maphash.Seed
	locks [blogLockStripes]sync.Mutex
}

// NewBlogStore runs the blog on node.
func NewBlogStore(node *engine.Node) *BlogStore {
	return &BlogStore{node: node, stamp: domain.NewStamper(domain.SystemClock{}), seed: maphash.MakeSeed()}
}

// ts returns a write timestamp: microseconds, strictly increasing, so a write after a delete in
// this process (a slug published again) is never hidden by a tombstone of the same microsecond.
func (s *BlogStore) ts() int64 { return s.stamp.Next() }

func (s *BlogStore) lock(cf, key string) func() {
	var h maphash.Hash
	h.SetSeed(s.seed)
	h.WriteString(cf)
	h.WriteByte(0)
	h.WriteString(key)
	m := &s.locks[h.Sum64()%blogLockStripes]
	m.Lock()
	return m.Unlock
}

func blogColumn(name string, value []byte, ts int64) engine.Column {
	return engine.Column{Name: []byte(name), Value: value, Timestamp: ts}
}

func blogInsert(c engine.Column) engine.Mutation {
	return engine.Mutation{ColumnOrSuperColumn: &engine.ColumnOrSuperColumn{Column: &c}}
}

func blogDelete(ts int64, names ...[]byte) engine.Mutation {
	return engine.Mutation{Deletion: &engine.Deletion{Timestamp: ts, Predicate: &engine.SlicePredicate{ColumnNames: names}}}
}

func blogWholeRow() engine.SlicePredicate {
	return engine.SlicePredicate{SliceRange: &engine.SliceRange{Count: blogRowMax}}
}

func count32(n int) int32 { return int32(min(n, math.MaxInt32)) }

func (s *BlogStore) readRow(ctx context.Context, cf, key string) ([]engine.ColumnOrSuperColumn, error) {
	cols, err := s.node.GetSlice(ctx, KeyspaceBloggyAppy, key, engine.ColumnParent{ColumnFamily: cf}, blogWholeRow(), blogCL)
	return cols, wrap("read "+cf+" row", err)
}

// PutAuthor creates numPosts at 0 if the row is new, then deletes the attributes the new profile
// drops and writes the ones it has, in one batch.
func (s *BlogStore) PutAuthor(ctx context.Context, a model.Author) error {
	defer s.lock(cfAuthors, a.Name)()
	parent := engine.ColumnParent{ColumnFamily: cfAuthors}
	applied, existing, err := s.node.InsertIfAbsent(ctx, KeyspaceBloggyAppy, a.Name, parent, blogColumn(colNumPosts, []byte("0"), s.ts()), blogCL)
	if err != nil {
		return wrap("put author", err)
	}
	if !applied && existing == nil {
		return fmt.Errorf("widerow put author %q: numPosts is hidden by a newer tombstone", a.Name)
	}
	row, err := s.readRow(ctx, cfAuthors, a.Name)
	if err != nil {
		return err
	}
	ts := s.ts()
	var muts []engine.Mutation
	var stale [][]byte
	for _, c := range row {
		name := string(c.Column.Name)
		if _, keep := a.Profile[name]; !keep && name != colNumPosts {
			stale = append(stale, c.Column.Name)
		}
	}
	if len(stale) > 0 {
		muts = append(muts, blogDelete(ts, stale...))
	}
	for k, v := range a.Profile {
		muts = append(muts, blogInsert(blogColumn(k, []byte(v), ts)))
	}
	if len(muts) == 0 {
		return nil
	}
	err = s.node.BatchMutate(ctx, KeyspaceBloggyAppy, map[string]map[string][]engine.Mutation{a.Name: {cfAuthors: muts}}, blogCL)
	return wrap("put author", err)
}

func decodeAuthor(name string, cols []engine.ColumnOrSuperColumn) model.Author {
	a := model.Author{Name: name, Profile: make(map[string]string, len(cols))}
	for _, c := range cols {
		if string(c.Column.Name) == colNumPosts {
			a.Posts, _ = strconv.ParseInt(string(c.Column.Value), 10, 64)
			continue
		}
		a.Profile[string(c.Column.Name)] = string(c.Column.Value)
	}
	return a
}

// GetAuthor reads the whole Authors row.
func (s *BlogStore) GetAuthor(ctx context.Context, name string) (model.Author, error) {
	row, err := s.readRow(ctx, cfAuthors, name)
	if err != nil {
		return model.Author{}, err
	}
	if len(row) == 0 {
		return model.Author{}, fmt.Errorf("widerow: author %q: %w", name, domain.ErrNotFound)
	}
	return decodeAuthor(name, row), nil
}

// GetAuthors reads the rows in one multiget.
func (s *BlogStore) GetAuthors(ctx context.Context, names []string) ([]model.Author, error) {
	if len(names) == 0 {
		return nil, nil
	}
	rows, err := s.node.MultigetSlice(ctx, KeyspaceBloggyAppy, names, engine.ColumnParent{ColumnFamily: cfAuthors}, blogWholeRow(), blogCL)
	if err != nil {
		return nil, wrap("multiget authors", err)
	}
	out := make([]model.Author, 0, len(names))
	for _, n := range names {
		if row := rows[n]; len(row) > 0 {
			out = append(out, decodeAuthor(n, row))
		}
	}
	return out, nil
}

// AddPosts rewrites numPosts under the row's lock.
func (s *BlogStore) AddPosts(ctx context.Context, name string, delta int64) error {
	defer s.lock(cfAuthors, name)()
	got, err := s.node.Get(ctx, KeyspaceBloggyAppy, name, engine.ColumnPath{ColumnFamily: cfAuthors, Column: []byte(colNumPosts)}, blogCL)
	if err != nil {
		return wrap(fmt.Sprintf("author %q", name), err)
	}
	n, err := strconv.ParseInt(string(got.Column.Value), 10, 64)
	if err != nil {
		return fmt.Errorf("widerow: author %q: numPosts %q: %w", name, got.Column.Value, err)
	}
	n = max(0, n+delta)
	err = s.node.Insert(ctx, KeyspaceBloggyAppy, name, engine.ColumnPath{ColumnFamily: cfAuthors, Column: []byte(colNumPosts)}, []byte(strconv.FormatInt(n, 10)), s.ts(), blogCL)
	return wrap("count posts", err)
}

// CreateEntry claims the slug with InsertIfAbsent on the id column, then writes the other
// columns in one batch. Until they land the row is not yet an entry (GetEntry wants a title).
func (s *BlogStore) CreateEntry(ctx context.Context, e model.Entry) error {
	parent := engine.ColumnParent{ColumnFamily: cfBlogEntries}
	applied, existing, err := s.node.InsertIfAbsent(ctx, KeyspaceBloggyAppy, e.Slug, parent, blogColumn(colID, e.ID[:], s.ts()), blogCL)
	if err != nil {
		return wrap("create entry", err)
	}
	if !applied {
		if existing != nil {
			return fmt.Errorf("widerow: entry %q: %w", e.Slug, domain.ErrAlreadyExists)
		}
		return fmt.Errorf("widerow create entry %q: the id column is hidden by a newer tombstone", e.Slug)
	}
	ts := s.ts()
	muts := []engine.Mutation{
		blogInsert(blogColumn(colTitle, []byte(e.Title), ts)),
		blogInsert(blogColumn(colBody, []byte(e.Body), ts)),
		blogInsert(blogColumn(colAuthor, []byte(e.Author), ts)),
		blogInsert(blogColumn(colTags, []byte(strings.Join(e.Tags, ",")), ts)),
		blogInsert(blogColumn(colPubDate, []byte(strconv.FormatInt(e.PublishedAt.Unix(), 10)), ts)),
		blogInsert(blogColumn(colSlug, []byte(e.Slug), ts)),
	}
	if err := s.node.BatchMutate(ctx, KeyspaceBloggyAppy, map[string]map[string][]engine.Mutation{e.Slug: {cfBlogEntries: muts}}, blogCL); err != nil {
		// Give the slug back rather than leave a claim no reader sees as an entry.
		_ = s.node.Remove(context.WithoutCancel(ctx), KeyspaceBloggyAppy, e.Slug, engine.ColumnPath{ColumnFamily: cfBlogEntries}, s.ts(), blogCL)
		return wrap("create entry", err)
	}
	return nil
}

// decodeEntry reads a BlogEntries row; a row without a valid id or without a title is not an
// entry (deleted, or still being written).
func decodeEntry(slug string, cols []engine.ColumnOrSuperColumn) (model.Entry, bool) {
	e := model.Entry{Slug: slug}
	var hasID, hasTitle bool
	for _, c := range cols {
		v := c.Column.Value
		switch string(c.Column.Name) {
		case colID:
			id, err := uuid.FromBytes(v)
			if err != nil || !model.IsTimeUUID(id) {
				return model.Entry{}, false
			}
			e.ID, hasID = id, true
		case colTitle:
			e.Title, hasTitle = string(v), true
		case colBody:
			e.Body = string(v)
		case colAuthor:
			e.Author = string(v)
		case colTags:
			if len(v) > 0 {
				e.Tags = strings.Split(string(v), ",")
			}
		}
	}
	if !hasID || !hasTitle {
		return model.Entry{}, false
	}
	e.PublishedAt = domain.TimeFromMicros(domain.TimeUUIDMicros(e.ID))
	return e, true
}

// GetEntry reads the whole BlogEntries row.
func (s *BlogStore) GetEntry(ctx context.Context, slug string) (model.Entry, error) {
	row, err := s.readRow(ctx, cfBlogEntries, slug)
	if err != nil {
		return model.Entry{}, err
	}
	e, ok := decodeEntry(slug, row)
	if !ok {
		return model.Entry{}, fmt.Errorf("widerow: entry %q: %w", slug, domain.ErrNotFound)
	}
	return e, nil
}

// GetEntries reads the rows in one multiget.
func (s *BlogStore) GetEntries(ctx context.Context, slugs []string) ([]model.Entry, error) {
	if len(slugs) == 0 {
		return nil, nil
	}
	rows, err := s.node.MultigetSlice(ctx, KeyspaceBloggyAppy, slugs, engine.ColumnParent{ColumnFamily: cfBlogEntries}, blogWholeRow(), blogCL)
	if err != nil {
		return nil, wrap("multiget entries", err)
	}
	out := make([]model.Entry, 0, len(slugs))
	for _, slug := range slugs {
		if e, ok := decodeEntry(slug, rows[slug]); ok {
			out = append(out, e)
		}
	}
	return out, nil
}

// DeleteEntry removes the row if its id column is id, under the row's lock.
func (s *BlogStore) DeleteEntry(ctx context.Context, slug string, id uuid.UUID) error {
	defer s.lock(cfBlogEntries, slug)()
	got, err := s.node.Get(ctx, KeyspaceBloggyAppy, slug, engine.ColumnPath{ColumnFamily: cfBlogEntries, Column: []byte(colID)}, blogCL)
	if err != nil {
		return wrap(fmt.Sprintf("entry %q", slug), err)
	}
	if string(got.Column.Value) != string(id[:]) {
		return fmt.Errorf("widerow: entry %q of ID %s: %w", slug, id, domain.ErrNotFound)
	}
	err = s.node.Remove(ctx, KeyspaceBloggyAppy, slug, engine.ColumnPath{ColumnFamily: cfBlogEntries}, s.ts(), blogCL)
	return wrap("delete entry", err)
}

// AddTagged writes the column into every tag row in one batch.
func (s *BlogStore) AddTagged(ctx context.Context, id uuid.UUID, slug string, tags ...string) error {
	if len(tags) == 0 {
		return nil
	}
	ts := s.ts()
	rows := make(map[string]map[string][]engine.Mutation, len(tags))
	for _, tag := range tags {
		rows[tag] = map[string][]engine.Mutation{cfTaggedPosts: {blogInsert(engine.Column{Name: id[:], Value: []byte(slug), Timestamp: ts})}}
	}
	return wrap("index entry", s.node.BatchMutate(ctx, KeyspaceBloggyAppy, rows, blogCL))
}

// SliceTagged reads the tag row backwards from before. A SliceRange's start is inclusive, so it
// asks for one more column and drops before itself.
func (s *BlogStore) SliceTagged(ctx context.Context, tag string, before uuid.UUID, limit int) ([]model.TagRef, error) {
	if limit <= 0 {
		return nil, nil
	}
	r := &engine.SliceRange{Reversed: true, Count: count32(limit)}
	if before != uuid.Nil {
		r.Start, r.Count = before[:], count32(limit+1)
	}
	cols, err := s.node.GetSlice(ctx, KeyspaceBloggyAppy, tag, engine.ColumnParent{ColumnFamily: cfTaggedPosts}, engine.SlicePredicate{SliceRange: r}, blogCL)
	if err != nil {
		return nil, wrap("slice tag", err)
	}
	return tagRefs(tag, cols, before, limit)
}

// SliceTaggedBetween reads the tag row backwards from the largest TimeUUID of newest (or from
// before, when it is older) to the smallest of oldest: one get_slice with both ends set, so the
// columns outside the range are never read. Under 0.6's TimeUUIDType a name orders by its time,
// then by its last eight bytes unsigned (domain.TieUnsigned), so the bounds of a microsecond are
// its first tick with those bytes all 0x00 and its last tick with them all 0xff.
func (s *BlogStore) SliceTaggedBetween(ctx context.Context, tag string, oldest, newest time.Time, before uuid.UUID, limit int) ([]model.TagRef, error) {
	if limit <= 0 || newest.Before(oldest) {
		return nil, nil
	}
	start, finish := domain.TieUnsigned.MaxTimeUUID(newest.UnixMicro()), domain.TieUnsigned.MinTimeUUID(oldest.UnixMicro())
	r := &engine.SliceRange{Start: start[:], Finish: finish[:], Reversed: true, Count: count32(limit)}
	if before != uuid.Nil {
		if model.CompareTimeUUID(before, finish) <= 0 {
			return nil, nil
		}
		if model.CompareTimeUUID(before, start) <= 0 {
			r.Start, r.Count = before[:], count32(limit+1)
		}
	}
	cols, err := s.node.GetSlice(ctx, KeyspaceBloggyAppy, tag, engine.ColumnParent{ColumnFamily: cfTaggedPosts}, engine.SlicePredicate{SliceRange: r}, blogCL)
	if err != nil {
		return nil, wrap("slice tag", err)
	}
	return tagRefs(tag, cols, before, limit)
}

// tagRefs reads a slice of a TaggedPosts row, leaving out the column before (a slice's start is
// inclusive) and any past limit.
func tagRefs(tag string, cols []engine.ColumnOrSuperColumn, before uuid.UUID, limit int) ([]model.TagRef, error) {
	out := make([]model.TagRef, 0, min(limit, len(cols)))
	for _, c := range cols {
		id, err := uuid.FromBytes(c.Column.Name)
		if err != nil {
			return nil, fmt.Errorf("widerow: TaggedPosts[%q]: %w", tag, err)
		}
		if id == before || len(out) == limit {
			continue
		}
		out = append(out, model.TagRef{ID: id, Slug: string(c.Column.Value)})
	}
	return out, nil
}

// RemoveTagged deletes the column from every tag row in one batch.
func (s *BlogStore) RemoveTagged(ctx context.Context, id uuid.UUID, tags ...string) error {
	if len(tags) == 0 {
		return nil
	}
	ts := s.ts()
	rows := make(map[string]map[string][]engine.Mutation, len(tags))
	for _, tag := range tags {
		rows[tag] = map[string][]engine.Mutation{cfTaggedPosts: {blogDelete(ts, id[:])}}
	}
	return wrap("unindex entry", s.node.BatchMutate(ctx, KeyspaceBloggyAppy, rows, blogCL))
}

// AddComment writes the comment's super column as seed 004 lays one out: its four subcolumns,
// commenter, email, comment and commentTime (email empty when the commenter gave none). Writing
// every subcolumn is what makes a second write of the same ID replace the first, as the
// contract asks, with no deletion before it: each subcolumn of the old one is overwritten.
func (s *BlogStore) AddComment(ctx context.Context, c model.Comment) error {
	ts := s.ts()
	subs := []engine.Column{
		blogColumn(subCommenter, []byte(c.Name), ts),
		blogColumn(subEmail, []byte(c.Email), ts),
		blogColumn(subComment, []byte(c.Text), ts),
		blogColumn(subCommentTime, []byte(strconv.FormatInt(c.Time.Unix(), 10)), ts),
	}
	muts := []engine.Mutation{{ColumnOrSuperColumn: &engine.ColumnOrSuperColumn{SuperColumn: &engine.SuperColumn{Name: c.ID[:], Columns: subs}}}}
	err := s.node.BatchMutate(ctx, KeyspaceBloggyAppy, map[string]map[string][]engine.Mutation{c.Slug: {cfComments: muts}}, blogCL)
	return wrap("add comment", err)
}

// SliceComments reads the entry's Comments row forwards from after (inclusive, so one more
// super column is asked for and after itself dropped).
func (s *BlogStore) SliceComments(ctx context.Context, slug string, after uuid.UUID, limit int) ([]model.Comment, error) {
	if limit <= 0 {
		return nil, nil
	}
	r := &engine.SliceRange{Count: count32(limit)}
	if after != uuid.Nil {
		r.Start, r.Count = after[:], count32(limit+1)
	}
	scs, err := s.node.GetSlice(ctx, KeyspaceBloggyAppy, slug, engine.ColumnParent{ColumnFamily: cfComments}, engine.SlicePredicate{SliceRange: r}, blogCL)
	if err != nil {
		return nil, wrap("slice comments", err)
	}
	out := make([]model.Comment, 0, min(limit, len(scs)))
	for _, sc := range scs {
		id, err := uuid.FromBytes(sc.SuperColumn.Name)
		if err != nil {
			return nil, fmt.Errorf("widerow: Comments[%q]: %w", slug, err)
		}
		if id == after || len(out) == limit {
			continue
		}
		c := model.Comment{ID: id, Slug: slug, Time: domain.TimeFromMicros(domain.TimeUUIDMicros(id))}
		for _, sub := range sc.SuperColumn.Columns {
			switch string(sub.Name) {
			case subCommenter:
				c.Name = string(sub.Value)
			case subEmail:
				c.Email = string(sub.Value)
			case subComment:
				c.Text = string(sub.Value)
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// DeleteComments removes the entry's whole Comments row.
func (s *BlogStore) DeleteComments(ctx context.Context, slug string) error {
	err := s.node.Remove(ctx, KeyspaceBloggyAppy, slug, engine.ColumnPath{ColumnFamily: cfComments}, s.ts(), blogCL)
	return wrap("delete comments", err)
}
