// Package blog runs the use cases of the blog from "WTF is a SuperColumn": authors with free-form
// profiles, entries by slug with tags, listings of all entries or of one tag newest first (the
// TaggedPosts rows, with the __notag__ row for "all"), comments oldest first, and a delete that
// removes an entry from every tag row exactly, with no scan.
//
// Authorisation (who may publish or delete as which author) belongs to the web layer; the use
// cases take the author's name as given.
package blog

import (
	"context"
	"errors"
	"fmt"
	"time"

	"twissandra/domain"
	"twissandra/domain/blog/model"
	"twissandra/ports"
)

// The records, re-exported so callers need only this package.
type (
	Author  = model.Author
	Entry   = model.Entry
	Comment = model.Comment
)

// NoTag is the tag row that holds every entry.
const NoTag = model.NoTag

// Service runs the blog's use cases over its four stores.
type Service struct {
	authors  ports.AuthorStore
	entries  ports.EntryStore
	tags     ports.TagIndex
	comments ports.CommentStore
	stamper  *domain.Stamper
}

// New wires a Service. clock may be nil (the wall clock). Times come from a domain.Stamper, so
// two entries or comments made in the same microsecond still get distinct, ordered times.
func New(authors ports.AuthorStore, entries ports.EntryStore, tags ports.TagIndex, comments ports.CommentStore, clock domain.Clock) *Service {
	if clock == nil {
		clock = domain.SystemClock{}
	}
	return &Service{authors: authors, entries: entries, tags: tags, comments: comments, stamper: domain.NewStamper(clock)}
}

// PutAuthor creates the author or replaces the author's whole profile; the post count is kept.
// A nil profile is an empty one.
func (s *Service) PutAuthor(ctx context.Context, name string, profile map[string]string) (Author, error) {
	if err := model.ValidateAuthorName(name); err != nil {
		return Author{}, err
	}
	if err := model.ValidateProfile(profile); err != nil {
		return Author{}, err
	}
	p := make(map[string]string, len(profile))
	for k, v := range profile {
		p[k] = v
	}
	if err := s.authors.PutAuthor(ctx, Author{Name: name, Profile: p}); err != nil {
		return Author{}, err
	}
	return s.authors.GetAuthor(ctx, name)
}

// GetAuthor returns one author.
func (s *Service) GetAuthor(ctx context.Context, name string) (Author, error) {
	if err := model.ValidateAuthorName(name); err != nil {
		return Author{}, err
	}
	return s.authors.GetAuthor(ctx, name)
}

// Draft is an entry to publish.
type Draft struct {
	Slug   string
	Title  string
	Body   string
	Author string
	Tags   []string
	// PublishedAt backdates the entry (an import, the article's fixture); zero means now. It
	// may not be before 1970.
	PublishedAt time.Time
	// NewAuthor makes the author's empty profile if there is none (a user's first entry),
	// once the slug is claimed: a refused publish writes nothing. Without it the author must
	// exist (domain.ErrNotFound).
	NewAuthor bool
}

// Publish stores a new entry, indexes it under each of its tags and under NoTag, and counts it
// in its author's posts. The author must exist (domain.ErrNotFound otherwise; create it with
// PutAuthor first) unless d.NewAuthor; a taken slug is domain.ErrAlreadyExists, decided by the
// store atomically. A refused publish writes nothing: every check and the slug's claim come
// before the first write.
//
// The entry row is written first, so the index never names an entry that was refused. If the
// index cannot be written, the entry is deleted again and the publish fails, so it can be
// retried. Should the process stop half way, the entry exists but is missing from some
// listings; deleting it and publishing again repairs that.
func (s *Service) Publish(ctx context.Context, d Draft) (Entry, error) {
	e, err := s.checkDraft(d)
	if err != nil {
		return Entry{}, err
	}
	if !d.NewAuthor {
		if _, err := s.authors.GetAuthor(ctx, e.Author); err != nil {
			return Entry{}, err
		}
	}
	if err := s.entries.CreateEntry(ctx, e); err != nil {
		return Entry{}, err
	}
	if d.NewAuthor {
		if err := s.ensureAuthor(ctx, e.Author); err != nil {
			_ = s.entries.DeleteEntry(context.WithoutCancel(ctx), e.Slug, e.ID)
			return Entry{}, err
		}
	}
	tags := append([]string{NoTag}, e.Tags...)
	if err := s.tags.AddTagged(ctx, e.ID, e.Slug, tags...); err != nil {
		// Undo what can be undone, so that publishing again can succeed; the entry's own ID
		// makes both deletes exact even if the slug is taken again meanwhile.
		undo := context.WithoutCancel(ctx)
		_ = s.tags.RemoveTagged(undo, e.ID, tags...)
		_ = s.entries.DeleteEntry(undo, e.Slug, e.ID)
		return Entry{}, fmt.Errorf("index entry %q: %w", e.Slug, err)
	}
	if err := s.authors.AddPosts(ctx, e.Author, 1); err != nil {
		return Entry{}, fmt.Errorf("count entry %q: %w", e.Slug, err)
	}
	return e, nil
}

