package cql3

import (
	"context"
	"fmt"
	"time"

	"github.com/gocql/gocql"
	"github.com/google/uuid"
	"github.com/scylladb/gocqlx/v2/qb"

	"twissandra/domain"
	"twissandra/internal/parallel"
)

// Filling the query-first lines in place. Migration 004 added the tweet's columns to the line
// tables; rows written before it hold only tweet_id, and readers fetch their tweets by ID until
// FillLines has copied the tweets into them. It runs on a live keyspace, beside the servers:
//
//   - each row is written with the timestamp of its own tweet_id cell (USING TIMESTAMP), so a
//     row an unfollow deletes meanwhile stays deleted: the delete's tombstone is newer than the
//     fill, whichever lands first;
//   - it is idempotent, so it resumes by running again: filled rows are skipped;
//   - it ends with a verification pass that counts the rows still lacking their tweet.

// FillReport is what one FillLines did.
type FillReport struct {
	Scanned  int // line rows read
	Filled   int // rows given their tweet
	Dangling int // rows naming a tweet that does not exist (a write cut short): left alone
	Left     int // rows that the verification found still lacking a tweet that exists
}

// fillBatch is how many unfilled rows one lookup of tweets serves.
const fillBatch = 100

type lineTable struct {
	name, pk string
}

var filledTables = []lineTable{{"userline", "username"}, {"timeline", "username"}, {"public_line", "day"}}

// fillStmts write a row's tweet at the row's own write time (one prepared statement a table).
var fillStmts = func() map[string]string {
	m := map[string]string{}
	for _, t := range filledTables {
		m[t.name], _ = qb.Update(t.name).TimestampNamed("ts").Set("author", "body", "created_at", "created_at_us").
			Where(qb.Eq(t.pk), qb.Eq("time")).ToCql()
	}
	return m
}()

type unfilled struct {
	table lineTable
	key   any
	time  gocql.UUID
	tweet gocql.UUID
	ts    int64
}

// FillLines fills every line row that lacks its tweet, then verifies. progress, if not nil, is
// told of each row read.
func (s *Store) FillLines(ctx context.Context, progress func(scanned int)) (FillReport, error) {
	var r FillReport
	err := s.eachUnfilled(ctx, func(n int) {
		r.Scanned += n
		if progress != nil {
			progress(n)
		}
	}, func(rows []unfilled) error {
		filled, dangling, err := s.fill(ctx, rows)
		r.Filled += filled
		r.Dangling += dangling
		return err
	})
	if err != nil {
		return r, err
	}
	left, err := s.countUnfilled(ctx)
	r.Left = left
	return r, err
}

// countUnfilled is the verification: rows lacking a tweet that exists.
func (s *Store) countUnfilled(ctx context.Context) (int, error) {
	left := 0
	err := s.eachUnfilled(ctx, nil, func(rows []unfilled) error {
		found, err := s.tweetsByID(ctx, rows)
		for _, row := range rows {
			if _, ok := found[uuid.UUID(row.tweet)]; ok {
				left++
			}
		}
		return err
	})
	return left, err
}

// eachUnfilled pages through the line tables with the driver's paging and hands the rows
// lacking their tweet to do, fillBatch at a time.
func (s *Store) eachUnfilled(ctx context.Context, scanned func(int), do func([]unfilled) error) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	for _, t := range filledTables {
		stmt := fmt.Sprintf("SELECT %s, time, tweet_id, body, WRITETIME(tweet_id) FROM %s", t.pk, t.name)
		q := sess.ContextQuery(ctx, stmt, nil)
		q.PageSize(1000)
		iter := q.Iter()
		var (
			key       any
			tm, tweet gocql.UUID
			body      *string
			ts        int64
			batch     []unfilled
			n         int
		)
		if t.pk == "day" {
			var day time.Time
			key = &day
		} else {
			var name string
			key = &name
		}
		for iter.Scan(key, &tm, &tweet, &body, &ts) {
			n++
			if n%1000 == 0 && scanned != nil {
				scanned(1000)
			}
			if body != nil {
				continue
			}
			var k any
			switch v := key.(type) {
			case *time.Time:
				k = *v
			case *string:
				k = *v
			}
			batch = append(batch, unfilled{table: t, key: k, time: tm, tweet: tweet, ts: ts})
			if len(batch) == fillBatch {
				if err := do(batch); err != nil {
					q.Release()
					return err
				}
				batch = batch[:0]
			}
		}
		err := iter.Close()
		q.Release()
		if err != nil {
			return wrap("scan "+t.name, err)
		}
		if scanned != nil {
			scanned(n % 1000)
		}
		if len(batch) > 0 {
			if err := do(batch); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *Store) tweetsByID(ctx context.Context, rows []unfilled) (map[uuid.UUID]domain.Tweet, error) {
	ids := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		ids[i] = uuid.UUID(r.tweet)
	}
	tweets, err := s.GetTweets(ctx, ids)
	found := make(map[uuid.UUID]domain.Tweet, len(tweets))
	for _, t := range tweets {
		found[t.ID] = t
	}
	return found, err
}

// fill writes each row's tweet into it, at the row's own write time.
func (s *Store) fill(ctx context.Context, rows []unfilled) (filled, dangling int, err error) {
	sess, err := s.sess()
	if err != nil {
		return 0, 0, err
	}
	found, err := s.tweetsByID(ctx, rows)
	if err != nil {
		return 0, 0, err
	}
	var todo []unfilled
	for _, r := range rows {
		if _, ok := found[uuid.UUID(r.tweet)]; ok {
			todo = append(todo, r)
		} else {
			dangling++
		}
	}
	err = parallel.For(ctx, len(todo), s.cfg.FanoutConcurrency, func(ctx context.Context, i int) error {
		r := todo[i]
		tw := found[uuid.UUID(r.tweet)]
		ms, us := splitMicros(tw.CreatedAt)
		return sess.Session.Query(fillStmts[r.table.name], r.ts, tw.Username, tw.Body, ms, us, r.key, r.time).WithContext(ctx).Idempotent(true).Exec()
	})
	if err != nil {
		return 0, dangling, wrap("fill lines", err)
	}
	return len(todo), dangling, nil
}
