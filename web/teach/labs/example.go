package labs

import (
	"context"
	"errors"

	"twissandra/domain"
	"twissandra/domain/blog"
)

// Whose a lesson's example entry is, as the page says it.
const (
	EntryYours   = "yours"
	EntryArticle = "the article's"
)

// ExampleEntry is the blog entry a lesson shows when the learner names none: the signed-in
// learner me's newest (blog.Service.EntriesBy walks the __notag__ row for it), else the
// article's newest when it is loaded; never another learner's. whose is EntryYours or
// EntryArticle; found is false when there is neither.
func (h *Handler) ExampleEntry(ctx context.Context, me string) (e blog.Entry, whose string, found bool, err error) {
	if me != "" {
		page, err := h.Deps.Blog.EntriesBy(ctx, me, "", 1)
		switch {
		case err == nil && len(page.Entries) > 0:
			return page.Entries[0].Entry, EntryYours, true, nil
		case err != nil && !errors.Is(err, domain.ErrInvalid):
			return blog.Entry{}, "", false, err
		}
	}
	article := blog.Fixture().Entries
	v, err := h.Deps.Blog.GetEntry(ctx, article[len(article)-1].Slug)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		return blog.Entry{}, "", false, nil
	case err != nil:
		return blog.Entry{}, "", false, err
	case v.Author != article[len(article)-1].Author:
		return blog.Entry{}, "", false, nil // a learner's entry took the article's slug first
	}
	return v.Entry, EntryArticle, true, nil
}
