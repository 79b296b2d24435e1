package teach

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/ports/teaching"
)

// Locator says where records live in the memory adapter: which of its Go maps holds them, under
// which key. It implements teaching.Locator; Blog may be nil (the blog's loci are then absent).
type Locator struct {
	Store *memory.Store
	Blog  *memory.BlogStore
}

// Locate implements teaching.Locator.
func (l Locator) Locate(ctx context.Context, loci []teaching.Locus) ([]teaching.Placement, error) {
	if err := done(ctx); err != nil {
		return nil, err
	}
	var out []teaching.Placement
	for _, lc := range loci {
		out = append(out, l.locate(lc)...)
	}
	return out, nil
}

func place(lc teaching.Locus, container, key, address string, present bool, cells ...teaching.Cell) teaching.Placement {
	return teaching.Placement{Locus: lc, Model: "memory", Container: container, Key: key, Address: address, Present: present, Cells: cells}
}

func cell(name, value string) teaching.Cell { return teaching.Cell{Name: name, Value: value} }

func secret(name string, value []byte) teaching.Cell {
	shown, _ := domain.RedactColumn(name, value)
	return cell(name, shown)
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func (l Locator) locate(lc teaching.Locus) []teaching.Placement {
	s := l.Store
	switch lc.Kind {
	case teaching.LocusUser:
		u, ok := s.PeekUser(lc.User)
		p := place(lc, "users", lc.User, fmt.Sprintf("users[%q]", lc.User), ok)
		if ok {
			p.Cells = []teaching.Cell{cell("ID", u.ID.String()), cell("Username", u.Username), secret("password", u.PasswordHash), cell("CreatedAt", stamp(u.CreatedAt))}
		}
		return []teaching.Placement{p}
	case teaching.LocusTweet:
		t, ok := s.PeekTweet(lc.Tweet)
		p := place(lc, "tweets", lc.Tweet.String(), fmt.Sprintf("tweets[%s]", lc.Tweet), ok)
		if ok {
			p.Cells = []teaching.Cell{cell("ID", t.ID.String()), cell("Username", t.Username), cell("Body", strconv.Quote(t.Body)), cell("CreatedAt", stamp(t.CreatedAt))}
		}
		return []teaching.Placement{p}
	case teaching.LocusLineEntry:
		e, i, n, ok := s.PeekLineEntry(lc.Line, lc.Time)
		p := place(lc, "lines", lc.Line.String(), fmt.Sprintf("lines[%s] entry Time=%d (index %d of %d)", lc.Line, lc.Time, i, n), ok && e.TweetID == lc.Tweet)
		if p.Present {
			p.Cells = []teaching.Cell{cell("Time", strconv.FormatInt(e.Time, 10)), cell("TweetID", e.TweetID.String())}
		}
		return []teaching.Placement{p}
	case teaching.LocusFollow:
		side := func(friends bool, mapName, owner, other, part string) teaching.Placement {
			p := place(lc, mapName, owner, fmt.Sprintf("%s[%q] item %q", mapName, owner, other), false)
			p.Part = part
			if since, ok := s.PeekFollow(friends, owner, other); ok {
				p.Present = true
				p.Cells = []teaching.Cell{cell("Username", other), cell("Since", stamp(since))}
			}
			return p
		}
		return []teaching.Placement{side(true, "friends", lc.User, lc.Other, teaching.FriendSide(lc)), side(false, "followers", lc.Other, lc.User, teaching.FollowerSide(lc))}
	}
	if l.Blog == nil {
		return nil
	}
	return locateBlog(l.Blog, lc)
}

func locateBlog(b *memory.BlogStore, lc teaching.Locus) []teaching.Placement {
	switch lc.Kind {
	case teaching.LocusAuthor:
		a, ok := b.PeekAuthor(lc.Name)
		p := place(lc, "authors", lc.Name, fmt.Sprintf("authors[%q]", lc.Name), ok)
		if ok {
			for _, k := range slices.Sorted(maps.Keys(a.Profile)) {
				p.Cells = append(p.Cells, secret(k, []byte(a.Profile[k])))
			}
			p.Cells = append(p.Cells, cell("Posts", strconv.FormatInt(a.Posts, 10)))
		}
		return []teaching.Placement{p}
	case teaching.LocusEntry:
		e, ok := b.PeekEntry(lc.Slug)
		p := place(lc, "entries", lc.Slug, fmt.Sprintf("entries[%q]", lc.Slug), ok)
		if ok {
			p.Cells = []teaching.Cell{cell("ID", e.ID.String()), cell("Title", strconv.Quote(e.Title)), cell("Author", e.Author),
				cell("Tags", fmt.Sprint(e.Tags)), cell("PublishedAt", stamp(e.PublishedAt))}
		}
		return []teaching.Placement{p}
	case teaching.LocusTagRef:
		r, ok := b.PeekTagRef(lc.Tag, lc.ID)
		p := place(lc, "tagged", lc.Tag, fmt.Sprintf("tagged[%q] ref %s", lc.Tag, lc.ID), ok)
		if ok {
			p.Cells = []teaching.Cell{cell("ID", lc.ID.String()), cell("Slug", r.Slug)}
		}
		return []teaching.Placement{p}
	case teaching.LocusComment:
		c, ok := b.PeekComment(lc.Slug, lc.ID)
		p := place(lc, "comments", lc.Slug, fmt.Sprintf("comments[%q] comment %s", lc.Slug, lc.ID), ok)
		if ok {
			p.Cells = []teaching.Cell{cell("ID", c.ID.String()), cell("Name", c.Name), secret("email", []byte(c.Email)),
				cell("Text", strconv.Quote(c.Text)), cell("Time", stamp(c.Time))}
		}
		return []teaching.Placement{p}
	}
	return nil
}

func done(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("memory: %w", err)
	}
	return nil
}
