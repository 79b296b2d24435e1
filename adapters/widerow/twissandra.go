// Package widerow runs Twissandra and the blog on an emulation of Cassandra 0.6's data model
// (package engine), laid out exactly as the seed articles lay them out:
//
//	Keyspace Twissandra
//	  User      UTF8Type   [user uuid]  id, username, password (a bcrypt hash), created_at
//	  Username  BytesType  [username]   id -> user uuid          (the inverted index)
//	  Friends   BytesType  [user uuid]  friend uuid -> follow time
//	  Followers BytesType  [user uuid]  follower uuid -> follow time
//	  Tweet     UTF8Type   [tweet uuid] id, user_id, body, _ts
//	  Userline  LongType   [user uuid]  8-byte big-endian microseconds -> tweet uuid
//	                       ['!PUBLIC!'] the public line
//	  Timeline  LongType   [user uuid]  8-byte big-endian microseconds -> tweet uuid
//
// Times and counts are written as decimal text, as pycassa wrote Python numbers. Column names of
// the lines are longs, never the doubles the 2010 code packed by mistake.
package widerow

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/google/uuid"

	"twissandra/adapters/internal/linestore"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/ports/oplog"
)

// Keyspace and column family names of seed 001.
const (
	KeyspaceTwissandra = "Twissandra"
	cfUser             = "User"
	cfUsername         = "Username"
	cfFriends          = "Friends"
	cfFollowers        = "Followers"
	cfTweet            = "Tweet"
	cfUserline         = "Userline"
	cfTimeline         = "Timeline"
	// PublicKey is the Userline row of the public line; no username can contain '!'.
	PublicKey = "!PUBLIC!"
)

const cl = engine.QUORUM

// Store implements ports.UserStore, ports.TweetStore and ports.LineStore on a Node.
type Store struct {
	node    *engine.Node
	stamp   *domain.Stamper
	linesID domain.LinesID

	// idCache caches username <-> user uuid. The pair never changes once the username is
	// claimed (users are neither renamed nor deleted), so it needs no invalidation; it spares a
	// fan-out to 10,000 followers 10,000 Username lookups.
	idCache nameCache
	// followLock serialises the follows of one author, so that its count stays exact (fanout.go).
	followLock followLocks
	// pulled remembers each reader's follows among the pulled authors (fanout.go).
	pulled pulledFriends
}

// nameCache is the two-way username <-> uuid map. A plain map under a RWMutex: a fan-out reads
// 10,000 entries in one go under one read lock.
type nameCache struct {
	mu    sync.RWMutex
	ids   map[string]string    // username -> uuid
	names map[string]nameEntry // uuid -> username (and the uuid, as one string to share)
}

type nameEntry struct{ username, id string }

func (c *nameCache) put(username, id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ids == nil {
		c.ids, c.names = map[string]string{}, map[string]nameEntry{}
	}
	c.ids[username] = id
	c.names[id] = nameEntry{username, id}
}

// NewStore runs Twissandra on node.
func NewStore(node *engine.Node) *Store {
	return &Store{node: node, stamp: domain.NewStamper(domain.SystemClock{}), linesID: domain.NewLinesID(), followLock: followLocks{seed: maphash.MakeSeed()}}
}

// LinesID names the store's lines for what a server keeps of them between pages.
func (s *Store) LinesID() domain.LinesID { return s.linesID }

// Node is the engine the store runs on (for tools that read the rows themselves).
func (s *Store) Node() *engine.Node { return s.node }

// ts returns a write timestamp: microseconds, strictly increasing, so a write that follows a
// delete in this process (a re-follow after an unfollow) is never hidden by a tombstone of the
// same microsecond (a tombstone wins a tie).
func (s *Store) ts() int64 { return s.stamp.Next() }

// wrap translates the engine's errors into the domain's sentinels, keeping the original.
func wrap(op string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, engine.ErrNotFound):
		return fmt.Errorf("widerow %s: %w: %w", op, domain.ErrNotFound, err)
	case errors.Is(err, engine.ErrInvalidRequest):
		return fmt.Errorf("widerow %s: %w: %w", op, domain.ErrInvalid, err)
	case errors.Is(err, engine.ErrClosed), errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return fmt.Errorf("widerow %s: %w: %w", op, domain.ErrUnavailable, err)
	}
	return fmt.Errorf("widerow %s: %w", op, err)
}

func col(name string, value []byte, ts int64) engine.Mutation {
	return engine.Mutation{ColumnOrSuperColumn: &engine.ColumnOrSuperColumn{Column: &engine.Column{Name: []byte(name), Value: value, Timestamp: ts}}}
}

