package memory_test

import (
	"testing"

	"twissandra/adapters/memory"
	"twissandra/ports/scan"
	"twissandra/ports/scantest"
)

var (
	_ scan.Users   = (*memory.Store)(nil)
	_ scan.Tweets  = (*memory.Store)(nil)
	_ scan.Authors = (*memory.BlogStore)(nil)
	_ scan.Entries = (*memory.BlogStore)(nil)
)

func TestScanners(t *testing.T) {
	scantest.Run(t, func(t *testing.T) scantest.Stores {
		s, b := memory.New(), memory.NewBlog()
		return scantest.Stores{Users: s, Tweets: s, Authors: b, Entries: b}
	})
}
