package teach_test

import (
	"context"
	"slices"
	"testing"

	"twissandra/adapters/memory"
	"twissandra/adapters/memory/teach"
	"twissandra/ports/oplog"
	"twissandra/ports/porttest"
	"twissandra/ports/teachingtest"
)

func TestLocateContract(t *testing.T) {
	teachingtest.RunLocate(t, func(t *testing.T) teachingtest.InspectStores {
		s, b := memory.New(), memory.NewBlog()
		return teachingtest.InspectStores{
			Stores:  porttest.Stores{Users: s, Tweets: s, Lines: s},
			Blog:    porttest.BlogStores{Authors: b, Entries: b, Tags: b, Comments: b},
			Locator: teach.Locator{Store: s, Blog: b},
		}
	})
}

// TestQueryLabContract: the maps have no tables to try a key on, and the lab says so.
func TestQueryLabContract(t *testing.T) {
	teachingtest.RunQueryLab(t, teach.Locator{Store: memory.New(), Blog: memory.NewBlog()}, false)
}

// TestRingContract: the maps have no partitioner, and the ring says so.
func TestRingContract(t *testing.T) {
	teachingtest.RunRing(t, teach.Locator{Store: memory.New(), Blog: memory.NewBlog()}, teachingtest.RingNone, "users")
}

func TestSizesContract(t *testing.T) {
	teachingtest.RunSizes(t, func(t *testing.T) teachingtest.SizeStores {
		s := memory.New()
		l := teach.Locator{Store: s, Blog: memory.NewBlog()}
		return teachingtest.SizeStores{Stores: porttest.Stores{Users: s, Tweets: s, Lines: s}, Sizer: l, Capped: l.ScanCapped}
	})
}

func TestClaimsContract(t *testing.T) {
	teachingtest.RunClaims(t, teach.NewNameClaims(), teachingtest.Instant)
}

func TestProgressContract(t *testing.T) { teachingtest.RunProgress(t, teach.NewProgress()) }

func TestClassBookContract(t *testing.T) { teachingtest.RunClassBook(t, teach.NewClassBook(nil)) }

// Each call of the ClassBook is one operation in the request's log, described as the memory
// store describes its own.
func TestClassBookRecordsItsCalls(t *testing.T) {
	book := teach.NewClassBook(nil)
	log := oplog.NewLog(false)
	ctx := oplog.With(context.Background(), log)
	if err := book.Enrol(ctx, "c1", []string{"ann", "bob"}); err != nil {
		t.Fatal(err)
	}
	if _, err := book.Members(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	if err := book.Touch(ctx, "user:ann", "console cql"); err != nil {
		t.Fatal(err)
	}
	if _, err := book.Activity(ctx, "user:ann"); err != nil {
		t.Fatal(err)
	}
	if err := book.ForgetActivity(ctx, "user:ann"); err != nil {
		t.Fatal(err)
	}
	ops, _ := log.Ops()
	var got []string
	for _, op := range ops {
		got = append(got, op.Text)
	}
	want := []string{"put classes c1 +2 members", "slice classes c1 -> 2 members", "put activity user:ann", "get activity user:ann", "delete activity user:ann"}
	if !slices.Equal(got, want) {
		t.Fatalf("recorded %q, want %q", got, want)
	}
}