func all(count int) engine.SlicePredicate {
	return engine.SlicePredicate{SliceRange: &engine.SliceRange{Count: int32(count)}}
}

func micros(t time.Time) []byte { return []byte(strconv.FormatInt(t.UnixMicro(), 10)) }

func parseMicros(b []byte) time.Time {
	return domain.TimeFromMicros(parseDecimal(b))
}

// parseDecimal is strconv.ParseInt(string(b), 10, 64) with its error ignored, as the rows'
// decimal columns (_ts) are read: without a string made for every row of a page. A time in
// microseconds has 16 digits, read eight at a time (a page reads forty).
func parseDecimal(b []byte) int64 {
	if len(b) == 16 {
		if hi, ok := eightDigits(b[:8]); ok {
			if lo, ok := eightDigits(b[8:]); ok {
				return int64(hi*100_000_000 + lo)
			}
		}
	}
	if len(b) == 0 || len(b) > 18 {
		n, _ := strconv.ParseInt(string(b), 10, 64)
		return n
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			n, _ = strconv.ParseInt(string(b), 10, 64)
			return n
		}
		n = n*10 + int64(c-'0')
	}
	return n
}

// eightDigits reads 8 ASCII digits as one number in a few multiplications of one 64-bit word
// (each step adds neighbouring digits, then pairs, then quads); ok is false if any byte is not
// a digit.
func eightDigits(b []byte) (uint64, bool) {
	v := binary.LittleEndian.Uint64(b) // the first digit in the lowest byte
	// Each byte is 0x30-0x39: its high nibble is 3, and adding 6 keeps it 3.
	if v&0xF0F0F0F0F0F0F0F0 != 0x3030303030303030 || (v+0x0606060606060606)&0xF0F0F0F0F0F0F0F0 != 0x3030303030303030 {
		return 0, false
	}
	v -= 0x3030303030303030
	v = (v * 10) + (v >> 8)
	v = ((v & 0x000000FF000000FF) * (100 + (1000000 << 32))) + (((v >> 16) & 0x000000FF000000FF) * (1 + (10000 << 32)))
	return v >> 32, true
}

// LongName encodes a line time as a LongType column name: 8 bytes, big-endian.
func LongName(t int64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(t))
	return b[:]
}

// CreateUser writes the User row under a fresh UUID, then claims the name in the Username index
// with InsertIfAbsent: the engine's documented extension, since 0.6's blind writes could not make
// a name unique. The loser removes its User row again.
func (s *Store) CreateUser(ctx context.Context, u domain.User) error {
	id := u.ID.String()
	ts := s.ts()
	row := []engine.Mutation{
		col("id", []byte(id), ts),
		col("username", []byte(u.Username), ts),
		col("password", u.PasswordHash, ts),
		col("created_at", micros(u.CreatedAt), ts),
	}
	if err := s.node.BatchMutate(ctx, KeyspaceTwissandra, map[string]map[string][]engine.Mutation{id: {cfUser: row}}, cl); err != nil {
		return wrap("create user", err)
	}
	applied, existing, err := s.node.InsertIfAbsent(ctx, KeyspaceTwissandra, u.Username, engine.ColumnParent{ColumnFamily: cfUsername},
		engine.Column{Name: []byte("id"), Value: []byte(id), Timestamp: ts}, cl)
	if err == nil && applied {
		s.remember(u.Username, id)
		return nil
	}
	if err == nil && existing != nil && string(existing.Value) == id {
		// The same user again (a re-run import): the row just rewritten is the winner's own.
		return fmt.Errorf("widerow: username %q: %w", u.Username, domain.ErrAlreadyExists)
	}
	if rmErr := s.node.Remove(ctx, KeyspaceTwissandra, id, engine.ColumnPath{ColumnFamily: cfUser}, s.ts(), cl); rmErr != nil {
		err = errors.Join(err, rmErr)
	}
	if err != nil {
		return wrap("create user", err)
	}
	return fmt.Errorf("widerow: username %q: %w", u.Username, domain.ErrAlreadyExists)
}

func (s *Store) remember(username, id string) { s.idCache.put(username, id) }

