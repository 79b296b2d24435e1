package cql3

import (
	"errors"
	"testing"
	"time"

	"twissandra/domain"
	"twissandra/ports/scantest"
)

func TestScanners(t *testing.T) {
	s := sharedStore(t)
	scantest.Run(t, func(t *testing.T) scantest.Stores {
		truncate(t, s, "users", "tweets", "authors", "blog_entries")
		return scantest.Stores{Users: s, Tweets: s, Authors: s, Entries: s}
	})
}

func TestScanPositions(t *testing.T) {
	s := sharedStore(t)
	ctx := testCtx(t, time.Minute)
	if _, _, err := s.ScanTweets(ctx, "not-a-uuid", 10); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("tweet position that is no UUID: %v, want ErrInvalid", err)
	}
	if _, _, err := s.ScanUsers(ctx, "\xff", 10); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("user position that is no UTF-8: %v, want ErrInvalid", err)
	}
	if _, _, err := s.ScanUsers(ctx, "", 0); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("limit 0: %v, want ErrInvalid", err)
	}
	closed, err := New(nodeConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := closed.ScanEntries(ctx, "", 10); !errors.Is(err, domain.ErrUnavailable) {
		t.Errorf("scan before Start: %v, want ErrUnavailable", err)
	}
}
