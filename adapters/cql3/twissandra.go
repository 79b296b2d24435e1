package cql3

import (
	"context"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/gocql/gocql"
	"github.com/google/uuid"
	"github.com/scylladb/gocqlx/v2"
	"github.com/scylladb/gocqlx/v2/qb"

	"twissandra/domain"
	"twissandra/internal/parallel"
	"twissandra/ports"
)

// maxIn bounds the keys of one IN multiget. The use cases ask for at most a page (200) at a
// time; a longer list is split into sequential chunks of this size.
const maxIn = 256

// partitionBatchSize bounds the statements of one single-partition batch (backfill inserts,
// unfollow range deletes): one mutation, well under the batch size limits.
const partitionBatchSize = 200

// publicLineName is the one partition key value of public_days.
const publicLineName = "public"

// query binds m to st under ctx.
func query(ctx context.Context, sess gocqlx.Session, st stmt, m qb.M) *gocqlx.Queryx {
	return sess.ContextQuery(ctx, st.cql, st.names).BindMap(m)
}

// cas runs a lightweight transaction at the configured serial consistency and reports whether
// it applied (see CAS).
func (s *Store) cas(ctx context.Context, sess gocqlx.Session, st stmt, m qb.M) (applied bool, err error) {
	return s.CAS(query(ctx, sess, st, m))
}

// CAS runs q, a lightweight transaction, at the configured serial consistency, releases it and
// reports whether it applied. It is never retried by the driver: a retry of a proposal that did
// commit would find its own write and report "not applied".
func (s *Store) CAS(q *gocqlx.Queryx) (applied bool, err error) {
	defer q.Release()
	q.SerialConsistency(s.cfg.serial)
	q.RetryPolicy(nil)
	// The columns of an LWT's answer depend on whether it applied: read them from each
	// response, not from the prepared statement's cached metadata.
	q.NoSkipMetadata()
	if err := q.Err(); err != nil {
		return false, err
	}
	return q.MapScanCAS(map[string]any{})
}

// CreateUser claims the username with INSERT ... IF NOT EXISTS.
func (s *Store) CreateUser(ctx context.Context, u domain.User) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	created, createdUs := splitMicros(u.CreatedAt)
	applied, err := s.cas(ctx, sess, stInsertUser, qb.M{
		"username": u.Username, "id": gu(u.ID), "password": u.PasswordHash, "created_at": created, "created_at_us": createdUs,
	})
	if err != nil {
		return wrap("create user "+u.Username, err)
	}
	if !applied {
		return fmt.Errorf("cql3: user %q: %w", u.Username, domain.ErrAlreadyExists)
	}
	return nil
}

type userRow struct {
	Username  string     `db:"username"`
	ID        gocql.UUID `db:"id"`
	Password  []byte     `db:"password"`
	CreatedAt time.Time  `db:"created_at"`
	CreatedUs int        `db:"created_at_us"`
}

func (r userRow) user() domain.User {
	return domain.User{ID: uuid.UUID(r.ID), Username: r.Username, PasswordHash: r.Password, CreatedAt: joinMicros(r.CreatedAt, r.CreatedUs)}
}

// GetUser reads one user.
func (s *Store) GetUser(ctx context.Context, username string) (domain.User, error) {
	sess, err := s.sess()
	if err != nil {
		return domain.User{}, err
	}
	var r userRow
	if err := query(ctx, sess, stGetUser, qb.M{"username": username}).GetRelease(&r); err != nil {
		return domain.User{}, wrap("get user "+username, err)
	}
	return r.user(), nil
}

// GetUsers reads the users of one page with one IN query: one round trip, which the
// coordinator fans out to the replicas. For the few dozen keys of a page that is cheaper than
// dozens of concurrent token-aware selects (each its own request, its own frame, its own
// scheduling), and it keeps a page at a fixed two round trips.
func (s *Store) GetUsers(ctx context.Context, usernames []string) ([]domain.User, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	return getIn(ctx, sess, stGetUsers, "username", "get users", usernames, func(r *userRow) (string, domain.User) {
		return r.Username, r.user()
	})
}

// Friends lists whom username follows, by friend name; the cursor is the last name seen.
func (s *Store) Friends(ctx context.Context, username, after string, limit int) ([]domain.Follow, error) {
	return s.follows(ctx, "friends", stFriends, stFriendsAfter, "friend", username, after, limit)
}

