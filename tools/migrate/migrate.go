// Package migrate copies everything from one backend to another through the ports: users (with
// their IDs, password hashes and creation times), follows (with their times), the pulled
// authors of the hybrid fan-out, tweets, every line
// entry (userlines, timelines, the public line) and the blog (authors with their post counts,
// entries, tag rows, comments). Every write is an upsert with the source's own keys and times,
// so running it again changes nothing; a checkpoint file records the phase and the last key
// done, so a stopped copy resumes where it was. Verify then compares both sides.
package migrate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"

	"twissandra/domain"
	"twissandra/domain/blog/model"
	"twissandra/internal/parallel"
	"twissandra/ports"
	"twissandra/ports/scan"
	"twissandra/tools/dump"
)

// Phases, in the order they run: users first (everything else names them), the public line last.
var Phases = []string{"users", "follows", "pulled", "tweets", "lines", "public", "authors", "entries", "tags"}

// PhaseDone is the checkpoint's phase once everything is copied.
const PhaseDone = "done"

// Progress is told what is being copied.
type Progress interface {
	Phase(name string)
	Add(n int)
}

type noProgress struct{}

func (noProgress) Phase(string) {}
func (noProgress) Add(int)      {}

// Options configure Copy.
type Options struct {
	// Checkpoint is the file that records progress; "" keeps none.
	Checkpoint string
	// Resume continues from the checkpoint instead of starting over.
	Resume bool
	// Route names the source and the target; a checkpoint of another route is refused.
	Route string
	// Concurrency bounds the writes in flight; 0 means 8.
	Concurrency int
	// PageSize is the records per scan page; 0 means 500.
	PageSize int
	Progress Progress
	// stopAfter, in tests, fails the copy after that many pages, as a crash would.
	stopAfter int
}

// Checkpoint is what the checkpoint file holds: the phase under way and the scan position after
// which it continues ("" = from its start).
type Checkpoint struct {
	Route string `json:"route"`
	Phase string `json:"phase"`
	After string `json:"after"`
}

// errStopped is the simulated crash of tests.
var errStopped = errors.New("migrate: stopped (test)")

type copier struct {
	from, to ports.Stores
	o        Options
	cp       Checkpoint
	pages    int
}

// Copy copies from into to. It needs the source's scanners (ports/scan).
func Copy(ctx context.Context, from, to ports.Stores, o Options) error {
	if o.Concurrency <= 0 {
		o.Concurrency = 8
	}
	if o.PageSize <= 0 {
		o.PageSize = 500
	}
	if o.Progress == nil {
		o.Progress = noProgress{}
	}
	for _, need := range []struct {
		ok   bool
		what string
	}{
		{is[scan.Users](from.Users), "users (scan.Users)"},
		{is[scan.Tweets](from.Tweets), "tweets (scan.Tweets)"},
		{from.Authors == nil || is[scan.Authors](from.Authors), "authors (scan.Authors)"},
		{from.Entries == nil || is[scan.Entries](from.Entries), "entries (scan.Entries)"},
	} {
		if !need.ok {
			return fmt.Errorf("the source cannot enumerate its %s", need.what)
		}
	}
	c := &copier{from: from, to: to, o: o, cp: Checkpoint{Route: o.Route, Phase: Phases[0]}}
	if o.Resume && o.Checkpoint != "" {
		b, err := os.ReadFile(o.Checkpoint)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return fmt.Errorf("read checkpoint: %w", err)
		default:
			var cp Checkpoint
			if err := json.Unmarshal(b, &cp); err != nil {
				return fmt.Errorf("checkpoint %s is damaged: %w", o.Checkpoint, err)
			}
			if cp.Route != o.Route {
				return fmt.Errorf("checkpoint %s is of another migration (%s), not %s", o.Checkpoint, cp.Route, o.Route)
			}
			if cp.Phase != PhaseDone && !slices.Contains(Phases, cp.Phase) {
				return fmt.Errorf("checkpoint %s names an unknown phase %q", o.Checkpoint, cp.Phase)
			}
			c.cp = cp
		}
	}
	if c.cp.Phase == PhaseDone {
		return nil
	}
	start := slices.Index(Phases, c.cp.Phase)
	for _, phase := range Phases[start:] {
		if phase != c.cp.Phase {
			c.cp = Checkpoint{Route: o.Route, Phase: phase}
		}
		if err := c.save(); err != nil {
			return err
		}
		o.Progress.Phase(phase)
		var err error
		switch phase {
		case "users":
			err = c.users(ctx)
		case "follows":
			err = c.perUser(ctx, c.follows)
		case "pulled":
			err = c.pulled(ctx)
		case "tweets":
			err = c.tweets(ctx)
		case "lines":
			err = c.perUser(ctx, c.lines)
		case "public":
			err = c.copyLine(ctx, domain.PublicLine())
		case "authors":
			err = c.authors(ctx)
		case "entries":
			err = c.entries(ctx)
		case "tags":
			err = c.tags(ctx)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", phase, err)
		}
	}
	c.cp = Checkpoint{Route: o.Route, Phase: PhaseDone}
	return c.save()
}

