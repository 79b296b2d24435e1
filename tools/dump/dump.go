// Package dump prints stores whole: a widerow keyspace or column family in the seed articles'
// notation or as JSON lines (one row a line), and any backend's Twissandra and blog data through
// the ports' scanners as JSON lines (one record a line), sorted so that two stores holding the
// same data print the same bytes.
package dump

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/google/uuid"

	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/domain/blog/model"
	"twissandra/internal/notation"
	"twissandra/ports"
	"twissandra/ports/scan"
)

// Formats of a dump.
const (
	Notation = "notation"
	JSONL    = "jsonl"
)

// WiderowOptions select what Widerow prints.
type WiderowOptions struct {
	Keyspace string // "" = every keyspace
	CF       string // "" = every column family of the keyspace(s)
	Format   string // Notation or JSONL
	// Timestamps adds each column's write timestamp (a comment in the notation, a field in
	// JSONL). Off by default: timestamps say when a row was written, so two copies of the same
	// data would differ.
	Timestamps bool
	// Ghosts prints rows that hold only tombstones (range ghosts) as empty rows.
	Ghosts   bool
	PageSize int // rows per get_range_slices; 0 = 500
	// ShowSecrets prints password hashes and emails as they are stored; by default they show as
	// what they are ("<bcrypt hash, 60 bytes>", "<email, hidden>").
	ShowSecrets bool
}

