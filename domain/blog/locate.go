package blog

import (
	"context"
	"twissandra/ports/teaching"

	"github.com/google/uuid"
)

// EntryLoci is every place an entry is written: its record, its place in the index of each of
// its tags and of NoTag, and its author's profile (which counts the entries).
func (s *Service) EntryLoci(ctx context.Context, slug string) ([]teaching.Locus, error) {
	e, err := s.entries.GetEntry(ctx, slug)
	if err != nil {
		return nil, err
	}
	loci := []teaching.Locus{{Kind: teaching.LocusEntry, Role: "the entry", Slug: e.Slug, ID: e.ID}}
	for _, tag := range append([]string{NoTag}, e.Tags...) {
		loci = append(loci, teaching.Locus{Kind: teaching.LocusTagRef, Role: "tag " + tag + "'s index", Tag: tag, Slug: e.Slug, ID: e.ID})
	}
	return append(loci, teaching.Locus{Kind: teaching.LocusAuthor, Role: "its author's profile", Name: e.Author}), nil
}

// CommentLoci is the place of one comment: a super column of its entry's Comments row.
func (s *Service) CommentLoci(ctx context.Context, slug string, id uuid.UUID) ([]teaching.Locus, error) {
	if _, err := s.entries.GetEntry(ctx, slug); err != nil {
		return nil, err
	}
	return []teaching.Locus{{Kind: teaching.LocusComment, Role: "the comment", Slug: slug, ID: id}}, nil
}
