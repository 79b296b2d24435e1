package widerow_test

import (
	"testing"

	"twissandra/adapters/widerow"
	"twissandra/ports/scan"
	"twissandra/ports/scantest"
)

var (
	_ scan.Users   = (*widerow.Store)(nil)
	_ scan.Tweets  = (*widerow.Store)(nil)
	_ scan.Authors = (*widerow.BlogStore)(nil)
	_ scan.Entries = (*widerow.BlogStore)(nil)
)

func TestScanners(t *testing.T) {
	scantest.Run(t, func(t *testing.T) scantest.Stores {
		n := openNode(t, "")
		s, b := widerow.NewStore(n), widerow.NewBlogStore(n)
		return scantest.Stores{Users: s, Tweets: s, Authors: b, Entries: b}
	})
}
