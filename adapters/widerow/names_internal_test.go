package widerow

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/ports/oplog"
)

type opsSeen []oplog.Op

func (o *opsSeen) Record(op oplog.Op) { *o = append(*o, op) }

// namesOf serves a run of the same uuid from the entry before it: a run of a user the cache
// lacks is read once and named throughout, a uuid no user has stays unnamed, and the cache note
// counts every lookup the cache answered, runs included.
func TestNamesOfRunsOfTheSameAuthor(t *testing.T) {
	node, err := engine.Open(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { node.Close() })
	ctx := context.Background()
	writer := NewStore(node)
	ids := map[string]string{}
	for _, name := range []string{"ann", "bob"} {
		id := uuid.New()
		if err := writer.CreateUser(ctx, domain.User{ID: id, Username: name, PasswordHash: []byte("h"), CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		ids[name] = id.String()
	}
	nobody := uuid.New().String()

	s := NewStore(node) // a cold cache but for bob
	s.remember("bob", ids["bob"])
	var seen opsSeen
	got, err := namesOf(oplog.With(ctx, &seen), s, []string{ids["ann"], ids["ann"], ids["bob"], ids["bob"], ids["bob"], ids["ann"], nobody, nobody})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ann", "ann", "bob", "bob", "bob", "ann", "", ""}
	for i, e := range got {
		if e.username != want[i] {
			t.Errorf("entry %d: %q, want %q", i, e.username, want[i])
		}
	}
	var note string
	for _, op := range seen {
		if op.Call == "cache" {
			note = op.Touched
		}
	}
	if note != "3 of 8" {
		t.Errorf("cache note %q, want the 3 lookups of bob of 8", note)
	}
}