// noteCache tells the request's storage operations that hits of asked lookups were answered by
// the adapter's name cache instead of reads: the reason why a page can cost fewer operations on
// a second visit. It describes nothing unless something records.
func noteCache(ctx context.Context, what string, hits, asked int) {
	switch {
	case hits == 0 || !oplog.Enabled(ctx):
	case !oplog.Detailed(ctx):
		oplog.Record(ctx, oplog.Op{Model: "widerow", Kind: oplog.Note, Call: "cache"})
	default:
		oplog.Record(ctx, oplog.Op{Model: "widerow", Kind: oplog.Note, Call: "cache", Family: KeyspaceTwissandra + "." + what,
			Touched: fmt.Sprintf("%d of %d", hits, asked),
			Text:    fmt.Sprintf("cache %s: %d of %d lookups answered from the adapter's memory, not read (a username and its UUID never change)", what, hits, asked)})
	}
}

// publicLines counts the public lines among lines (their row key is fixed: no lookup).
func publicLines(lines []domain.LineKey) int {
	n := 0
	for _, l := range lines {
		if l.Kind == domain.Public {
			n++
		}
	}
	return n
}

// userIDs resolves usernames to user uuids (cache, then one multiget of Username rows); names
// with no user are left out of the map.
func (s *Store) userIDs(ctx context.Context, usernames []string) (map[string]string, error) {
	out := make(map[string]string, len(usernames))
	var missing []string
	s.idCache.mu.RLock()
	for _, n := range usernames {
		if id, ok := s.idCache.ids[n]; ok {
			out[n] = id
		} else {
			missing = append(missing, n)
		}
	}
	s.idCache.mu.RUnlock()
	noteCache(ctx, "Username", len(usernames)-len(missing), len(usernames))
	if len(missing) == 0 {
		return out, nil
	}
	rows, err := s.node.MultigetSlice(ctx, KeyspaceTwissandra, missing, engine.ColumnParent{ColumnFamily: cfUsername},
		engine.SlicePredicate{ColumnNames: [][]byte{[]byte("id")}}, cl)
	if err != nil {
		return nil, wrap("username index", err)
	}
	for n, cols := range rows {
		if len(cols) == 1 && cols[0].Column != nil {
			id := string(cols[0].Column.Value)
			out[n] = id
			s.remember(n, id)
		}
	}
	return out, nil
}

func (s *Store) userID(ctx context.Context, username string) (string, bool, error) {
	ids, err := s.userIDs(ctx, []string{username})
	if err != nil {
		return "", false, err
	}
	id, ok := ids[username]
	return id, ok, nil
}

// GetUser reads the Username index, then the User row.
func (s *Store) GetUser(ctx context.Context, username string) (domain.User, error) {
	users, err := s.GetUsers(ctx, []string{username})
	if err != nil {
		return domain.User{}, err
	}
	if len(users) == 0 {
		return domain.User{}, fmt.Errorf("widerow: user %q: %w", username, domain.ErrNotFound)
	}
	return users[0], nil
}

// GetUsers is two multigets: Username rows, then User rows.
func (s *Store) GetUsers(ctx context.Context, usernames []string) ([]domain.User, error) {
	if len(usernames) == 0 {
		return nil, nil
	}
	ids, err := s.userIDs(ctx, usernames)
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(ids))
	for _, n := range usernames {
		if id, ok := ids[n]; ok {
			keys = append(keys, id)
		}
	}
	rows, err := s.userRows(ctx, keys)
	if err != nil {
		return nil, err
	}
	out := make([]domain.User, 0, len(keys))
	for _, k := range keys {
		if u, ok := rows[k]; ok {
			out = append(out, u)
		}
	}
	return out, nil
}

func (s *Store) userRows(ctx context.Context, keys []string) (map[string]domain.User, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	rows, err := s.node.MultigetSlice(ctx, KeyspaceTwissandra, keys, engine.ColumnParent{ColumnFamily: cfUser}, all(16), cl)
	if err != nil {
		return nil, wrap("user rows", err)
	}
	out := make(map[string]domain.User, len(rows))
	for k, cols := range rows {
		if u := userFrom(cols); u.Username != "" {
			out[k] = u
			s.remember(u.Username, k)
		}
	}
	return out, nil
}

// userFrom reads a User row's columns: id, username, password, created_at. A row without a
// username (written halfway, or deleted) gives a user with none.
func userFrom(cols []engine.ColumnOrSuperColumn) domain.User {
	var u domain.User
	for _, c := range cols {
		switch string(c.Column.Name) {
		case "id":
			u.ID, _ = uuid.ParseBytes(c.Column.Value)
		case "username":
			u.Username = string(c.Column.Value)
		case "password":
			u.PasswordHash = c.Column.Value
		case "created_at":
			u.CreatedAt = parseMicros(c.Column.Value)
		}
	}
	return u
}