// Followers lists who follows username, by follower name.
func (s *Store) Followers(ctx context.Context, username, after string, limit int) ([]domain.Follow, error) {
	return s.follows(ctx, "followers", stFollowers, stFollowersAfter, "follower", username, after, limit)
}

func (s *Store) follows(ctx context.Context, what string, first, rest stmt, col, username, after string, limit int) ([]domain.Follow, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		return nil, nil
	}
	if !utf8.ValidString(after) {
		return nil, domain.Invalid("start", "is not a cursor this server made")
	}
	st, m := first, qb.M{"username": username, "limit": limit}
	if after != "" {
		st, m[col] = rest, after
	}
	q := query(ctx, sess, st, m)
	q.PageSize(limit)
	iter := q.Iter()
	var (
		out   []domain.Follow
		name  string
		since time.Time
		us    int
	)
	for iter.Scan(&name, &since, &us) {
		if name == "" {
			// A partition whose rows are all gone still holds its static follower_count
			// (migration 005), and CQL answers it as one row with no clustering key.
			continue
		}
		out = append(out, domain.Follow{Username: name, Since: joinMicros(since, us), Cursor: name})
	}
	if err := iter.Close(); err != nil {
		return nil, wrap(what+" of "+username, err)
	}
	return out, nil
}

// SaveTweet upserts the tweet.
func (s *Store) SaveTweet(ctx context.Context, t domain.Tweet) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	created, createdUs := splitMicros(t.CreatedAt)
	return wrap("save tweet", query(ctx, sess, stInsertTweet, qb.M{
		"tweet_id": gu(t.ID), "username": t.Username, "body": t.Body, "created_at": created, "created_at_us": createdUs,
	}).ExecRelease())
}

type tweetRow struct {
	TweetID   gocql.UUID `db:"tweet_id"`
	Username  string     `db:"username"`
	Body      string     `db:"body"`
	CreatedAt time.Time  `db:"created_at"`
	CreatedUs int        `db:"created_at_us"`
}

func (r tweetRow) tweet() domain.Tweet {
	return domain.Tweet{ID: uuid.UUID(r.TweetID), Username: r.Username, Body: r.Body, CreatedAt: joinMicros(r.CreatedAt, r.CreatedUs)}
}

// GetTweet reads one tweet.
func (s *Store) GetTweet(ctx context.Context, id uuid.UUID) (domain.Tweet, error) {
	sess, err := s.sess()
	if err != nil {
		return domain.Tweet{}, err
	}
	var r tweetRow
	if err := query(ctx, sess, stGetTweet, qb.M{"tweet_id": gu(id)}).GetRelease(&r); err != nil {
		return domain.Tweet{}, wrap("get tweet "+id.String(), err)
	}
	return r.tweet(), nil
}

// GetTweets reads the tweets of one page with one IN query (see GetUsers for why IN).
func (s *Store) GetTweets(ctx context.Context, ids []uuid.UUID) ([]domain.Tweet, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	return getIn(ctx, sess, stGetTweets, "tweet_id", "get tweets", ids, func(r *tweetRow) (uuid.UUID, domain.Tweet) {
		t := r.tweet()
		return t.ID, t
	})
}

// getIn reads rows by key with IN queries of at most maxIn keys (a page's keys: one round trip)
// and returns what it found in the order of keys: a key with no row is left out, a key asked
// twice is returned twice. row turns a scanned row into its key and record.
func getIn[K comparable, R any, T any](ctx context.Context, sess gocqlx.Session, st stmt, column, what string, keys []K, row func(*R) (K, T)) ([]T, error) {
	found := make(map[K]T, len(keys))
	for chunk := range slices.Chunk(keys, maxIn) {
		iter := query(ctx, sess, st, qb.M{column: inValues(chunk)}).Iter()
		var r R
		for iter.StructScan(&r) {
			k, v := row(&r)
			found[k] = v
			var zero R
			r = zero
		}
		if err := iter.Close(); err != nil {
			return nil, wrap(what, err)
		}
	}
	out := make([]T, 0, len(keys))
	for _, k := range keys {
		if v, ok := found[k]; ok {
			out = append(out, v)
		}
	}
	return out, nil
}

// inValues is the bound value of an IN over keys: uuids as the driver's type, others as they are.
func inValues[K comparable](keys []K) any {
	if ids, ok := any(keys).([]uuid.UUID); ok {
		out := make([]gocql.UUID, len(ids))
		for i, id := range ids {
			out[i] = gu(id)
		}
		return out
	}
	return keys
}

// lineWrite is one insert of a fan-out.
type lineWrite struct {
	st   stmt
	args []any
}

