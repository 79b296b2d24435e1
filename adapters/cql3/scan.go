package cql3

import (
	"context"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/scylladb/gocqlx/v2"
	"github.com/scylladb/gocqlx/v2/qb"
	"github.com/scylladb/gocqlx/v2/table"

	"twissandra/domain"
	"twissandra/domain/blog/model"
)

// The scanners (scan.Users, scan.Tweets, scan.Authors, scan.Entries) page through a
// table in token order, the order the partitioner lays partitions out on the ring:
//
//	SELECT ... FROM users LIMIT ?                                        (the first page)
//	SELECT ... FROM users WHERE token(username) > token(?) LIMIT ?       (every other page)
//
// A position is the partition key of the last row returned. Each of these tables has one row
// per partition, so a LIMIT counts partitions. Two keys of one Murmur3 token would be read as
// one position and the second skipped; with 2^64 tokens that needs billions of rows per
// collision, and the scan is for copying and dumping, not for proofs.

// scanStmts are the first-page and next-page statements of one table.
type scanStmts struct {
	first, after stmt
}

func newScanStmts(t *table.Table) scanStmts {
	m := t.Metadata()
	pk := m.PartKey[0]
	return scanStmts{
		first: mk(qb.Select(t.Name()).Columns(m.Columns...).LimitNamed("limit").ToCql()),
		after: mk(qb.Select(t.Name()).Columns(m.Columns...).Where(qb.Token(pk).GtNamed(pk)).LimitNamed("limit").ToCql()),
	}
}

var (
	scanUsers   = newScanStmts(usersTable)
	scanTweets  = newScanStmts(tweetsTable)
	scanAuthors = newScanStmts(authorsTable)
	scanEntries = newScanStmts(entriesTable)
)

// scanPage runs one page of st: limit+1 rows (one more tells whether anything follows) after the
// partition key after (nil: from the start of the ring). decode reads the current row and its
// partition key as a position.
func scanPage[T any](ctx context.Context, sess gocqlx.Session, what string, st scanStmts, pk string, after any, limit int, decode func(*gocqlx.Iterx) (T, string, bool)) ([]T, string, error) {
	if limit <= 0 {
		return nil, "", domain.Invalid("limit", "must be positive")
	}
	want := min(limit, 1<<30) + 1
	s, m := st.first, qb.M{"limit": want}
	if after != nil {
		s, m[pk] = st.after, after
	}
	q := query(ctx, sess, s, m)
	q.PageSize(min(want, 5000))
	iter := q.Iter()
	var (
		out  []T
		last string
		more bool
	)
	for {
		r, pos, ok := decode(iter)
		if !ok {
			break
		}
		if len(out) == limit {
			more = true
			break
		}
		out, last = append(out, r), pos
	}
	if err := iter.Close(); err != nil {
		return nil, "", wrap("scan "+what, err)
	}
	if !more {
		return out, "", nil
	}
	return out, last, nil
}

// textAfter reads a position that is a text partition key.
func textAfter(after string) (any, error) {
	if after == "" {
		return nil, nil
	}
	if !utf8.ValidString(after) {
		return nil, domain.Invalid("after", "is not a position of this store")
	}
	return after, nil
}

// ScanUsers pages through the users table. Every row is a user: a name is claimed by the
// INSERT ... IF NOT EXISTS that writes the whole row.
func (s *Store) ScanUsers(ctx context.Context, after string, limit int) ([]domain.User, string, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, "", err
	}
	from, err := textAfter(after)
	if err != nil {
		return nil, "", err
	}
	return scanPage(ctx, sess, "users", scanUsers, "username", from, limit, func(it *gocqlx.Iterx) (domain.User, string, bool) {
		var r userRow
		if !it.StructScan(&r) {
			return domain.User{}, "", false
		}
		return r.user(), r.Username, true
	})
}

// ScanTweets pages through the tweets table.
func (s *Store) ScanTweets(ctx context.Context, after string, limit int) ([]domain.Tweet, string, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, "", err
	}
	var from any
	if after != "" {
		id, err := uuid.Parse(after)
		if err != nil {
			return nil, "", domain.Invalid("after", "is not a position of this store")
		}
		from = gu(id)
	}
	return scanPage(ctx, sess, "tweets", scanTweets, "tweet_id", from, limit, func(it *gocqlx.Iterx) (domain.Tweet, string, bool) {
		var r tweetRow
		if !it.StructScan(&r) {
			return domain.Tweet{}, "", false
		}
		return r.tweet(), uuid.UUID(r.TweetID).String(), true
	})
}

// ScanAuthors pages through the authors table.
func (s *Store) ScanAuthors(ctx context.Context, after string, limit int) ([]model.Author, string, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, "", err
	}
	from, err := textAfter(after)
	if err != nil {
		return nil, "", err
	}
	return scanPage(ctx, sess, "authors", scanAuthors, "name", from, limit, func(it *gocqlx.Iterx) (model.Author, string, bool) {
		var r authorRow
		if !it.StructScan(&r) {
			return model.Author{}, "", false
		}
		return r.author(), r.Name, true
	})
}

// ScanEntries pages through the blog_entries table.
func (s *Store) ScanEntries(ctx context.Context, after string, limit int) ([]model.Entry, string, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, "", err
	}
	from, err := textAfter(after)
	if err != nil {
		return nil, "", err
	}
	return scanPage(ctx, sess, "entries", scanEntries, "slug", from, limit, func(it *gocqlx.Iterx) (model.Entry, string, bool) {
		var r entryRow
		if !it.StructScan(&r) {
			return model.Entry{}, "", false
		}
		return r.entry(), r.Slug, true
	})
}