func (s *Store) pair(ctx context.Context, username, friend string) (string, string, error) {
	ids, err := s.userIDs(ctx, []string{username, friend})
	if err != nil {
		return "", "", err
	}
	uid, ok1 := ids[username]
	fid, ok2 := ids[friend]
	if !ok1 || !ok2 {
		return "", "", fmt.Errorf("widerow: follow %q -> %q: %w", username, friend, domain.ErrNotFound)
	}
	return uid, fid, nil
}

// Friends slices the Friends row; the cursor is the friend's uuid (the column name).
func (s *Store) Friends(ctx context.Context, username, after string, limit int) ([]domain.Follow, error) {
	return s.follows(ctx, cfFriends, username, after, limit)
}

// Followers slices the Followers row.
func (s *Store) Followers(ctx context.Context, username, after string, limit int) ([]domain.Follow, error) {
	return s.follows(ctx, cfFollowers, username, after, limit)
}

func (s *Store) follows(ctx context.Context, cf, username, after string, limit int) ([]domain.Follow, error) {
	if after != "" {
		if _, err := uuid.Parse(after); err != nil {
			return nil, domain.Invalid("start", "is not a cursor this server made")
		}
	}
	id, ok, err := s.userID(ctx, username)
	if err != nil || !ok {
		return nil, err
	}
	count := limit
	if after != "" {
		count++ // the slice starts at the cursor, inclusive
	}
	cols, err := s.node.GetSlice(ctx, KeyspaceTwissandra, id, engine.ColumnParent{ColumnFamily: cf},
		engine.SlicePredicate{SliceRange: &engine.SliceRange{Start: []byte(after), Count: int32(count)}}, cl)
	if err != nil {
		return nil, wrap("slice "+cf, err)
	}
	if after != "" && len(cols) > 0 && string(cols[0].Column.Name) == after {
		cols = cols[1:]
	}
	if len(cols) > limit {
		cols = cols[:limit]
	}
	return s.followsOf(ctx, cols)
}

// followsOf reads columns of a Friends or Followers row (user uuid -> since) as follows, by name.
func (s *Store) followsOf(ctx context.Context, cols []engine.ColumnOrSuperColumn) ([]domain.Follow, error) {
	ids := make([][]byte, len(cols))
	for i, c := range cols {
		ids[i] = c.Column.Name
	}
	known, err := namesOf(ctx, s, ids)
	if err != nil {
		return nil, err
	}
	out := make([]domain.Follow, 0, len(cols))
	for i, c := range cols {
		if e := known[i]; e.username != "" { // "": a follow of a user since deleted
			out = append(out, domain.Follow{Username: e.username, Since: parseMicros(c.Column.Value), Cursor: e.id})
		}
	}
	return out, nil
}

// namesOf resolves user uuids (strings, or the column names of a Friends or Followers row) to
// entries aligned with ids: from the cache under one read lock, then one multiget of the User
// rows it lacks; a uuid no user has gives an entry with no username. A fan-out resolves
// thousands at once: entries from the cache bring their uuid strings along (to serve as
// cursors), so nothing is allocated per follower the cache knows.
func namesOf[ID ~string | ~[]byte](ctx context.Context, s *Store, ids []ID) ([]nameEntry, error) {
	out := make([]nameEntry, len(ids))
	var missing []string
	misses, missed := 0, false
	s.idCache.mu.RLock()
	for i, id := range ids {
		if i > 0 && string(id) == string(ids[i-1]) { // a page's tweets come in runs by author
			out[i] = out[i-1]
		} else if e, ok := s.idCache.names[string(id)]; ok {
			out[i], missed = e, false
		} else {
			out[i].id, missed = string(id), true
			missing = append(missing, out[i].id)
		}
		if missed {
			misses++
		}
	}
	s.idCache.mu.RUnlock()
	noteCache(ctx, "User (uuid to username)", len(ids)-misses, len(ids))
	if len(missing) == 0 {
		return out, nil
	}
	rows, err := s.userRows(ctx, missing)
	if err != nil {
		return nil, err
	}
	for i := range out {
		if out[i].username == "" {
			out[i].username = rows[out[i].id].Username
		}
	}
	return out, nil
}