// writesFor lists the inserts that put e into line: one row, plus the public day's row in
// public_days the first time this process writes that day.
func (s *Store) writesFor(e domain.LineEntry, line domain.LineKey, out []lineWrite) ([]lineWrite, error) {
	t, id := gu(lineTime(e)), gu(e.TweetID)
	// The tweet the row carries (query-first, migration 004); an entry without one leaves those
	// columns unset, neither written nor deleted.
	author, body, created, createdUs := any(gocql.UnsetValue), any(gocql.UnsetValue), any(gocql.UnsetValue), any(gocql.UnsetValue)
	if tw := e.Tweet; tw != nil && tw.ID == e.TweetID {
		ms, us := splitMicros(tw.CreatedAt)
		author, body, created, createdUs = tw.Username, tw.Body, ms, us
	}
	switch line.Kind {
	case domain.Userline:
		return append(out, lineWrite{userlineStmts.insert, []any{line.Owner, t, id, author, body, created, createdUs}}), nil
	case domain.Timeline:
		return append(out, lineWrite{timelineStmts.insert, []any{line.Owner, t, id, author, body, created, createdUs}}), nil
	case domain.Public:
		day := dayOf(e.Time)
		out = append(out, lineWrite{publicLineStmts.insert, []any{day, t, id, author, body, created, createdUs}})
		if _, known := s.publicDays.Load(day.Unix()); !known {
			out = append(out, lineWrite{stInsertPublicDay, []any{publicLineName, day}})
		}
		return out, nil
	}
	return nil, domain.Invalid("line", "unknown line kind %d", line.Kind)
}

func checkEntry(e domain.LineEntry) error {
	if e.Time <= 0 || e.TweetID == uuid.Nil {
		return domain.Invalid("entry", "needs a positive time and a tweet ID")
	}
	return nil
}

// AppendToFollowers pages author's followers partition and inserts e into their timelines
// as Append does (ports.AppendToFollowersWith): the CQL tables name a timeline by its
// owner's username, as the followers partition names the followers.
func (s *Store) AppendToFollowers(ctx context.Context, e domain.LineEntry, author string, lines ...domain.LineKey) (int, error) {
	return ports.AppendToFollowersWith(ctx, s, s, e, author, lines...)
}

// Append fans e out as concurrent single-partition inserts, at most FanoutConcurrency in
// flight: each goes straight to a replica of its partition (token-aware), none waits for
// another, and no coordinator has to hold a giant multi-partition batch. A tweet to 5,000
// followers is 5,000 small independent writes that finish in about 5,000/32 round trips.
func (s *Store) Append(ctx context.Context, e domain.LineEntry, lines ...domain.LineKey) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	if err := checkEntry(e); err != nil {
		return err
	}
	writes := make([]lineWrite, 0, len(lines)+1)
	for _, l := range lines {
		if writes, err = s.writesFor(e, l, writes); err != nil {
			return err
		}
	}
	err = parallel.For(ctx, len(writes), s.cfg.FanoutConcurrency, func(ctx context.Context, i int) error {
		w := writes[i]
		return sess.Session.Query(w.st.cql, w.args...).WithContext(ctx).Idempotent(true).Exec()
	})
	if err != nil {
		return wrap("append", err)
	}
	if slices.ContainsFunc(lines, func(l domain.LineKey) bool { return l.Kind == domain.Public }) {
		s.notePublicDays(e.Time)
	}
	return nil
}

// notePublicDays remembers that the day of micros is in public_days (its write succeeded).
func (s *Store) notePublicDays(micros int64) {
	s.publicDays.Store(dayOf(micros).Unix(), struct{}{})
	s.notePublicNewest(dayOf(micros))
}

// AppendEntries writes many entries into one line: each partition's rows go in unlogged
// single-partition batches (one mutation, one round trip each), the partitions concurrently.
func (s *Store) AppendEntries(ctx context.Context, line domain.LineKey, entries []domain.LineEntry) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	// Group the writes by partition: the statement (table) and its partition key value.
	groups := map[string][]lineWrite{}
	var order []string
	for _, e := range entries {
		if err := checkEntry(e); err != nil {
			return err
		}
		ws, err := s.writesFor(e, line, nil)
		if err != nil {
			return err
		}
		for _, w := range ws {
			key := w.st.cql + "\x00" + fmt.Sprint(w.args[0])
			if _, seen := groups[key]; !seen {
				order = append(order, key)
			}
			groups[key] = append(groups[key], w)
		}
	}
	var batches [][]lineWrite
	for _, key := range order {
		for chunk := range slices.Chunk(groups[key], partitionBatchSize) {
			batches = append(batches, chunk)
		}
	}
	err = parallel.For(ctx, len(batches), s.cfg.FanoutConcurrency, func(ctx context.Context, i int) error {
		b := sess.NewBatch(gocql.UnloggedBatch).WithContext(ctx)
		for _, w := range batches[i] {
			b.Query(w.st.cql, w.args...)
		}
		return sess.ExecuteBatch(b)
	})
	if err != nil {
		return wrap("append entries", err)
	}
	for _, e := range entries {
		if line.Kind == domain.Public {
			s.notePublicDays(e.Time)
		}
	}
	return nil
}