func is[T any](v any) bool { _, ok := v.(T); return ok }

// save writes the checkpoint atomically (write, then rename).
func (c *copier) save() error {
	if c.o.Checkpoint == "" {
		return nil
	}
	b, err := json.Marshal(c.cp)
	if err != nil {
		return err
	}
	tmp := c.o.Checkpoint + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write checkpoint: %w", err)
	}
	if err := os.Rename(tmp, c.o.Checkpoint); err != nil {
		return fmt.Errorf("write checkpoint: %w", err)
	}
	return nil
}

// pageDone records that everything up to after is copied.
func (c *copier) pageDone(after string) error {
	c.cp.After = after
	if err := c.save(); err != nil {
		return err
	}
	c.pages++
	if c.o.stopAfter > 0 && c.pages >= c.o.stopAfter {
		return errStopped
	}
	return nil
}

// each runs fn on every item, at most n at once; the first error cancels the rest and is
// returned (see parallel.For).
func each[T any](ctx context.Context, n int, items []T, fn func(context.Context, T) error) error {
	return parallel.For(ctx, len(items), n, func(ctx context.Context, i int) error { return fn(ctx, items[i]) })
}

// scanPages walks a source scanner from the checkpoint's position, handing each page to fn
// and recording the position once fn is done with it.
func scanPages[T any](ctx context.Context, c *copier, source func(ctx context.Context, after string, limit int) ([]T, string, error), fn func([]T) error) error {
	after := c.cp.After
	for {
		page, next, err := source(ctx, after, c.o.PageSize)
		if err != nil {
			return err
		}
		if err := fn(page); err != nil {
			return err
		}
		c.o.Progress.Add(len(page))
		if next == "" {
			return nil
		}
		if err := c.pageDone(next); err != nil {
			return err
		}
		after = next
	}
}

func (c *copier) users(ctx context.Context) error {
	return scanPages(ctx, c, c.from.Users.(scan.Users).ScanUsers, func(page []domain.User) error {
		return each(ctx, c.o.Concurrency, page, func(ctx context.Context, u domain.User) error {
			// Look first: on widerow a CreateUser that loses its name removes the User row
			// of its ID, which on a re-run is the very user already copied.
			have, err := c.to.Users.GetUser(ctx, u.Username)
			if errors.Is(err, domain.ErrNotFound) {
				err = c.to.Users.CreateUser(ctx, u)
				if !errors.Is(err, domain.ErrAlreadyExists) {
					return err
				}
				have, err = c.to.Users.GetUser(ctx, u.Username)
			}
			if err != nil {
				return fmt.Errorf("user %s: %w", u.Username, err)
			}
			if have.ID != u.ID {
				return fmt.Errorf("user %s exists in the target as another user (ID %s, the source's is %s)", u.Username, have.ID, u.ID)
			}
			return nil
		})
	})
}

func (c *copier) perUser(ctx context.Context, fn func(context.Context, domain.User) error) error {
	return scanPages(ctx, c, c.from.Users.(scan.Users).ScanUsers, func(page []domain.User) error {
		return each(ctx, c.o.Concurrency, page, fn)
	})
}

func (c *copier) follows(ctx context.Context, u domain.User) error {
	friends, err := dump.AllFollows(ctx, c.from.Users, u.Username)
	if err != nil {
		return err
	}
	for _, f := range friends {
		if err := c.to.Users.Follow(ctx, u.Username, f.Username, f.Since); err != nil {
			return fmt.Errorf("follow %s -> %s: %w", u.Username, f.Username, err)
		}
	}
	return nil
}