// ensureAuthor makes name's empty profile unless it exists.
func (s *Service) ensureAuthor(ctx context.Context, name string) error {
	_, err := s.authors.GetAuthor(ctx, name)
	if errors.Is(err, domain.ErrNotFound) {
		err = s.authors.PutAuthor(ctx, Author{Name: name, Profile: map[string]string{}})
	}
	return err
}

func (s *Service) checkDraft(d Draft) (Entry, error) {
	if err := model.ValidateSlug(d.Slug); err != nil {
		return Entry{}, err
	}
	title, err := model.NormalizeTitle(d.Title)
	if err != nil {
		return Entry{}, err
	}
	body, err := model.NormalizeBody(d.Body)
	if err != nil {
		return Entry{}, err
	}
	if err := model.ValidateAuthorName(d.Author); err != nil {
		return Entry{}, err
	}
	tags, err := model.NormalizeTags(d.Tags)
	if err != nil {
		return Entry{}, err
	}
	micros, err := s.when("published_at", d.PublishedAt)
	if err != nil {
		return Entry{}, err
	}
	return Entry{
		Slug: d.Slug, ID: domain.NewTimeUUID(micros), Title: title, Body: body, Author: d.Author,
		Tags: tags, PublishedAt: domain.TimeFromMicros(micros),
	}, nil
}

// when returns the microsecond of a given time, or the stamper's next one for a zero time.
func (s *Service) when(field string, t time.Time) (int64, error) {
	if t.IsZero() {
		return s.stamper.Next(), nil
	}
	if t.Before(time.Unix(0, 0)) {
		return 0, domain.Invalid(field, "must not be before 1970")
	}
	return t.UnixMicro(), nil
}

// EntryView is an entry with its author's profile, as a page shows it.
type EntryView struct {
	Entry
	// AuthorProfile is the author's record; only Name is set if the author is gone.
	AuthorProfile Author
}

// GetEntry returns the entry of slug with its author's profile.
func (s *Service) GetEntry(ctx context.Context, slug string) (EntryView, error) {
	if err := model.ValidateSlug(slug); err != nil {
		return EntryView{}, err
	}
	e, err := s.entries.GetEntry(ctx, slug)
	if err != nil {
		return EntryView{}, err
	}
	a, err := s.authors.GetAuthor(ctx, e.Author)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		a = Author{Name: e.Author, Profile: map[string]string{}}
	case err != nil:
		return EntryView{}, err
	}
	return EntryView{Entry: e, AuthorProfile: a}, nil
}

// EntryPage is one page of a listing.
type EntryPage struct {
	Entries []EntryView
	Next    string // opaque; "" when there is no more
}

// Entries lists the entries of tag newest first; tag "" or NoTag lists them all. start is a Next
// from an earlier page, or "". An unknown tag is an empty page.
//
// As the article's front page does: one slice of the tag row (limit+1 columns, so "next" exists
// only when more does), one multiget of the entries, one multiget of their authors.
func (s *Service) Entries(ctx context.Context, tag, start string, limit int) (EntryPage, error) {
	if tag == "" {
		tag = NoTag
	}
	if tag != NoTag {
		var err error
		if tag, err = model.NormalizeTag(tag); err != nil {
			return EntryPage{}, err
		}
	}
	limit, err := domain.ValidateLimit(limit)
	if err != nil {
		return EntryPage{}, err
	}
	before, err := model.ParseCursor(start)
	if err != nil {
		return EntryPage{}, err
	}
	refs, err := s.tags.SliceTagged(ctx, tag, before, limit+1)
	if err != nil {
		return EntryPage{}, err
	}
	return s.entryPage(ctx, refs, limit)
}