func lineStmtsOf(kind domain.LineKind) (lineStmts, error) {
	switch kind {
	case domain.Userline:
		return userlineStmts, nil
	case domain.Timeline:
		return timelineStmts, nil
	case domain.Public:
		return publicLineStmts, nil
	}
	return lineStmts{}, domain.Invalid("line", "unknown line kind %d", kind)
}

// ReadPage runs plan on the store's partitions: their rows carry their tweets (migration
// 004), so a page reads no tweets table, but for rows older than that migration, whose tweets
// it reads by ID (SELECT ... FROM tweets WHERE tweet_id IN ?).
func (s *Store) ReadPage(ctx context.Context, limit int, plan domain.PagePlan) ([]domain.LineEntry, error) {
	return ports.ReadPageWith(ctx, s, s, limit, plan)
}

// Backfill reads from's newest rows, tweets included, and writes them whole into line's
// partition (AppendEntries), reading by ID only the tweets of rows older than migration 004.
func (s *Store) Backfill(ctx context.Context, line, from domain.LineKey, limit int) error {
	return ports.BackfillWith(ctx, s, s, line, from, limit)
}

// sliceConcurrency bounds the queries of one SliceMany in flight.
const sliceConcurrency = 16

// bulkSlices is how many slices of one table from their newest row, of one size, SliceMany
// reads in one query (per maxIn) rather than one each: past the queries in flight at once.
const bulkSlices = sliceConcurrency

// SliceMany sends the slices at once (at most sliceConcurrency queries in flight): a merged
// home page waits about one round trip for its timeline and every userline, not one per line.
// Slices of many partitions (bulkSlices or more) of one table from their newest row, of one
// size, go as one query per maxIn partitions (SELECT ... WHERE username IN ? PER PARTITION LIMIT ?): the heads
// of a page's pulled authors cost a query, not a query each.
func (s *Store) SliceMany(ctx context.Context, reqs []domain.LineSlice) ([][]domain.LineEntry, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	type group struct {
		kind  domain.LineKind
		limit int
	}
	groups := map[group][]int{}
	var order []group
	for i, r := range reqs {
		if r.Before <= 0 && r.Limit > 0 && (r.Line.Kind == domain.Userline || r.Line.Kind == domain.Timeline) {
			g := group{r.Line.Kind, r.Limit}
			if _, ok := groups[g]; !ok {
				order = append(order, g)
			}
			groups[g] = append(groups[g], i)
		}
	}
	var tasks []func(ctx context.Context) error
	out := make([][]domain.LineEntry, len(reqs))
	bulk := make([]bool, len(reqs))
	for _, g := range order {
		idx := groups[g]
		if len(idx) < bulkSlices {
			continue // a few partitions: their own queries, at once, wait least
		}
		byOwner := map[string][]int{}
		var owners []string
		for _, i := range idx {
			bulk[i] = true
			o := reqs[i].Line.Owner
			if _, ok := byOwner[o]; !ok {
				owners = append(owners, o)
			}
			byOwner[o] = append(byOwner[o], i)
		}
		ls, err := lineStmtsOf(g.kind)
		if err != nil {
			return nil, err
		}
		for chunk := range slices.Chunk(owners, maxIn) {
			tasks = append(tasks, func(ctx context.Context) error {
				got, err := s.sliceHeads(ctx, sess, ls, chunk, g.limit)
				if err != nil {
					return wrap("slice heads", err)
				}
				for _, o := range chunk {
					for _, i := range byOwner[o] {
						out[i] = got[o]
					}
				}
				return nil
			})
		}
	}
	for i, r := range reqs {
		if !bulk[i] {
			tasks = append(tasks, func(ctx context.Context) error {
				var err error
				out[i], err = s.Slice(ctx, r.Line, r.Before, r.Limit)
				return err
			})
		}
	}
	if err := parallel.For(ctx, len(tasks), sliceConcurrency, func(ctx context.Context, i int) error { return tasks[i](ctx) }); err != nil {
		return nil, err
	}
	return out, nil
}

