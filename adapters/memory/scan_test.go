package memory_test

import (
	"testing"

	"twissandra/adapters/memory"
	"twissandra/ports"
	"twissandra/tools/scantest"
)

var (
	_ ports.UserScanner   = (*memory.Store)(nil)
	_ ports.TweetScanner  = (*memory.Store)(nil)
	_ ports.AuthorScanner = (*memory.BlogStore)(nil)
	_ ports.EntryScanner  = (*memory.BlogStore)(nil)
)

func TestScanners(t *testing.T) {
	scantest.Run(t, func(t *testing.T) scantest.Stores {
		s, b := memory.New(), memory.NewBlog()
		return scantest.Stores{Users: s, Tweets: s, Authors: b, Entries: b}
	})
}
