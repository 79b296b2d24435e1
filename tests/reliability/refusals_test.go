package reliability

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/ports"
	"twissandra/tools/dump"
)

// A refused action writes nothing, on every backend: every use case checks its input and the
// store's state before its first write. The stores are compared whole before and after each
// refusal: every record through the ports, and on widerow every column of every column family
// with its timestamp, tombstone-only rows included, so that even a rewrite of the same value
// or a write undone by a delete is seen.
func TestRefusedActionsWriteNothing(t *testing.T) {
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			refusalsWriteNothing(t, b.stores(t))
		})
	}
}

func TestCQL3RefusedActionsWriteNothing(t *testing.T) {
	refusalsWriteNothing(t, cqlStores(t))
}

func refusalsWriteNothing(t *testing.T, st ports.Stores) {
	ctx := context.Background()
	svc, bs := services(st)
	const pw = "correct horse"
	for _, name := range []string{"alice", "bob", "carol"} {
		if _, err := svc.SignUp(ctx, name, pw); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.Follow(ctx, "bob", "alice"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Post(ctx, "alice", "hello"); err != nil {
		t.Fatal(err)
	}
	if _, err := bs.Publish(ctx, blog.Draft{Slug: "taken", Title: "T", Body: "b", Author: "alice", Tags: []string{"go"}, NewAuthor: true}); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, st)
	if !strings.Contains(before, "taken") || !strings.Contains(before, "hello") {
		t.Fatalf("the snapshot misses the fixture:\n%s", before)
	}

	long := strings.Repeat("x", domain.MaxTweetLen+1)
	for _, tc := range []struct {
		name string
		want error
		do   func() error
	}{
		{"sign up a taken name", domain.ErrAlreadyExists, func() error { _, err := svc.SignUp(ctx, "alice", pw); return err }},
		{"sign up a taken name with a bad password", domain.ErrInvalid, func() error { _, err := svc.SignUp(ctx, "alice", "x"); return err }},
		{"sign up a bad name", domain.ErrInvalid, func() error { _, err := svc.SignUp(ctx, "no such name!", pw); return err }},
		{"log in with a wrong password", domain.ErrUnauthenticated, func() error { _, err := svc.LogIn(ctx, "alice", "wrong password"); return err }},
		{"follow an unknown user", domain.ErrNotFound, func() error { return svc.Follow(ctx, "bob", "nobody") }},
		{"follow as an unknown user", domain.ErrNotFound, func() error { return svc.Follow(ctx, "nobody", "alice") }},
		{"follow oneself", domain.ErrInvalid, func() error { return svc.Follow(ctx, "bob", "bob") }},
		{"unfollow an unknown user", domain.ErrNotFound, func() error { return svc.Unfollow(ctx, "bob", "nobody") }},
		{"post an empty body", domain.ErrInvalid, func() error { _, err := svc.Post(ctx, "alice", "  "); return err }},
		{"post a long body", domain.ErrInvalid, func() error { _, err := svc.Post(ctx, "alice", long); return err }},
		{"publish a taken slug as a new author", domain.ErrAlreadyExists, func() error {
			_, err := bs.Publish(ctx, blog.Draft{Slug: "taken", Title: "Mine", Body: "b", Author: "carol", NewAuthor: true})
			return err
		}},
		{"publish a taken slug", domain.ErrAlreadyExists, func() error {
			_, err := bs.Publish(ctx, blog.Draft{Slug: "taken", Title: "Again", Body: "b", Author: "alice", Tags: []string{"new"}})
			return err
		}},
		{"publish as an unknown author", domain.ErrNotFound, func() error {
			_, err := bs.Publish(ctx, blog.Draft{Slug: "fresh", Title: "T", Body: "b", Author: "carol"})
			return err
		}},
		{"publish a bad slug", domain.ErrInvalid, func() error {
			_, err := bs.Publish(ctx, blog.Draft{Slug: "Bad Slug", Title: "T", Body: "b", Author: "carol", NewAuthor: true})
			return err
		}},
		{"publish without a title", domain.ErrInvalid, func() error {
			_, err := bs.Publish(ctx, blog.Draft{Slug: "fresh", Title: " ", Body: "b", Author: "carol", NewAuthor: true})
			return err
		}},
		{"comment on a missing entry", domain.ErrNotFound, func() error {
			_, err := bs.Comment(ctx, "missing", blog.CommentDraft{Name: "bob", Email: "bob@example.com", Text: "hi"})
			return err
		}},
		{"comment with a bad email", domain.ErrInvalid, func() error {
			_, err := bs.Comment(ctx, "taken", blog.CommentDraft{Name: "bob", Email: "not an email", Text: "hi"})
			return err
		}},
		{"put an author with a bad profile", domain.ErrInvalid, func() error {
			_, err := bs.PutAuthor(ctx, "alice", map[string]string{"Not A Key": "v"})
			return err
		}},
		{"delete a missing entry", domain.ErrNotFound, func() error { return bs.DeleteEntry(ctx, "missing") }},
	} {
		err := tc.do()
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
			continue
		}
		if after := snapshot(t, st); after != before {
			t.Errorf("%s was refused (%v) but wrote:\n%s", tc.name, err, firstDifference(before, after))
			before = after
		}
	}
}

// snapshot prints every record of st, and on widerow every column with its timestamp.
func snapshot(t *testing.T, st ports.Stores) string {
	t.Helper()
	ctx := context.Background()
	var b bytes.Buffer
	if n, ok := st.Users.(interface{ Node() *engine.Node }); ok {
		o := dump.WiderowOptions{Format: dump.JSONL, Timestamps: true, Ghosts: true, ShowSecrets: true}
		if err := dump.Widerow(ctx, &b, n.Node(), o); err != nil {
			t.Fatal(err)
		}
	}
	if err := dump.Ports(ctx, &b, st, dump.PortsOptions{ShowSecrets: true}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// firstDifference shows the first line that differs, before and after.
func firstDifference(before, after string) string {
	bl, al := strings.Split(before, "\n"), strings.Split(after, "\n")
	for i := range max(len(bl), len(al)) {
		var x, y string
		if i < len(bl) {
			x = bl[i]
		}
		if i < len(al) {
			y = al[i]
		}
		if x != y {
			return "before: " + x + "\nafter:  " + y
		}
	}
	return ""
}