// Widerow prints column families of node, paging each with get_range_slices in token order.
func Widerow(ctx context.Context, w io.Writer, node *engine.Node, o WiderowOptions) error {
	if o.Format == "" {
		o.Format = Notation
	}
	if o.Format != Notation && o.Format != JSONL {
		return fmt.Errorf("format %q: want %s or %s", o.Format, Notation, JSONL)
	}
	if o.PageSize <= 0 {
		o.PageSize = 500
	}
	schema := node.Schema()
	var keyspaces []engine.KeyspaceDef
	if o.Keyspace == "" {
		if o.CF != "" {
			return errors.New("a column family needs its keyspace (--keyspace)")
		}
		keyspaces = schema.Keyspaces
	} else {
		ks, ok := schema.Keyspace(o.Keyspace)
		if !ok {
			return fmt.Errorf("unknown keyspace %q", o.Keyspace)
		}
		keyspaces = []engine.KeyspaceDef{*ks}
	}
	bw := bufio.NewWriter(w)
	for _, ks := range keyspaces {
		cfs := ks.ColumnFamilies
		if o.CF != "" {
			cf, ok := ks.ColumnFamily(o.CF)
			if !ok {
				return fmt.Errorf("unknown column family %q in keyspace %s", o.CF, ks.Name)
			}
			cfs = []engine.ColumnFamilyDef{*cf}
		}
		for i := range cfs {
			if err := dumpCF(ctx, bw, node, ks.Name, &cfs[i], o); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

func dumpCF(ctx context.Context, w *bufio.Writer, node *engine.Node, keyspace string, cf *engine.ColumnFamilyDef, o WiderowOptions) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if o.Format == Notation {
		fmt.Fprintf(w, "// keyspace %s, %s column family, CompareWith %s", keyspace, cf.ColumnType(), cf.CompareWith)
		if cf.Super {
			fmt.Fprintf(w, ", CompareSubcolumnsWith %s", cf.CompareSubcolumnsWith)
		}
		fmt.Fprintf(w, "\n%s : {", cf.Name)
	}
	first := true
	after := ""
	for {
		kr := engine.KeyRange{StartKey: after, Count: int32(o.PageSize + 1)}
		rows, err := node.GetRangeSlices(ctx, keyspace, engine.ColumnParent{ColumnFamily: cf.Name},
			engine.SlicePredicate{SliceRange: &engine.SliceRange{Count: 1 << 30}}, kr, engine.ONE)
		if err != nil {
			return fmt.Errorf("%s.%s: %w", keyspace, cf.Name, err)
		}
		// StartKey is inclusive: the row at after was printed with the previous page.
		if after != "" && len(rows) > 0 && rows[0].Key == after {
			rows = rows[1:]
		}
		page := make([]notation.Row, 0, len(rows))
		for _, r := range rows {
			if len(r.Columns) > 0 || o.Ghosts {
				cols := r.Columns
				if !o.ShowSecrets {
					cols = notation.Redact(cols)
				}
				page = append(page, notation.Row{Key: r.Key, Columns: cols})
			}
		}
		if o.Format == Notation {
			if first && len(page) > 0 {
				w.WriteString("\n")
			}
			if err := (notation.Style{Timestamps: o.Timestamps}).WriteRows(w, cf, page, first); err != nil {
				return err
			}
			first = first && len(page) == 0
		} else {
			for _, r := range page {
				if err := enc.Encode(notation.ToJSON(keyspace, cf, r, o.Timestamps)); err != nil {
					return err
				}
			}
		}
		if len(rows) < o.PageSize {
			break
		}
		after = rows[len(rows)-1].Key
	}
	if o.Format == Notation {
		if !first {
			w.WriteString("\n")
		}
		w.WriteString("}\n\n")
	}
	return nil
}

// Record kinds of a ports dump.
const (
	KindUser    = "user"
	KindFollow  = "follow"
	KindTweet   = "tweet"
	KindLine    = "line"
	KindAuthor  = "author"
	KindEntry   = "entry"
	KindTagged  = "tagged"
	KindComment = "comment"
)

// Record is one JSON line of a ports dump; Kind says which fields are set.
type Record struct {
	Kind     string            `json:"kind"`
	Username string            `json:"username,omitempty"`
	ID       string            `json:"id,omitempty"`
	Password string            `json:"password_hash,omitempty"`
	Created  *time.Time        `json:"created_at,omitempty"`
	Friend   string            `json:"friend,omitempty"`
	Body     string            `json:"body,omitempty"`
	Line     string            `json:"line,omitempty"`
	Time     int64             `json:"time,omitempty"`
	TweetID  string            `json:"tweet_id,omitempty"`
	Name     string            `json:"name,omitempty"`
	Profile  map[string]string `json:"profile,omitempty"`
	Posts    *int64            `json:"posts,omitempty"`
	Slug     string            `json:"slug,omitempty"`
	Title    string            `json:"title,omitempty"`
	Author   string            `json:"author,omitempty"`
	Tags     []string          `json:"tags,omitempty"`
	Tag      string            `json:"tag,omitempty"`
	Email    string            `json:"email,omitempty"`
	Text     string            `json:"text,omitempty"`
}

// Page sizes of the ports walks.
const (
	scanPage   = 1000
	linePage   = 1000
	followPage = domain.MaxFollowPage
)

// AllUsers scans every user, sorted by username.
func AllUsers(ctx context.Context, s ports.UserReader) ([]domain.User, error) {
	sc, ok := s.(scan.Users)
	if !ok {
		return nil, fmt.Errorf("the user store %T cannot enumerate its users (no scan.Users)", s)
	}
	out, err := scanAll(ctx, sc.ScanUsers)
	slices.SortFunc(out, func(a, b domain.User) int { return cmp.Compare(a.Username, b.Username) })
	return out, err
}

// AllTweets scans every tweet, sorted by time, then ID.
func AllTweets(ctx context.Context, s ports.TweetReader) ([]domain.Tweet, error) {
	sc, ok := s.(scan.Tweets)
	if !ok {
		return nil, fmt.Errorf("the tweet store %T cannot enumerate its tweets (no scan.Tweets)", s)
	}
	out, err := scanAll(ctx, sc.ScanTweets)
	slices.SortFunc(out, func(a, b domain.Tweet) int {
		return cmp.Or(a.CreatedAt.Compare(b.CreatedAt), cmp.Compare(a.ID.String(), b.ID.String()))
	})
	return out, err
}

// AllAuthors scans every author, sorted by name.
func AllAuthors(ctx context.Context, s ports.AuthorStore) ([]model.Author, error) {
	sc, ok := s.(scan.Authors)
	if !ok {
		return nil, fmt.Errorf("the author store %T cannot enumerate its authors (no scan.Authors)", s)
	}
	out, err := scanAll(ctx, sc.ScanAuthors)
	slices.SortFunc(out, func(a, b model.Author) int { return cmp.Compare(a.Name, b.Name) })
	return out, err
}

// AllEntries scans every entry, sorted by slug.
func AllEntries(ctx context.Context, s ports.EntryStore) ([]model.Entry, error) {
	sc, ok := s.(scan.Entries)
	if !ok {
		return nil, fmt.Errorf("the entry store %T cannot enumerate its entries (no scan.Entries)", s)
	}
	out, err := scanAll(ctx, sc.ScanEntries)
	slices.SortFunc(out, func(a, b model.Entry) int { return cmp.Compare(a.Slug, b.Slug) })
	return out, err
}

func scanAll[T any](ctx context.Context, page func(ctx context.Context, after string, limit int) ([]T, string, error)) ([]T, error) {
	var out []T
	after := ""
	for {
		got, next, err := page(ctx, after, scanPage)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
		if next == "" {
			return out, nil
		}
		after = next
	}
}

// AllFollows returns every friend of username, in the store's order.
func AllFollows(ctx context.Context, s ports.FollowReader, username string) ([]domain.Follow, error) {
	var out []domain.Follow
	after := ""
	for {
		page, err := s.Friends(ctx, username, after, followPage)
		if err != nil {
			return nil, err
		}
		out = append(out, page...)
		if len(page) < followPage {
			return out, nil
		}
		after = page[len(page)-1].Cursor
	}
}

// EachLinePage calls fn with the pages of line, newest first.
func EachLinePage(ctx context.Context, s ports.LineReader, line domain.LineKey, fn func([]domain.LineEntry) error) error {
	before := int64(0)
	for {
		page, err := s.Slice(ctx, line, before, linePage)
		if err != nil {
			return err
		}
		if len(page) > 0 {
			if err := fn(page); err != nil {
				return err
			}
		}
		if len(page) < linePage {
			return nil
		}
		before = page[len(page)-1].Time
	}
}

// AllTagRefs returns the whole TaggedPosts row of tag, newest first.
func AllTagRefs(ctx context.Context, s ports.TagIndex, tag string) ([]model.TagRef, error) {
	var out []model.TagRef
	before := uuid.Nil
	for {
		page, err := s.SliceTagged(ctx, tag, before, linePage)
		if err != nil {
			return nil, err
		}
		out = append(out, page...)
		if len(page) < linePage {
			return out, nil
		}
		before = page[len(page)-1].ID
	}
}

// AllComments returns every comment of slug, oldest first.
func AllComments(ctx context.Context, s ports.CommentStore, slug string) ([]model.Comment, error) {
	var out []model.Comment
	after := uuid.Nil
	for {
		page, err := s.SliceComments(ctx, slug, after, linePage)
		if err != nil {
			return nil, err
		}
		out = append(out, page...)
		if len(page) < linePage {
			return out, nil
		}
		after = page[len(page)-1].ID
	}
}

// Tags lists the TaggedPosts rows the entries are in: NoTag, then every tag, sorted.
func Tags(entries []model.Entry) []string {
	seen := map[string]bool{}
	for _, e := range entries {
		for _, t := range e.Tags {
			seen[t] = true
		}
	}
	out := make([]string, 0, len(seen)+1)
	for t := range seen {
		out = append(out, t)
	}
	slices.Sort(out)
	return append([]string{model.NoTag}, out...)
}

// PortsOptions says what Ports prints.
type PortsOptions struct {
	// ShowSecrets prints password hashes and commenters' emails as stored; by default they show
	// as what they are (domain.RedactColumn), so a dump can be shared.
	ShowSecrets bool
}

// Ports prints every record of the stores as JSON lines: users, their follows, tweets, every
// line (each user's userline and timeline, then the public line), authors, entries, the tag
// rows and the comments; every list sorted, so equal data prints equal bytes whatever the
// backend. Times are UTC.
func Ports(ctx context.Context, w io.Writer, s ports.Stores, o PortsOptions) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	emit := func(r Record) error {
		if !o.ShowSecrets {
			if r.Password != "" {
				r.Password, _ = domain.RedactColumn(domain.PasswordColumn, []byte(r.Password))
			}
			if r.Email != "" {
				r.Email, _ = domain.RedactColumn(domain.EmailColumn, []byte(r.Email))
			}
		}
		return enc.Encode(r)
	}
	users, err := AllUsers(ctx, s.Users)
	if err != nil {
		return err
	}
	for _, u := range users {
		c := u.CreatedAt.UTC()
		if err := emit(Record{Kind: KindUser, Username: u.Username, ID: u.ID.String(), Password: string(u.PasswordHash), Created: &c}); err != nil {
			return err
		}
	}
	for _, u := range users {
		follows, err := AllFollows(ctx, s.Users, u.Username)
		if err != nil {
			return err
		}
		slices.SortFunc(follows, func(a, b domain.Follow) int { return cmp.Compare(a.Username, b.Username) })
		for _, f := range follows {
			c := f.Since.UTC()
			if err := emit(Record{Kind: KindFollow, Username: u.Username, Friend: f.Username, Created: &c}); err != nil {
				return err
			}
		}
	}
	tweets, err := AllTweets(ctx, s.Tweets)
	if err != nil {
		return err
	}
	for _, t := range tweets {
		c := t.CreatedAt.UTC()
		if err := emit(Record{Kind: KindTweet, ID: t.ID.String(), Username: t.Username, Body: t.Body, Created: &c}); err != nil {
			return err
		}
	}
	lines := make([]domain.LineKey, 0, 2*len(users)+1)
	for _, u := range users {
		lines = append(lines, domain.UserlineOf(u.Username), domain.TimelineOf(u.Username))
	}
	lines = append(lines, domain.PublicLine())
	for _, l := range lines {
		err := EachLinePage(ctx, s.Lines, l, func(page []domain.LineEntry) error {
			for _, e := range page {
				if err := emit(Record{Kind: KindLine, Line: l.String(), Time: e.Time, TweetID: e.TweetID.String()}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if err := blogRecords(ctx, s, emit); err != nil {
		return err
	}
	return bw.Flush()
}

func blogRecords(ctx context.Context, s ports.Stores, emit func(Record) error) error {
	if s.Authors == nil {
		return nil
	}
	authors, err := AllAuthors(ctx, s.Authors)
	if err != nil {
		return err
	}
	for _, a := range authors {
		posts := a.Posts
		if err := emit(Record{Kind: KindAuthor, Name: a.Name, Profile: a.Profile, Posts: &posts}); err != nil {
			return err
		}
	}
	entries, err := AllEntries(ctx, s.Entries)
	if err != nil {
		return err
	}
	for _, e := range entries {
		c := e.PublishedAt.UTC()
		if err := emit(Record{Kind: KindEntry, Slug: e.Slug, ID: e.ID.String(), Title: e.Title, Body: e.Body, Author: e.Author, Tags: e.Tags, Created: &c}); err != nil {
			return err
		}
	}
	for _, tag := range Tags(entries) {
		refs, err := AllTagRefs(ctx, s.Tags, tag)
		if err != nil {
			return err
		}
		for _, r := range refs {
			if err := emit(Record{Kind: KindTagged, Tag: tag, ID: r.ID.String(), Slug: r.Slug}); err != nil {
				return err
			}
		}
	}
	for _, e := range entries {
		comments, err := AllComments(ctx, s.Comments, e.Slug)
		if err != nil {
			return err
		}
		for _, c := range comments {
			tm := c.Time.UTC()
			if err := emit(Record{Kind: KindComment, Slug: c.Slug, ID: c.ID.String(), Name: c.Name, Email: c.Email, Text: c.Text, Created: &tm}); err != nil {
				return err
			}
		}
	}
	return nil
}

// AllLine returns every entry of line, newest first.
func AllLine(ctx context.Context, s ports.LineReader, line domain.LineKey) ([]domain.LineEntry, error) {
	var out []domain.LineEntry
	err := EachLinePage(ctx, s, line, func(page []domain.LineEntry) error {
		out = append(out, page...)
		return nil
	})
	return out, err
}