// EntriesBetween lists the entries of tag published from oldest to newest (both included, to
// the microsecond), newest first, as Entries does; start is a Next from an earlier page of the
// same range, or "". It is one slice of the tag row however many entries lie outside the range:
// between the largest TimeUUID of newest and the smallest of oldest (TagIndex.SliceTaggedBetween).
func (s *Service) EntriesBetween(ctx context.Context, tag string, oldest, newest time.Time, start string, limit int) (EntryPage, error) {
	if tag == "" {
		tag = NoTag
	}
	if tag != NoTag {
		var err error
		if tag, err = model.NormalizeTag(tag); err != nil {
			return EntryPage{}, err
		}
	}
	limit, err := domain.ValidateLimit(limit)
	if err != nil {
		return EntryPage{}, err
	}
	before, err := model.ParseCursor(start)
	if err != nil {
		return EntryPage{}, err
	}
	refs, err := s.tags.SliceTaggedBetween(ctx, tag, oldest, newest, before, limit+1)
	if err != nil {
		return EntryPage{}, err
	}
	return s.entryPage(ctx, refs, limit)
}

// entryPage reads the entries of a slice of a tag row (limit+1 columns: "next" exists only when
// more does) and their authors: one multiget of the entries, one of their authors.
func (s *Service) entryPage(ctx context.Context, refs []model.TagRef, limit int) (EntryPage, error) {
	var page EntryPage
	if len(refs) > limit {
		refs = refs[:limit]
		page.Next = model.EncodeCursor(refs[limit-1].ID)
	}
	if len(refs) == 0 {
		return page, nil
	}
	slugs := make([]string, len(refs))
	for i, r := range refs {
		slugs[i] = r.Slug
	}
	found, err := s.entries.GetEntries(ctx, slugs)
	if err != nil {
		return EntryPage{}, err
	}
	bySlug := make(map[string]Entry, len(found))
	for _, e := range found {
		bySlug[e.Slug] = e
	}
	// A column whose entry is gone, or names an entry of the same slug published later (a
	// delete cut short), is skipped: the entry's ID is the column's name.
	var names []string
	seen := map[string]bool{}
	for _, r := range refs {
		e, ok := bySlug[r.Slug]
		if !ok || e.ID != r.ID {
			continue
		}
		page.Entries = append(page.Entries, EntryView{Entry: e})
		if !seen[e.Author] {
			seen[e.Author] = true
			names = append(names, e.Author)
		}
	}
	if len(names) == 0 {
		return page, nil
	}
	authors, err := s.authors.GetAuthors(ctx, names)
	if err != nil {
		return EntryPage{}, err
	}
	byName := make(map[string]Author, len(authors))
	for _, a := range authors {
		byName[a.Name] = a
	}
	for i := range page.Entries {
		a, ok := byName[page.Entries[i].Author]
		if !ok {
			a = Author{Name: page.Entries[i].Author, Profile: map[string]string{}}
		}
		page.Entries[i].AuthorProfile = a
	}
	return page, nil
}

// CommentDraft is a comment to add. Commenters do not register: they give a name and, if they
// like, an email address each time.
type CommentDraft struct {
	Name  string
	Email string
	Text  string
	// Time backdates the comment (an import, the article's fixture); zero means now. It may not
	// be before 1970.
	Time time.Time
}

// Comment adds a comment to the entry of slug (domain.ErrNotFound if there is none).
func (s *Service) Comment(ctx context.Context, slug string, d CommentDraft) (Comment, error) {
	if err := model.ValidateSlug(slug); err != nil {
		return Comment{}, err
	}
	name, err := model.NormalizeCommenter(d.Name)
	if err != nil {
		return Comment{}, err
	}
	email, err := model.NormalizeEmail(d.Email)
	if err != nil {
		return Comment{}, err
	}
	text, err := model.NormalizeCommentText(d.Text)
	if err != nil {
		return Comment{}, err
	}
	micros, err := s.when("time", d.Time)
	if err != nil {
		return Comment{}, err
	}
	if _, err := s.entries.GetEntry(ctx, slug); err != nil {
		return Comment{}, err
	}
	c := Comment{ID: domain.NewTimeUUID(micros), Slug: slug, Name: name, Email: email, Text: text, Time: domain.TimeFromMicros(micros)}
	if err := s.comments.AddComment(ctx, c); err != nil {
		return Comment{}, err
	}
	return c, nil
}