// pulled marks in the target every author the source ever pulled: their pulled posts are in no
// timeline, so without the mark the target's home pages would not merge them.
func (c *copier) pulled(ctx context.Context) error {
	names, err := c.from.Users.PulledAuthors(ctx)
	if err != nil {
		return err
	}
	return each(ctx, c.o.Concurrency, names, c.to.Users.MarkPulled)
}

func (c *copier) tweets(ctx context.Context) error {
	return scanPages(ctx, c, c.from.Tweets.(scan.Tweets).ScanTweets, func(page []domain.Tweet) error {
		return each(ctx, c.o.Concurrency, page, c.to.Tweets.SaveTweet)
	})
}

func (c *copier) lines(ctx context.Context, u domain.User) error {
	if err := c.copyLine(ctx, domain.UserlineOf(u.Username)); err != nil {
		return err
	}
	return c.copyLine(ctx, domain.TimelineOf(u.Username))
}

func (c *copier) copyLine(ctx context.Context, line domain.LineKey) error {
	return dump.EachLinePage(ctx, c.from.Lines, line, func(page []domain.LineEntry) error {
		if err := c.to.Lines.AppendEntries(ctx, line, page); err != nil {
			return fmt.Errorf("%s: %w", line, err)
		}
		return nil
	})
}

func (c *copier) authors(ctx context.Context) error {
	if c.from.Authors == nil {
		return nil
	}
	return scanPages(ctx, c, c.from.Authors.(scan.Authors).ScanAuthors, func(page []model.Author) error {
		return each(ctx, c.o.Concurrency, page, func(ctx context.Context, a model.Author) error {
			if err := c.to.Authors.PutAuthor(ctx, a); err != nil {
				return fmt.Errorf("author %q: %w", a.Name, err)
			}
			have, err := c.to.Authors.GetAuthor(ctx, a.Name)
			if err != nil {
				return fmt.Errorf("author %q: %w", a.Name, err)
			}
			if d := a.Posts - have.Posts; d != 0 {
				return c.to.Authors.AddPosts(ctx, a.Name, d)
			}
			return nil
		})
	})
}

func (c *copier) entries(ctx context.Context) error {
	if c.from.Entries == nil {
		return nil
	}
	return scanPages(ctx, c, c.from.Entries.(scan.Entries).ScanEntries, func(page []model.Entry) error {
		return each(ctx, c.o.Concurrency, page, func(ctx context.Context, e model.Entry) error {
			err := c.to.Entries.CreateEntry(ctx, e)
			if errors.Is(err, domain.ErrAlreadyExists) {
				have, gerr := c.to.Entries.GetEntry(ctx, e.Slug)
				if gerr != nil {
					return fmt.Errorf("entry %q exists in the target but cannot be read: %w", e.Slug, gerr)
				}
				if have.ID != e.ID {
					return fmt.Errorf("entry %q exists in the target as another entry (ID %s, the source's is %s)", e.Slug, have.ID, e.ID)
				}
			} else if err != nil {
				return fmt.Errorf("entry %q: %w", e.Slug, err)
			}
			comments, err := dump.AllComments(ctx, c.from.Comments, e.Slug)
			if err != nil {
				return err
			}
			for _, cm := range comments {
				if err := c.to.Comments.AddComment(ctx, cm); err != nil {
					return fmt.Errorf("comment %s on %q: %w", cm.ID, e.Slug, err)
				}
			}
			return nil
		})
	})
}

// tags copies the TaggedPosts rows the source's entries name (and the row of every entry),
// column by column, so references are copied as they are.
func (c *copier) tags(ctx context.Context) error {
	if c.from.Entries == nil {
		return nil
	}
	entries, err := dump.AllEntries(ctx, c.from.Entries)
	if err != nil {
		return err
	}
	tags := dump.Tags(entries)
	if i := slices.Index(tags, c.cp.After); c.cp.After != "" && i >= 0 {
		tags = tags[i+1:] // the rows up to the checkpoint's are copied
	}
	for _, tag := range tags {
		refs, err := dump.AllTagRefs(ctx, c.from.Tags, tag)
		if err != nil {
			return err
		}
		err = each(ctx, c.o.Concurrency, refs, func(ctx context.Context, r model.TagRef) error {
			return c.to.Tags.AddTagged(ctx, r.ID, r.Slug, tag)
		})
		if err != nil {
			return fmt.Errorf("tag %q: %w", tag, err)
		}
		c.o.Progress.Add(len(refs))
		if err := c.pageDone(tag); err != nil {
			return err
		}
	}
	return nil
}
