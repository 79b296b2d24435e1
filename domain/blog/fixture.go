package blog

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"twissandra/domain"
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
func LoadFixture(ctx context.Context, s *Service) error {
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
