package cql3

import (
	"testing"

	"twissandra/ports"
	"twissandra/ports/porttest"
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
