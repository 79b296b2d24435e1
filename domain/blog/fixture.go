package blog

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/blog/model"
	"twissandra/ports"
)

// FixtureAuthor is an author of the article's data set.
type FixtureAuthor struct {
	Name    string
	Profile map[string]string
}

// FixtureEntry is an entry of the article's data set with its comments, oldest first.
type FixtureEntry struct {
	Draft
	Comments []CommentDraft
}

// FixtureSet is the example data of "WTF is a SuperColumn".
type FixtureSet struct {
	Authors []FixtureAuthor
	Entries []FixtureEntry // oldest first
}

func unix(sec int64) time.Time { return time.Unix(sec, 0).UTC() }

// Fixture returns the article's example data, a fresh copy each call.
//
// Where the article prints a value it is used as printed: Arin Sarkissian's profile (his
// numPosts of 11 counts entries the example does not show; here the count is what the data set
// publishes), the first entry's title, body, tags and pubDate, the tags of the other two, and
// the three comments with their commenters, emails, texts and commentTimes. The article elides
// ("...") the other entries' titles, bodies, authors and dates: their titles are spelled from
// their slugs, their bodies are the article's "...", their author is Arin, and their dates
// follow the TaggedPosts example's column order (i-got-a-new-guitar, then another-cool-guitar,
// then scream-is-the-best-movie-ever), a day apart. The commentTimes are kept although the
// article prints them earlier than the pubDate.
func Fixture() FixtureSet {
	const arin = "Arin Sarkissian"
	return FixtureSet{
		Authors: []FixtureAuthor{{
			Name: arin,
			Profile: map[string]string{
				"twitter": "phatduckk",
				"email":   "arin@example.com",
				"bio":     "bla bla bla",
			},
		}},
		Entries: []FixtureEntry{
			{
				Draft: Draft{
					Slug:        "i-got-a-new-guitar",
					Title:       "This is a blog entry about my new, awesome guitar",
					Body:        "this is a cool entry. etc etc yada yada",
					Author:      arin,
					Tags:        []string{"life", "guitar", "music"},
					PublishedAt: unix(1250558004),
				},
				Comments: []CommentDraft{
					{Name: "Johnny Guitar", Email: "guitardude@example.com", Text: "nice axe dawg...", Time: unix(1250438004)},
				},
			},
			{
				Draft: Draft{
					Slug:        "another-cool-guitar",
					Title:       "Another cool guitar",
					Body:        "...",
					Author:      arin,
					Tags:        []string{"guitar"},
					PublishedAt: unix(1250558004 + 86400),
				},
			},
			{
				Draft: Draft{
					Slug:        "scream-is-the-best-movie-ever",
					Title:       "Scream is the best movie ever",
					Body:        "...",
					Author:      arin,
					Tags:        []string{"movie", "horror"},
					PublishedAt: unix(1250558004 + 2*86400),
				},
				Comments: []CommentDraft{
					{Name: "Joe Blow", Email: "joeb@example.com", Text: "you're a dumb douche, the godfather is the best movie ever", Time: unix(1250438004)},
					{Name: "Some Dude", Email: "sd@example.com", Text: "be nice Joe Blow this isnt youtube", Time: unix(1250557004)},
				},
			},
		},
	}
}

// LoadFixture loads the article's data set through the use cases. Loading it again reads what
// exists and writes nothing: an author whose profile is the article's is left alone, as is an
// entry whose slug exists, and a comment is added only if the entry has no comment of the same
// commenter, text and time.
//
// On compare mode's stores (ports.Twin) it loads the primary alone, then copies to the secondary
// what the primary holds of the data set and the secondary lacks, IDs kept (copyFixture): loaded
// through the compare wrappers, an entry the primary held already (seeded before compare mode
// started) would be skipped, and the secondary would never get it.
func LoadFixture(ctx context.Context, s *Service) error {
	if t, ok := s.twins(); ok {
		return t.loadFixture(ctx, s)
	}
	return loadFixture(ctx, s)
}

