package blog

import (
	"context"

	"github.com/google/uuid"

	"twissandra/ports"
)

// EntryLoci is every place an entry is written: its record, its place in the index of each of
// its tags and of NoTag, and its author's profile (which counts the entries).
func (s *Service) EntryLoci(ctx context.Context, slug string) ([]ports.Locus, error) {
	e, err := s.entries.GetEntry(ctx, slug)
	if err != nil {
		return nil, err
	}
	loci := []ports.Locus{{Kind: ports.LocusEntry, Role: "the entry", Slug: e.Slug, ID: e.ID}}
	for _, tag := range append([]string{NoTag}, e.Tags...) {
		loci = append(loci, ports.Locus{Kind: ports.LocusTagRef, Role: "tag " + tag + "'s index", Tag: tag, Slug: e.Slug, ID: e.ID})
	}
	return append(loci, ports.Locus{Kind: ports.LocusAuthor, Role: "its author's profile", Name: e.Author}), nil
}

// CommentLoci is the place of one comment: a super column of its entry's Comments row.
func (s *Service) CommentLoci(ctx context.Context, slug string, id uuid.UUID) ([]ports.Locus, error) {
	if _, err := s.entries.GetEntry(ctx, slug); err != nil {
		return nil, err
	}
	return []ports.Locus{{Kind: ports.LocusComment, Role: "the comment", Slug: slug, ID: id}}, nil
}