// SaveTweet writes the Tweet row: id, user_id, body, _ts.
func (s *Store) SaveTweet(ctx context.Context, t domain.Tweet) error {
	uid, ok, err := s.userID(ctx, t.Username)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("widerow: tweet by unknown user %q: %w", t.Username, domain.ErrNotFound)
	}
	id, ts := t.ID.String(), s.ts()
	return wrap("save tweet", s.node.BatchMutate(ctx, KeyspaceTwissandra, map[string]map[string][]engine.Mutation{id: {cfTweet: {
		col("id", []byte(id), ts),
		col("user_id", []byte(uid), ts),
		col("body", []byte(t.Body), ts),
		col("_ts", []byte(strconv.FormatInt(t.Time(), 10)), ts),
	}}}, cl))
}

// GetTweet reads one Tweet row.
func (s *Store) GetTweet(ctx context.Context, id uuid.UUID) (domain.Tweet, error) {
	ts, err := s.GetTweets(ctx, []uuid.UUID{id})
	if err != nil {
		return domain.Tweet{}, err
	}
	if len(ts) == 0 {
		return domain.Tweet{}, fmt.Errorf("widerow: tweet %s: %w", id, domain.ErrNotFound)
	}
	return ts[0], nil
}

// GetTweets multigets the Tweet rows, then names their authors (seed 003's optional third step).
func (s *Store) GetTweets(ctx context.Context, ids []uuid.UUID) ([]domain.Tweet, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return s.getTweets(ctx, ids, uuidStrings(ids))
}

// getTweets reads the Tweet rows keyed keys, the text of ids, in one multiget.
func (s *Store) getTweets(ctx context.Context, ids []uuid.UUID, keys []string) ([]domain.Tweet, error) {
	rows, err := s.node.MultigetSliceList(ctx, KeyspaceTwissandra, keys, engine.ColumnParent{ColumnFamily: cfTweet}, all(8), cl)
	if err != nil {
		return nil, wrap("tweet rows", err)
	}
	return s.tweetsOf(ctx, ids, rows, true)
}

// uuidStrings is the row keys of ids (their canonical text), made with one allocation for all:
// a strings.Builder's bytes become the string without a copy.
func uuidStrings(ids []uuid.UUID) []string {
	const n = domain.UUIDTextLen
	var sb strings.Builder
	sb.Grow(n * len(ids))
	var b [n]byte
	for _, id := range ids {
		sb.Write(domain.AppendUUID(b[:0], id))
	}
	return cutStrings(sb.String(), n)
}

// cutStrings cuts all into strings of n bytes each, sharing its bytes.
func cutStrings(all string, n int) []string {
	keys := make([]string, len(all)/n)
	for i := range keys {
		keys[i] = all[i*n : (i+1)*n]
	}
	return keys
}

// tweetsOf decodes Tweet rows (id, user_id, body, _ts), skipping empty ones, and names their
// authors with one lookup for the lot (seed 003's optional third step). When keep is true the
// rows' bytes are never written again (MultigetSliceList's results), and the bodies are those
// bytes, not copies of them; otherwise each body is copied. A page's authors' ids are one
// string per distinct author.
func (s *Store) tweetsOf(ctx context.Context, ids []uuid.UUID, rows [][]engine.ColumnOrSuperColumn, keep bool) ([]domain.Tweet, error) {
	n := 0
	for _, cols := range rows {
		if len(cols) > 0 {
			n++
		}
	}
	// Filled in place: a Tweet holds pointers, and each copy of one is a copy under the
	// collector's write barrier.
	out := make([]domain.Tweet, n)
	authors := make([]string, n)
	k := 0
	for i, cols := range rows {
		if len(cols) == 0 {
			continue
		}
		t := &out[k]
		t.ID = ids[i]
		for _, c := range cols {
			switch v := c.Column.Value; string(c.Column.Name) {
			case "user_id":
				authors[k] = internIn(authors[:k], v)
			case "body":
				if keep && len(v) > 0 {
					t.Body = unsafe.String(unsafe.SliceData(v), len(v))
				} else {
					t.Body = string(v)
				}
			case "_ts":
				t.CreatedAt = parseMicros(v)
			}
		}
		k++
	}
	if err := s.nameAuthors(ctx, out, authors); err != nil {
		return nil, err
	}
	kept := 0
	for i := range out {
		if out[i].Username == "" {
			continue // a tweet whose author is gone
		}
		if kept != i {
			out[kept] = out[i]
		}
		kept++
	}
	return out[:kept], nil
}