func loadFixture(ctx context.Context, s *Service) error {
	set := Fixture()
	for _, a := range set.Authors {
		have, err := s.GetAuthor(ctx, a.Name)
		switch {
		case err == nil && maps.Equal(have.Profile, a.Profile):
			continue
		case err != nil && !errors.Is(err, domain.ErrNotFound):
			return fmt.Errorf("fixture author %q: %w", a.Name, err)
		}
		if _, err := s.PutAuthor(ctx, a.Name, a.Profile); err != nil {
			return fmt.Errorf("fixture author %q: %w", a.Name, err)
		}
	}
	for _, e := range set.Entries {
		_, err := s.GetEntry(ctx, e.Slug)
		switch {
		case errors.Is(err, domain.ErrNotFound):
			if _, err := s.Publish(ctx, e.Draft); err != nil && !errors.Is(err, domain.ErrAlreadyExists) {
				return fmt.Errorf("fixture entry %q: %w", e.Slug, err)
			}
		case err != nil:
			return fmt.Errorf("fixture entry %q: %w", e.Slug, err)
		}
		have, err := s.allComments(ctx, e.Slug)
		if err != nil {
			return fmt.Errorf("fixture comments of %q: %w", e.Slug, err)
		}
		for _, c := range e.Comments {
			if have[commentKey{c.Name, c.Text, c.Time.UnixMicro()}] {
				continue
			}
			if _, err := s.Comment(ctx, e.Slug, c); err != nil {
				return fmt.Errorf("fixture comment on %q: %w", e.Slug, err)
			}
		}
	}
	return nil
}

type commentKey struct {
	name, text string
	micros     int64
}

func (s *Service) allComments(ctx context.Context, slug string) (map[commentKey]bool, error) {
	have := map[commentKey]bool{}
	start := ""
	for {
		page, err := s.Comments(ctx, slug, start, domain.MaxPageSize)
		if err != nil {
			return nil, err
		}
		for _, c := range page.Comments {
			have[commentKey{c.Name, c.Text, c.Time.UnixMicro()}] = true
		}
		if page.Next == "" {
			return have, nil
		}
		start = page.Next
	}
}

// twins are the blog's stores of compare mode, each running one store of two models as one.
type twins struct {
	authors  ports.Twin[ports.AuthorStore]
	entries  ports.Twin[ports.EntryStore]
	tags     ports.Twin[ports.TagIndex]
	comments ports.Twin[ports.CommentStore]
}

// twins returns s's stores as twins when every one of them is.
func (s *Service) twins() (twins, bool) {
	a, okA := s.authors.(ports.Twin[ports.AuthorStore])
	e, okE := s.entries.(ports.Twin[ports.EntryStore])
	t, okT := s.tags.(ports.Twin[ports.TagIndex])
	c, okC := s.comments.(ports.Twin[ports.CommentStore])
	return twins{a, e, t, c}, okA && okE && okT && okC
}

// models returns the blog of each model apart, on s's clock.
func (t twins) models(s *Service) (primary, secondary *Service) {
	pa, sa := t.authors.Models()
	pe, se := t.entries.Models()
	pt, st := t.tags.Models()
	pc, sc := t.comments.Models()
	return &Service{authors: pa, entries: pe, tags: pt, comments: pc, stamper: s.stamper},
		&Service{authors: sa, entries: se, tags: st, comments: sc, stamper: s.stamper}
}

// loadFixture loads the data set on the primary, then copies it to the secondary. What fails on
// the secondary compare mode reports beside the page's operations; it stops the copy, never the
// load.
func (t twins) loadFixture(ctx context.Context, s *Service) error {
	primary, secondary := t.models(s)
	if err := t.entries.OnPrimary(ctx, func(ctx context.Context) error { return loadFixture(ctx, primary) }); err != nil {
		return err
	}
	if err := t.copyFixture(ctx, primary, secondary); err != nil && !errors.Is(err, errSecondary) {
		return err
	}
	return nil
}