// AuthorScanLimit bounds the entries EntriesBy reads for one page.
const AuthorScanLimit = 1000

// EntriesBy lists the entries of author, newest first, limit at a time. The article's keyspace
// has no index of entries by author, so this walks the NoTag row (every entry, newest first)
// and keeps the author's: it reads at most AuthorScanLimit entries for one page, and a page may
// then hold fewer than limit entries and still have a Next. An application that lists by author
// often would keep an AuthorPosts row beside TaggedPosts, written with the entry.
func (s *Service) EntriesBy(ctx context.Context, author, start string, limit int) (EntryPage, error) {
	if err := model.ValidateAuthorName(author); err != nil {
		return EntryPage{}, err
	}
	limit, err := domain.ValidateLimit(limit)
	if err != nil {
		return EntryPage{}, err
	}
	var out EntryPage
	cursor, scanned := start, 0
	for scanned < AuthorScanLimit {
		page, err := s.Entries(ctx, NoTag, cursor, domain.MaxPageSize)
		if err != nil {
			return EntryPage{}, err
		}
		for _, e := range page.Entries {
			scanned++
			if e.Author != author {
				continue
			}
			if len(out.Entries) == limit {
				// One more exists: the page ends at the last entry kept.
				out.Next = model.EncodeCursor(out.Entries[limit-1].ID)
				return out, nil
			}
			out.Entries = append(out.Entries, e)
		}
		if page.Next == "" {
			return out, nil
		}
		cursor = page.Next
	}
	out.Next = cursor
	return out, nil
}

// CommentPage is one page of an entry's comments.
type CommentPage struct {
	Comments []Comment
	Next     string // opaque; "" when there is no more
}

// Comments lists the comments of the entry of slug, oldest first (domain.ErrNotFound if there is
// no such entry).
func (s *Service) Comments(ctx context.Context, slug, start string, limit int) (CommentPage, error) {
	if err := model.ValidateSlug(slug); err != nil {
		return CommentPage{}, err
	}
	limit, err := domain.ValidateLimit(limit)
	if err != nil {
		return CommentPage{}, err
	}
	after, err := model.ParseCursor(start)
	if err != nil {
		return CommentPage{}, err
	}
	if _, err := s.entries.GetEntry(ctx, slug); err != nil {
		return CommentPage{}, err
	}
	cs, err := s.comments.SliceComments(ctx, slug, after, limit+1)
	if err != nil {
		return CommentPage{}, err
	}
	page := CommentPage{Comments: cs}
	if len(cs) > limit {
		page.Comments = cs[:limit]
		page.Next = model.EncodeCursor(cs[limit-1].ID)
	}
	return page, nil
}

// DeleteEntry deletes the entry of slug (domain.ErrNotFound if there is none) with everything
// that names it, and takes it off its author's count.
//
// This answers the question left open under the article ("is there any way to delete the
// reference from TaggedPosts without brute force?"): the entry row holds its tags and its
// TimeUUID, which is its column name in every tag row, so exactly those columns are deleted,
// with no scan. The index and the comments go first and the entry row last, so a delete cut
// short leaves the entry in place to delete again; of concurrent deletes exactly one removes the
// row and counts it off.
func (s *Service) DeleteEntry(ctx context.Context, slug string) error {
	if err := model.ValidateSlug(slug); err != nil {
		return err
	}
	e, err := s.entries.GetEntry(ctx, slug)
	if err != nil {
		return err
	}
	if err := s.tags.RemoveTagged(ctx, e.ID, append([]string{NoTag}, e.Tags...)...); err != nil {
		return fmt.Errorf("unindex entry %q: %w", slug, err)
	}
	if err := s.comments.DeleteComments(ctx, slug); err != nil {
		return fmt.Errorf("delete comments of %q: %w", slug, err)
	}
	if err := s.entries.DeleteEntry(ctx, slug, e.ID); err != nil {
		return err
	}
	if err := s.authors.AddPosts(ctx, e.Author, -1); err != nil && !errors.Is(err, domain.ErrNotFound) {
		return fmt.Errorf("uncount entry %q: %w", slug, err)
	}
	return nil
}