// sliceHeads reads the newest limit rows of each of keys' partitions in one query.
func (s *Store) sliceHeads(ctx context.Context, sess gocqlx.Session, ls lineStmts, keys []string, limit int) (map[string][]domain.LineEntry, error) {
	q := sess.ContextQuery(ctx, ls.heads.cql, ls.heads.names).Bind(keys, limit)
	q.PageSize(min(limit*len(keys), 5000))
	iter := q.Iter()
	out := make(map[string][]domain.LineEntry, len(keys))
	var (
		key          string
		t, id        gocql.UUID
		author, body string
		created      time.Time
		createdUs    int
	)
	for iter.Scan(&key, &t, &id, &author, &body, &created, &createdUs) {
		e := domain.LineEntry{Time: microsOf(uuid.UUID(t)), TweetID: uuid.UUID(id)}
		if author != "" && body != "" {
			e.Tweet = &domain.Tweet{ID: e.TweetID, Username: author, Body: body, CreatedAt: joinMicros(created, createdUs)}
		}
		out[key] = append(out[key], e)
		author, body, created, createdUs = "", "", time.Time{}, 0
	}
	return out, iter.Close()
}

// Slice reads one line newest first: for a user's line, one query on its partition.
func (s *Store) Slice(ctx context.Context, line domain.LineKey, before int64, limit int) ([]domain.LineEntry, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		return nil, nil
	}
	if line.Kind == domain.Public {
		return s.slicePublic(ctx, sess, before, limit)
	}
	ls, err := lineStmtsOf(line.Kind)
	if err != nil {
		return nil, err
	}
	out, err := s.sliceOne(ctx, sess, ls, line.Owner, before, limit, nil)
	return out, wrap("slice "+line.String(), err)
}

// sliceOne reads up to limit entries of one partition older than before, appending to out.
func (s *Store) sliceOne(ctx context.Context, sess gocqlx.Session, ls lineStmts, key any, before int64, limit int, out []domain.LineEntry) ([]domain.LineEntry, error) {
	var q *gocqlx.Queryx
	if before > 0 {
		q = sess.ContextQuery(ctx, ls.sliceUntil.cql, ls.sliceUntil.names).Bind(key, gu(minTimeUUID(before)), limit)
	} else {
		q = sess.ContextQuery(ctx, ls.slice.cql, ls.slice.names).Bind(key, limit)
	}
	q.PageSize(limit)
	iter := q.Iter()
	// Plain values, not pointers: a null scans as "" and the zero time, and no tweet has an
	// empty author or body, so an unfilled row (older than migration 004) reads as author "".
	// Pointers would cost an allocation per column of every row.
	var (
		t, id        gocql.UUID
		author, body string
		created      time.Time
		createdUs    int
	)
	for iter.Scan(&t, &id, &author, &body, &created, &createdUs) {
		e := domain.LineEntry{Time: microsOf(uuid.UUID(t)), TweetID: uuid.UUID(id)}
		if author != "" && body != "" {
			e.Tweet = &domain.Tweet{ID: e.TweetID, Username: author, Body: body, CreatedAt: joinMicros(created, createdUs)}
		}
		out = append(out, e)
		author, body, created, createdUs = "", "", time.Time{}, 0
	}
	return out, iter.Close()
}

// publicDaysBatch is how many day buckets one read of public_days returns.
const publicDaysBatch = 16

// publicDaysRefresh is how long the newest public day read from public_days is trusted: a page
// of the public line starts at the newest day without asking, and another server's first post of
// a new day shows within this delay (this process's own posts, and the calendar day, at once).
const publicDaysRefresh = time.Second

// newestPublicDay is where the public line starts: the newest day in public_days (read again at
// most once per publicDaysRefresh) or the newest day this process posted to, whichever is
// later. The zero time when the line is empty.
func (s *Store) newestPublicDay(ctx context.Context, sess gocqlx.Session) (time.Time, error) {
	now := time.Now()
	if checked := s.publicNewestAt.Load(); checked == 0 || now.UnixNano()-checked > int64(publicDaysRefresh) {
		var days []time.Time
		if err := query(ctx, sess, stPublicDays, qb.M{"line": publicLineName, "limit": 1}).SelectRelease(&days); err != nil {
			return time.Time{}, wrap("slice public days", err)
		}
		if len(days) == 1 {
			s.notePublicNewest(days[0])
		}
		s.publicNewestAt.Store(now.UnixNano())
	}
	newest := s.publicNewest.Load()
	if newest == 0 {
		return time.Time{}, nil
	}
	return time.Unix(newest, 0).UTC(), nil
}