// nameAuthors gives each tweet of out the username of its author, authors[i]: from the name
// cache under one read lock straight into the tweets, or, when the cache lacks one, through
// namesOf, which reads the User rows it lacks.
func (s *Store) nameAuthors(ctx context.Context, out []domain.Tweet, authors []string) error {
	missed := false
	s.idCache.mu.RLock()
	for i, id := range authors {
		if i > 0 && id == authors[i-1] { // a page's tweets come in runs by author
			out[i].Username = out[i-1].Username
		} else if e, ok := s.idCache.names[id]; ok {
			out[i].Username = e.username
		} else {
			missed = true
			break
		}
	}
	s.idCache.mu.RUnlock()
	if !missed {
		noteCache(ctx, "User (uuid to username)", len(authors), len(authors))
		return nil
	}
	names, err := namesOf(ctx, s, authors)
	if err != nil {
		return err
	}
	for i := range out {
		out[i].Username = names[i].username
	}
	return nil
}

// internIn returns b as a string, the one already in have if it is there (a page's tweets come
// from few authors: their ids are not allocated again and again).
func internIn(have []string, b []byte) string {
	for i := len(have) - 1; i >= 0 && i >= len(have)-8; i-- {
		if have[i] == string(b) {
			return have[i]
		}
	}
	return string(b)
}

// lineRow is where a line lives: a column family and a row key.
type lineRow struct{ cf, key string }

// lineRows maps lines to their rows, in order, leaving out lines of unknown users: owners'
// uuids come from the name cache under one read lock, and only misses are read.
func (s *Store) lineRows(ctx context.Context, lines []domain.LineKey) ([]lineRow, error) {
	out := make([]lineRow, 0, len(lines))
	var missing []string
	s.idCache.mu.RLock()
	for _, l := range lines {
		switch id, ok := s.idCache.ids[l.Owner]; {
		case l.Kind == domain.Public:
			out = append(out, lineRow{cfUserline, PublicKey})
		case ok:
			out = append(out, lineRow{lineCF(l.Kind), id})
		default:
			missing = append(missing, l.Owner)
		}
	}
	s.idCache.mu.RUnlock()
	if oplog.Enabled(ctx) { // counting costs a pass over a fan-out's lines: only when recorded
		p := publicLines(lines)
		noteCache(ctx, "Username", len(out)-p, len(out)-p+len(missing))
	}
	if len(missing) == 0 {
		return out, nil
	}
	ids, err := s.userIDs(ctx, missing) // fills the cache
	if err != nil {
		return nil, err
	}
	for _, l := range lines {
		if id, ok := ids[l.Owner]; ok && l.Kind != domain.Public {
			out = append(out, lineRow{lineCF(l.Kind), id})
		}
	}
	return out, nil
}

func lineCF(k domain.LineKind) string {
	if k == domain.Timeline {
		return cfTimeline
	}
	return cfUserline // the public line is a row of Userline
}

// Append writes the entry into every line in one batch: for a post with 10,000 followers that is
// one BatchMutate of 10,000 Timeline rows, one Pebble batch. Every row gets the same column, so
// all rows share one read-only mutation list.
func (s *Store) Append(ctx context.Context, e domain.LineEntry, lines ...domain.LineKey) error {
	rows, err := s.lineRows(ctx, lines)
	if err != nil {
		return err
	}
	return s.appendRows(ctx, e, rows, nil)
}

// AppendToFollowers writes the entry into lines and into the Timeline row of every follower of
// author in one batch: the column names of Followers[author's uuid] are the followers' uuids,
// which are their Timeline rows' keys, so no follower is named by username and back (the
// username of each, and its uuid again, are a map lookup each, and Followers builds a record
// per follower). The Followers row is row-cached: the names come from memory, and while it
// stays cached (until the next follow or unfollow of the author) so do their Timeline rows'
// tokens and prefixes, computed once (engine.RowSet): a post writes the same rows as
// batch_mutate would, without hashing 10,000 keys again.
func (s *Store) AppendToFollowers(ctx context.Context, e domain.LineEntry, author string, lines ...domain.LineKey) (int, error) {
	rows, err := s.lineRows(ctx, lines)
	if err != nil {
		return 0, err
	}
	id, ok, err := s.userID(ctx, author)
	if err != nil {
		return 0, err
	}
	if !ok {
		return len(rows), s.appendRows(ctx, e, rows, nil)
	}
	set, cached, err := s.node.RowsNamedBy(ctx, KeyspaceTwissandra, cfFollowers, id, cfTimeline, cl)
	if err != nil {
		return 0, wrap("fan-out followers", err)
	}
	if cached {
		shared, m := s.appendMutations(e, rows, nil)
		return len(rows) + set.Len(), wrap("append", s.node.BatchMutateRows(ctx, KeyspaceTwissandra, set, shared, m, cl))
	}
	// Not cached: read in pages, which caches the row for the next post.
	var timelines []string
	start := []byte(nil)
	for {
		n := 0
		_, err := s.node.GetSliceEach(ctx, KeyspaceTwissandra, id, engine.ColumnParent{ColumnFamily: cfFollowers},
			engine.SlicePredicate{SliceRange: &engine.SliceRange{Start: start, Count: domain.MaxFollowPage + 1}}, cl,
			func(c engine.Column) {
				if n++; n == 1 && start != nil {
					return // the page starts at the last one of the page before, inclusive
				}
				timelines = append(timelines, string(c.Name))
			})
		if err != nil {
			return 0, wrap("fan-out followers", err)
		}
		if n < domain.MaxFollowPage+1 {
			break
		}
		start = []byte(timelines[len(timelines)-1])
	}
	return len(rows) + len(timelines), s.appendRows(ctx, e, rows, timelines)
}

