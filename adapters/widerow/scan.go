package widerow

import (
	"context"

	"github.com/google/uuid"

	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/domain/blog/model"
)

// The scanners (scan.Users, scan.Tweets, scan.Authors, scan.Entries) page through a
// column family with get_range_slices, so they walk the rows in RandomPartitioner token order
// (the MD5 of the key), not key order. A position is the last row key returned; the next page
// starts AT that key (KeyRange.StartKey is inclusive and orders by token, then key) and drops
// it. Resuming by key rather than by token (StartToken is exclusive) keeps two keys of one token
// from being skipped, however unlikely an MD5 collision is.

// scanRows returns at most limit rows of cf after the row key after, and the next position.
func scanRows(ctx context.Context, node *engine.Node, keyspace, cf, after string, limit int, pred engine.SlicePredicate) ([]engine.KeySlice, string, error) {
	if limit <= 0 {
		return nil, "", domain.Invalid("limit", "must be positive")
	}
	want := limit + 1 // one more tells whether anything follows
	if after != "" {
		want++ // the row at after comes back first
	}
	rows, err := node.GetRangeSlices(ctx, keyspace, engine.ColumnParent{ColumnFamily: cf}, pred,
		engine.KeyRange{StartKey: after, Count: int32(min(want, 1<<30))}, cl)
	if err != nil {
		return nil, "", wrap("scan "+cf, err)
	}
	if after != "" && len(rows) > 0 && rows[0].Key == after {
		rows = rows[1:]
	}
	if len(rows) <= limit {
		return rows, "", nil
	}
	rows = rows[:limit]
	return rows, rows[len(rows)-1].Key, nil
}

// ScanUsers pages through the User rows. A row is a user only if the Username index names it:
// a sign-up that lost the race for its name (or stopped before claiming it) leaves a User row
// that no one can log in to, and it is skipped.
func (s *Store) ScanUsers(ctx context.Context, after string, limit int) ([]domain.User, string, error) {
	rows, next, err := scanRows(ctx, s.node, KeyspaceTwissandra, cfUser, after, limit, all(16))
	if err != nil {
		return nil, "", err
	}
	users := make([]domain.User, 0, len(rows))
	keys := make([]string, 0, len(rows))
	names := make([]string, 0, len(rows))
	for _, r := range rows {
		if u := userFrom(r.Columns); u.Username != "" {
			users = append(users, u)
			keys = append(keys, r.Key)
			names = append(names, u.Username)
		}
	}
	ids, err := s.userIDs(ctx, names)
	if err != nil {
		return nil, "", err
	}
	out := users[:0]
	for i, u := range users {
		if ids[u.Username] == keys[i] {
			out = append(out, u)
		}
	}
	return out, next, nil
}

// ScanTweets pages through the Tweet rows, naming each tweet's author.
func (s *Store) ScanTweets(ctx context.Context, after string, limit int) ([]domain.Tweet, string, error) {
	rows, next, err := scanRows(ctx, s.node, KeyspaceTwissandra, cfTweet, after, limit, all(8))
	if err != nil {
		return nil, "", err
	}
	ids := make([]uuid.UUID, 0, len(rows))
	cols := make([][]engine.ColumnOrSuperColumn, 0, len(rows))
	for _, r := range rows {
		if id, err := uuid.Parse(r.Key); err == nil {
			ids = append(ids, id)
			cols = append(cols, r.Columns)
		}
	}
	tweets, err := s.tweetsOf(ctx, ids, cols, false)
	if err != nil {
		return nil, "", err
	}
	return tweets, next, nil
}

// ScanAuthors pages through the Authors rows.
func (s *BlogStore) ScanAuthors(ctx context.Context, after string, limit int) ([]model.Author, string, error) {
	rows, next, err := scanRows(ctx, s.node, KeyspaceBloggyAppy, cfAuthors, after, limit, blogWholeRow())
	if err != nil {
		return nil, "", err
	}
	out := make([]model.Author, 0, len(rows))
	for _, r := range rows {
		if len(r.Columns) > 0 {
			out = append(out, decodeAuthor(r.Key, r.Columns))
		}
	}
	return out, next, nil
}

// ScanEntries pages through the BlogEntries rows; rows that are not (or not yet) entries are
// skipped, as GetEntry skips them.
func (s *BlogStore) ScanEntries(ctx context.Context, after string, limit int) ([]model.Entry, string, error) {
	rows, next, err := scanRows(ctx, s.node, KeyspaceBloggyAppy, cfBlogEntries, after, limit, blogWholeRow())
	if err != nil {
		return nil, "", err
	}
	out := make([]model.Entry, 0, len(rows))
	for _, r := range rows {
		if e, ok := decodeEntry(r.Key, r.Columns); ok {
			out = append(out, e)
		}
	}
	return out, next, nil
}