// notePublicNewest raises the newest public day known to day.
func (s *Store) notePublicNewest(day time.Time) {
	for {
		old := s.publicNewest.Load()
		if day.Unix() <= old || s.publicNewest.CompareAndSwap(old, day.Unix()) {
			return
		}
	}
}

// slicePublic reads a page of the public line: in the common case one query, the slice of the
// day bucket the page starts in. Only when that day holds less than a page does it walk back
// across the older buckets, which public_days lists newest first: the walk visits non-empty
// buckets only and ends where the list ends, at the first day anything was posted; there is
// never a probe of an empty calendar day, nor a walk back to 1970 on an empty line.
func (s *Store) slicePublic(ctx context.Context, sess gocqlx.Session, before int64, limit int) ([]domain.LineEntry, error) {
	var first time.Time
	if before > 0 {
		first = dayOf(before - 1)
	} else {
		var err error
		if first, err = s.newestPublicDay(ctx, sess); err != nil || first.IsZero() {
			return nil, err
		}
	}
	out, err := s.sliceOne(ctx, sess, publicLineStmts, first, before, limit, nil)
	if err != nil {
		return nil, wrap("slice public line", err)
	}
	from := first.AddDate(0, 0, -1) // the newest older day still to visit
	for len(out) < limit {
		var days []time.Time
		q := query(ctx, sess, stPublicDaysUntil, qb.M{"line": publicLineName, "day": from, "limit": publicDaysBatch})
		if err := q.SelectRelease(&days); err != nil {
			return nil, wrap("slice public days", err)
		}
		for _, day := range days {
			if out, err = s.sliceOne(ctx, sess, publicLineStmts, day, before, limit-len(out), out); err != nil {
				return nil, wrap("slice public line", err)
			}
			if len(out) == limit {
				return out, nil
			}
		}
		if len(days) < publicDaysBatch {
			return out, nil
		}
		from = days[len(days)-1].AddDate(0, 0, -1)
	}
	return out, nil
}

// Remove deletes the entries of these times from line. The port names an entry by its time,
// and a tweet's row may carry any of the timeuuids of that microsecond, so each time becomes a
// range delete over exactly that microsecond (minTimeUUID(t) <= time <= maxTimeUUID(t)): exact,
// with no read first. A line's times go in unlogged single-partition batches: one mutation of
// one partition per chunk, applied atomically by its replicas.
func (s *Store) Remove(ctx context.Context, line domain.LineKey, times ...int64) error {
	sess, err := s.sess()
	if err != nil {
		return err
	}
	ls, err := lineStmtsOf(line.Kind)
	if err != nil {
		return err
	}
	type span struct {
		key any
		t   int64
	}
	var spans []span
	for _, t := range times {
		if t <= 0 {
			continue
		}
		var key any = line.Owner
		if line.Kind == domain.Public {
			key = dayOf(t)
		}
		spans = append(spans, span{key, t})
	}
	// Group by partition (the public line's times may fall on different days).
	slices.SortStableFunc(spans, func(a, b span) int { return compareKeys(a.key, b.key) })
	var batches [][]span
	for i := 0; i < len(spans); {
		j := i
		for j < len(spans) && j-i < partitionBatchSize && compareKeys(spans[j].key, spans[i].key) == 0 {
			j++
		}
		batches = append(batches, spans[i:j])
		i = j
	}
	err = parallel.For(ctx, len(batches), s.cfg.FanoutConcurrency, func(ctx context.Context, i int) error {
		b := sess.NewBatch(gocql.UnloggedBatch).WithContext(ctx)
		for _, sp := range batches[i] {
			b.Query(ls.deleteSpan.cql, sp.key, gu(minTimeUUID(sp.t)), gu(maxTimeUUID(sp.t)))
		}
		return sess.ExecuteBatch(b)
	})
	return wrap("remove from "+line.String(), err)
}

func compareKeys(a, b any) int {
	switch a := a.(type) {
	case time.Time:
		return a.Compare(b.(time.Time))
	case string:
		bs := b.(string)
		switch {
		case a < bs:
			return -1
		case a > bs:
			return 1
		}
	}
	return 0
}
