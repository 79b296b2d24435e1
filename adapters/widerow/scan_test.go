package widerow_test

import (
	"testing"

	"twissandra/adapters/widerow"
	"twissandra/ports"
	"twissandra/tools/scantest"
)

var (
	_ ports.UserScanner   = (*widerow.Store)(nil)
	_ ports.TweetScanner  = (*widerow.Store)(nil)
	_ ports.AuthorScanner = (*widerow.BlogStore)(nil)
	_ ports.EntryScanner  = (*widerow.BlogStore)(nil)
)

func TestScanners(t *testing.T) {
	scantest.Run(t, func(t *testing.T) scantest.Stores {
		n := openNode(t, "")
		s, b := widerow.NewStore(n), widerow.NewBlogStore(n)
		return scantest.Stores{Users: s, Tweets: s, Authors: b, Entries: b}
	})
}
