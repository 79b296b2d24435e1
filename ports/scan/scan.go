// Package scan declares the scanners: optional contracts that enumerate a store whole, for the
// tools that copy, dump or verify everything (migrate, dump). The use cases never scan, and a
// store that cannot enumerate simply does not implement them. ports/scantest is their suite.
//
// Every scanner pages the same way: it returns at most limit records after the position after
// ("" = from the start), in the store's own stable order (a hash order on Cassandra: token
// order), and next, the position to pass back for the following page; next is "" once the scan
// has reached the end. A page may hold fewer than limit records (rows being written or deleted
// are skipped) and still have a next. Positions are opaque strings of the store; a position the
// store cannot read is domain.ErrInvalid. A scan running while the store changes sees every
// record that exists throughout, and the others at most once.
package scan

import (
	"context"

	"twissandra/domain"
	"twissandra/domain/blog/model"
)

// Users enumerates the users, with their IDs, password hashes and creation times.
type Users interface {
	ScanUsers(ctx context.Context, after string, limit int) (users []domain.User, next string, err error)
}

// Tweets enumerates the tweets.
type Tweets interface {
	ScanTweets(ctx context.Context, after string, limit int) (tweets []domain.Tweet, next string, err error)
}

// Authors enumerates the blog's authors, with their post counts.
type Authors interface {
	ScanAuthors(ctx context.Context, after string, limit int) (authors []model.Author, next string, err error)
}

// Entries enumerates the blog's entries.
type Entries interface {
	ScanEntries(ctx context.Context, after string, limit int) (entries []model.Entry, next string, err error)
}
