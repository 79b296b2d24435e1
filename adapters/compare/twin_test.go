package compare_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/google/uuid"

	"twissandra/adapters/compare"
	"twissandra/adapters/memory"
	"twissandra/domain/blog"
	"twissandra/domain/blog/model"
	"twissandra/ports"
	"twissandra/ports/oplog"
)

// writes counts the writes each model records, the secondary's apart (an oplog.Shadower).
type writes struct {
	mu     sync.Mutex
	n      int
	shadow *writes
}

func (w *writes) Record(op oplog.Op) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if op.Kind == oplog.Write || op.Kind == oplog.LWT {
		w.n++
	}
}

func (w *writes) Shadow(string) oplog.Recorder {
	if w.shadow == nil {
		w.shadow = &writes{}
	}
	return w.shadow
}

func blogOn(p *compare.Pair, a, b ports.Stores) *blog.Service {
	st := compare.Stores(p, a, b)
	return blog.New(st.Authors, st.Entries, st.Tags, st.Comments, nil)
}

func blogStores(b *memory.BlogStore) ports.Stores {
	return ports.Stores{Authors: b, Entries: b, Tags: b, Comments: b}
}

// blogState is what a blog store holds of the article's data set, IDs included.
func blogState(t *testing.T, s *memory.BlogStore) string {
	t.Helper()
	ctx := context.Background()
	out := ""
	for _, a := range blog.Fixture().Authors {
		au, err := s.GetAuthor(ctx, a.Name)
		if err != nil {
			t.Fatalf("author %s: %v", a.Name, err)
		}
		out += fmt.Sprintf("author %s %v posts=%d\n", au.Name, au.Profile, au.Posts)
	}
	for _, fe := range blog.Fixture().Entries {
		e, err := s.GetEntry(ctx, fe.Slug)
		if err != nil {
			t.Fatalf("entry %s: %v", fe.Slug, err)
		}
		out += fmt.Sprintf("entry %s %s %q %v %d\n", e.Slug, e.ID, e.Title, e.Tags, e.PublishedAt.UnixMicro())
		cs, err := s.SliceComments(ctx, fe.Slug, uuid.Nil, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			out += fmt.Sprintf("  comment %s %q %d\n", c.ID, c.Text, c.Time.UnixMicro())
		}
		for _, tag := range append([]string{model.NoTag}, e.Tags...) {
			refs, err := s.SliceTagged(ctx, tag, uuid.Nil, 100)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(refs, func(r model.TagRef) bool { return r.ID == e.ID && r.Slug == e.Slug }) {
				out += fmt.Sprintf("  not in the row of tag %s\n", tag)
			}
		}
	}
	return out
}

// The README's path: the article's blog seeded on the primary alone (seed --articles, before
// compare mode starts), then loaded from the blog lesson in compare mode. The secondary gets
// what the primary holds, IDs kept, so that the reads of the blog agree; loading again writes
// nothing on either model.
func TestLoadFixtureCopiesThePrimarysBlog(t *testing.T) {
	t.Parallel()
	a, b := memory.NewBlog(), memory.NewBlog()
	if err := blog.LoadFixture(context.Background(), blog.New(a, a, a, a, nil)); err != nil {
		t.Fatal(err)
	}
	obs := &counter{}
	svc := blogOn(&compare.Pair{Primary: "one", Secondary: "two", Observer: obs}, blogStores(a), blogStores(b))
	want := blogState(t, a)
	for load := 1; load <= 2; load++ {
		w := &writes{}
		if err := blog.LoadFixture(oplog.With(context.Background(), w), svc); err != nil {
			t.Fatalf("load %d: %v", load, err)
		}
		if got := blogState(t, b); got != want {
			t.Fatalf("load %d: the secondary holds\n%s\nthe primary\n%s", load, got, want)
		}
		if w.n != 0 {
			t.Errorf("load %d: %d writes on the primary, which held the blog already", load, w.n)
		}
		if shadow := 0; w.shadow != nil {
			shadow = w.shadow.n
			if (shadow == 0) != (load == 2) {
				t.Errorf("load %d: %d writes on the secondary", load, shadow)
			}
		} else if load == 1 {
			t.Error("the load recorded nothing of the secondary")
		}
	}
	ctx := context.Background()
	if _, err := svc.Entries(ctx, "", "", 10); err != nil {
		t.Fatal(err)
	}
	for _, e := range blog.Fixture().Entries {
		if _, err := svc.GetEntry(ctx, e.Slug); err != nil {
			t.Fatal(err)
		}
		for _, tag := range e.Tags {
			if _, err := svc.Entries(ctx, tag, "", 10); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := svc.Comments(ctx, e.Slug, "", 10); err != nil {
			t.Fatal(err)
		}
	}
	if obs.divergences != 0 || obs.faults != 0 {
		t.Errorf("%d divergences %v, %d failures", obs.divergences, obs.ops, obs.faults)
	}
}

// Neither model held it: both get the same records from one load.
func TestLoadFixtureOnEmptyModels(t *testing.T) {
	t.Parallel()
	a, b := memory.NewBlog(), memory.NewBlog()
	obs := &counter{}
	if err := blog.LoadFixture(context.Background(), blogOn(&compare.Pair{Primary: "one", Secondary: "two", Observer: obs}, blogStores(a), blogStores(b))); err != nil {
		t.Fatal(err)
	}
	if got, want := blogState(t, b), blogState(t, a); got != want {
		t.Fatalf("the secondary holds\n%s\nthe primary\n%s", got, want)
	}
	if obs.divergences != 0 || obs.faults != 0 {
		t.Errorf("%d divergences %v, %d failures", obs.divergences, obs.ops, obs.faults)
	}
}

// failingEntries refuses every entry it is asked to create.
type failingEntries struct{ *memory.BlogStore }

func (failingEntries) CreateEntry(context.Context, model.Entry) error { return errors.New("node down") }

// A secondary that fails is reported and stops the copy, never the load: the primary holds the
// blog.
func TestLoadFixtureSurvivesTheSecondary(t *testing.T) {
	t.Parallel()
	a, b := memory.NewBlog(), memory.NewBlog()
	obs := &counter{}
	sec := blogStores(b)
	sec.Entries = failingEntries{b}
	if err := blog.LoadFixture(context.Background(), blogOn(&compare.Pair{Primary: "one", Secondary: "two", Observer: obs}, blogStores(a), sec)); err != nil {
		t.Fatalf("a failing secondary failed the load: %v", err)
	}
	if obs.faults != 1 {
		t.Errorf("%d secondary failures reported, want the one that stopped the copy", obs.faults)
	}
	for _, e := range blog.Fixture().Entries {
		if _, err := a.GetEntry(context.Background(), e.Slug); err != nil {
			t.Errorf("the primary lacks %s: %v", e.Slug, err)
		}
	}
}