// appendRows writes e into rows and into the Timeline rows keyed timelines, in one batch.
func (s *Store) appendRows(ctx context.Context, e domain.LineEntry, rows []lineRow, timelines []string) error {
	_, m := s.appendMutations(e, rows, timelines)
	return wrap("append", s.node.BatchMutate(ctx, KeyspaceTwissandra, m, cl))
}

// appendMutations is the batch that writes e into rows and into the Timeline rows keyed
// timelines, and the one mutation list every row of it shares.
func (s *Store) appendMutations(e domain.LineEntry, rows []lineRow, timelines []string) ([]engine.Mutation, map[string]map[string][]engine.Mutation) {
	shared := []engine.Mutation{col(string(LongName(e.Time)), []byte(e.TweetID.String()), s.ts())}
	// Rows with only their Timeline touched (every follower's) share one read-only map too,
	// set without looking first: the few rows of other column families (the author's userline,
	// the public line) come after and merge with what a key already has.
	timelineOnly := map[string][]engine.Mutation{cfTimeline: shared}
	m := make(map[string]map[string][]engine.Mutation, len(rows)+len(timelines))
	for _, key := range timelines {
		m[key] = timelineOnly
	}
	for _, r := range rows {
		if r.cf == cfTimeline {
			m[r.key] = timelineOnly
		}
	}
	for _, r := range rows {
		if r.cf == cfTimeline {
			continue
		}
		merged := map[string][]engine.Mutation{r.cf: shared}
		for c, ms := range m[r.key] {
			merged[c] = ms
		}
		m[r.key] = merged
	}
	return shared, m
}

// AppendEntries writes many entries into one line.
func (s *Store) AppendEntries(ctx context.Context, line domain.LineKey, entries []domain.LineEntry) error {
	key, ok, err := s.lineRow(ctx, line)
	if err != nil || !ok || len(entries) == 0 {
		return err
	}
	ts := s.ts()
	muts := make([]engine.Mutation, len(entries))
	for i, e := range entries {
		muts[i] = col(string(LongName(e.Time)), []byte(e.TweetID.String()), ts)
	}
	return wrap("append entries", s.node.BatchMutate(ctx, KeyspaceTwissandra, map[string]map[string][]engine.Mutation{key: {lineCF(line.Kind): muts}}, cl))
}

func (s *Store) lineRow(ctx context.Context, line domain.LineKey) (string, bool, error) {
	rows, err := s.lineRows(ctx, []domain.LineKey{line})
	if err != nil || len(rows) == 0 {
		return "", false, err
	}
	return rows[0].key, true, nil
}

// ReadPage runs plan on the store's rows (get_slice), then reads the page's tweets with one
// multiget_slice of the Tweet column family: a line row holds tweet IDs only.
func (s *Store) ReadPage(ctx context.Context, limit int, plan domain.PagePlan) ([]domain.LineEntry, error) {
	// The plan slices the page's reader, which reads the store's lines (and names them as the
	// store does) and remembers what its first slice read for the page's multiget.
	p := &pageReader{Store: s}
	return linestore.ReadPage(ctx, p, p, limit, plan)
}

// pageReader is the store as one page's read sees it. A line's column values are the keys of
// the Tweet rows the page then reads (seed 003's second step), so the text of each ID a page's
// one slice read is kept, and the page's multiget asks for those keys as they were read,
// instead of writing every ID out as text again.
type pageReader struct {
	*Store
	slices  int                // the slices read so far (a plan slices one line at a time)
	text    []byte             // the IDs' texts the first slice read, in its order
	entries []domain.LineEntry // what it returned
}

