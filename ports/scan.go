package ports

import (
	"context"

	"twissandra/domain"
	"twissandra/domain/blog/model"
)

// The scanners enumerate a store whole, for the tools that copy, dump or verify everything
// (migrate, dump). They are optional: the use cases never scan, and a store that cannot
// enumerate simply does not implement them.
//
// Every scanner pages the same way: it returns at most limit records after the position after
// ("" = from the start), in the store's own stable order (a hash order on Cassandra: token
// order), and next, the position to pass back for the following page; next is "" once the scan
// has reached the end. A page may hold fewer than limit records (rows being written or deleted
// are skipped) and still have a next. Positions are opaque strings of the store; a position the
// store cannot read is domain.ErrInvalid. A scan running while the store changes sees every
// record that exists throughout, and the others at most once.

// UserScanner enumerates the users, with their IDs, password hashes and creation times.
type UserScanner interface {
	ScanUsers(ctx context.Context, after string, limit int) (users []domain.User, next string, err error)
}

// TweetScanner enumerates the tweets.
type TweetScanner interface {
	ScanTweets(ctx context.Context, after string, limit int) (tweets []domain.Tweet, next string, err error)
}

// AuthorScanner enumerates the blog's authors, with their post counts.
type AuthorScanner interface {
	ScanAuthors(ctx context.Context, after string, limit int) (authors []model.Author, next string, err error)
}

// EntryScanner enumerates the blog's entries.
type EntryScanner interface {
	ScanEntries(ctx context.Context, after string, limit int) (entries []model.Entry, next string, err error)
}
