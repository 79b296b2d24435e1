package memory_test

import (
	"testing"

	"twissandra/adapters/memory"
	"twissandra/ports"
	"twissandra/ports/porttest"
)

var (
	_ ports.AuthorStore  = (*memory.BlogStore)(nil)
	_ ports.EntryStore   = (*memory.BlogStore)(nil)
	_ ports.TagIndex     = (*memory.BlogStore)(nil)
	_ ports.CommentStore = (*memory.BlogStore)(nil)
)

func TestBlogContract(t *testing.T) {
	porttest.RunBlog(t, func(t *testing.T) porttest.BlogStores {
		s := memory.NewBlog()
		return porttest.BlogStores{Authors: s, Entries: s, Tags: s, Comments: s}
	})
}
