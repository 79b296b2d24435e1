package cql3

import (
	"testing"
	"time"

	"twissandra/ports"
	"twissandra/ports/porttest"
	"twissandra/ports/teachingtest"
)

func TestContract(t *testing.T) {
	s := sharedStore(t)
	porttest.Run(t, func(t *testing.T) porttest.Stores {
		resetPublic(t, s)
		return porttest.Stores{Users: s, Tweets: s, Lines: s}
	})
}

func TestSessionsContract(t *testing.T) {
	s := sharedStore(t)
	porttest.RunSessions(t, func(t *testing.T) (ports.SessionStore, porttest.Stores) {
		return s, porttest.Stores{Users: s, Tweets: s, Lines: s}
	})
}

func TestBlogContract(t *testing.T) {
	s := sharedStore(t)
	porttest.RunBlog(t, func(t *testing.T) porttest.BlogStores {
		truncate(t, s, "blog_entries", "tagged_posts", "comments")
		return porttest.BlogStores{Authors: s, Entries: s, Tags: s, Comments: s}
	})
}

func TestLocateContract(t *testing.T) {
	s := sharedStore(t)
	teachingtest.RunLocate(t, func(t *testing.T) teachingtest.InspectStores {
		resetPublic(t, s)
		return teachingtest.InspectStores{
			Stores:  porttest.Stores{Users: s, Tweets: s, Lines: s},
			Blog:    porttest.BlogStores{Authors: s, Entries: s, Tags: s, Comments: s},
			Locator: s,
		}
	})
}

// TestSizesContract measures a keyspace of its own: the widest partitions are the whole
// keyspace's, which the other contract tests share.
func TestSizesContract(t *testing.T) {
	teachingtest.RunSizes(t, func(t *testing.T) teachingtest.SizeStores {
		s := freshStore(t, "twissandra_test_sizes_")
		return teachingtest.SizeStores{Stores: porttest.Stores{Users: s, Tweets: s, Lines: s}, Sizer: s, Capped: s.ScanCapped}
	})
}

func TestClaimsContract(t *testing.T) { teachingtest.RunClaims(t, sharedStore(t), teachingtest.Yields) }

// Two servers on one keyspace: what one keeps, the other reads.
func TestActionLedgerContract(t *testing.T) {
	s := sharedStore(t)
	cfg := nodeConfig(t)
	cfg.Keyspace = s.Keyspace()
	other, err := Open(testCtx(t, time.Minute), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	teachingtest.RunActionLedger(t, s, other)
}

// TestQueryLabContract tries keys on a keyspace of its own, whose scratch keyspace is dropped
// with it.
func TestQueryLabContract(t *testing.T) {
	teachingtest.RunQueryLab(t, freshStore(t, "twissandra_test_qlab_"), true)
}