// errSecondary marks a failure of the secondary, which compare mode has reported.
var errSecondary = errors.New("the secondary failed")

// copyFixture copies to the secondary what the primary holds of the data set and the secondary
// lacks, as the primary holds it: each author's profile; each entry with its ID, its columns in
// the tag rows (and __notag__) and its count in its author's posts, as Publish writes them; each
// comment with its ID. A secondary that holds an entry of the slug with another ID keeps it
// (compare mode's reads report the two). What the secondary holds already is read, not
// written: copying again writes nothing.
func (t twins) copyFixture(ctx context.Context, primary, secondary *Service) error {
	onPrimary := func(call func(context.Context) error) error { return t.entries.OnPrimary(ctx, call) }
	onSecondary := func(op string, call func(context.Context) error) error {
		if err := t.entries.OnSecondary(ctx, op, call); err != nil {
			return fmt.Errorf("%s: %w: %w", op, errSecondary, err)
		}
		return nil
	}
	copied := map[string]bool{}
	copyAuthor := func(name string) error {
		if copied[name] {
			return nil
		}
		copied[name] = true
		var have Author
		if err := onPrimary(func(ctx context.Context) (err error) { have, err = primary.authors.GetAuthor(ctx, name); return err }); err != nil {
			return fmt.Errorf("fixture author %q: %w", name, err)
		}
		return onSecondary("copy author "+name, func(ctx context.Context) error {
			got, err := secondary.authors.GetAuthor(ctx, name)
			switch {
			case err == nil && maps.Equal(got.Profile, have.Profile):
				return nil
			case err != nil && !errors.Is(err, domain.ErrNotFound):
				return err
			}
			return secondary.authors.PutAuthor(ctx, Author{Name: name, Profile: have.Profile})
		})
	}
	set := Fixture()
	for _, a := range set.Authors {
		if err := copyAuthor(a.Name); err != nil {
			return err
		}
	}
	for _, fe := range set.Entries {
		var e Entry
		var comments []Comment
		if err := onPrimary(func(ctx context.Context) (err error) {
			if e, err = primary.entries.GetEntry(ctx, fe.Slug); err != nil {
				return err
			}
			comments, err = everyComment(ctx, primary.comments, fe.Slug)
			return err
		}); err != nil {
			return fmt.Errorf("fixture entry %q: %w", fe.Slug, err)
		}
		if err := copyAuthor(e.Author); err != nil {
			return err
		}
		err := onSecondary("copy entry "+e.Slug, func(ctx context.Context) error {
			got, err := secondary.entries.GetEntry(ctx, e.Slug)
			switch {
			case errors.Is(err, domain.ErrNotFound):
				if err := secondary.entries.CreateEntry(ctx, e); err != nil {
					return err
				}
				if err := secondary.tags.AddTagged(ctx, e.ID, e.Slug, append([]string{NoTag}, e.Tags...)...); err != nil {
					return err
				}
				if err := secondary.authors.AddPosts(ctx, e.Author, 1); err != nil {
					return err
				}
			case err != nil:
				return err
			case got.ID != e.ID:
				return nil
			}
			have, err := everyComment(ctx, secondary.comments, e.Slug)
			if err != nil {
				return err
			}
			ids := make(map[uuid.UUID]bool, len(have))
			for _, c := range have {
				ids[c.ID] = true
			}
			for _, c := range comments {
				if !ids[c.ID] {
					if err := secondary.comments.AddComment(ctx, c); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// everyComment reads every comment of slug from store, oldest first.
func everyComment(ctx context.Context, store ports.CommentStore, slug string) ([]model.Comment, error) {
	var out []model.Comment
	after := uuid.Nil
	for {
		page, err := store.SliceComments(ctx, slug, after, domain.MaxPageSize)
		if err != nil {
			return nil, err
		}
		out = append(out, page...)
		if len(page) < domain.MaxPageSize {
			return out, nil
		}
		after = page[len(page)-1].ID
	}
}