// Slice is the store's Slice; the first slice of a page keeps the text of each ID it read.
func (p *pageReader) Slice(ctx context.Context, line domain.LineKey, before int64, limit int) ([]domain.LineEntry, error) {
	if p.slices++; p.slices > 1 {
		return p.slice(ctx, line, before, limit, nil) // a merged page: its IDs are written out
	}
	entries, err := p.slice(ctx, line, before, limit, &p.text)
	p.entries = entries
	return entries, err
}

// SliceMany slices one line after another through the page's Slice.
func (p *pageReader) SliceMany(ctx context.Context, reqs []domain.LineSlice) ([][]domain.LineEntry, error) {
	return linestore.SliceEach(ctx, p, reqs)
}

// GetTweets reads the rows of ids by the texts the page's one slice read when ids are the IDs
// it read, in its order; otherwise they are written out as text.
func (p *pageReader) GetTweets(ctx context.Context, ids []uuid.UUID) ([]domain.Tweet, error) {
	if p.slices != 1 || len(ids) == 0 || len(ids) > len(p.entries) ||
		!slices.EqualFunc(ids, p.entries[:len(ids)], func(id uuid.UUID, e domain.LineEntry) bool { return id == e.TweetID }) {
		return p.Store.GetTweets(ctx, ids)
	}
	// p.text is not written again: its bytes can be the keys.
	keys := cutStrings(unsafe.String(unsafe.SliceData(p.text), len(ids)*domain.UUIDTextLen), domain.UUIDTextLen)
	return p.getTweets(ctx, ids, keys)
}

// Backfill slices from's row and writes the IDs it read into line's row in one batch_mutate.
func (s *Store) Backfill(ctx context.Context, line, from domain.LineKey, limit int) error {
	return linestore.Backfill(ctx, s, s, line, from, limit)
}

// SliceMany slices one line after another: the engine is in this process, a slice costs no
// round trip to overlap.
func (s *Store) SliceMany(ctx context.Context, reqs []domain.LineSlice) ([][]domain.LineEntry, error) {
	return linestore.SliceEach(ctx, s, reqs)
}

// Slice is one reversed slice: start at before-1 (slice bounds are inclusive), count limit.
func (s *Store) Slice(ctx context.Context, line domain.LineKey, before int64, limit int) ([]domain.LineEntry, error) {
	return s.slice(ctx, line, before, limit, nil)
}

// slice is Slice, appending the text of each ID it reads to *text when text is not nil.
func (s *Store) slice(ctx context.Context, line domain.LineKey, before int64, limit int, text *[]byte) ([]domain.LineEntry, error) {
	key, ok, err := s.lineRow(ctx, line)
	if err != nil || !ok {
		return nil, err
	}
	var start []byte
	if before > 0 {
		start = LongName(before - 1)
	}
	// The columns are decoded as they are read, from the engine's reused buffers.
	out := make([]domain.LineEntry, 0, min(max(limit, 0), 1024))
	_, err = s.node.GetSliceEach(ctx, KeyspaceTwissandra, key, engine.ColumnParent{ColumnFamily: lineCF(line.Kind)},
		engine.SlicePredicate{SliceRange: &engine.SliceRange{Start: start, Reversed: true, Count: int32(limit)}}, cl,
		func(c engine.Column) {
			id, ok := domain.ParseUUIDText(c.Value)
			if !ok || len(c.Name) != 8 {
				return // not a tweet id under a time: never written by this adapter
			}
			out = append(out, domain.LineEntry{Time: int64(binary.BigEndian.Uint64(c.Name)), TweetID: id})
			if text != nil {
				if *text == nil {
					*text = make([]byte, 0, cap(out)*domain.UUIDTextLen)
				}
				*text = append(*text, c.Value...)
			}
		})
	if err != nil {
		return nil, wrap("slice line", err)
	}
	return out, nil
}

// Remove deletes the named columns from the line in one mutation.
func (s *Store) Remove(ctx context.Context, line domain.LineKey, times ...int64) error {
	key, ok, err := s.lineRow(ctx, line)
	if err != nil || !ok || len(times) == 0 {
		return err
	}
	names := make([][]byte, len(times))
	for i, t := range times {
		names[i] = LongName(t)
	}
	return wrap("remove", s.node.BatchMutate(ctx, KeyspaceTwissandra, map[string]map[string][]engine.Mutation{key: {lineCF(line.Kind): {{
		Deletion: &engine.Deletion{Timestamp: s.ts(), Predicate: &engine.SlicePredicate{ColumnNames: names}},
	}}}}, cl))
}
