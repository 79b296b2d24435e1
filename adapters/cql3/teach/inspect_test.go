package teach

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"twissandra/adapters/cql3"
	"twissandra/domain"
	"twissandra/domain/blog/model"
)

var timelineInfo = InspectTable{
	Keyspace:     "ks",
	Name:         "timeline",
	PartitionKey: []InspectColumn{{Name: "username", Type: "text"}},
	Clustering:   []InspectColumn{{Name: "time", Type: "timeuuid", Desc: true}},
	Regular:      []InspectColumn{{Name: "tweet_id", Type: "timeuuid"}},
}

// timelineQueryFirst is the timeline as migration 004 leaves it: the tweet's columns beside its ID.
var timelineQueryFirst = InspectTable{
	Keyspace:     "ks",
	Name:         "timeline",
	PartitionKey: timelineInfo.PartitionKey,
	Clustering:   timelineInfo.Clustering,
	Regular: []InspectColumn{{Name: "author", Type: "text"}, {Name: "body", Type: "text"}, {Name: "created_at", Type: "timestamp"},
		{Name: "created_at_us", Type: "int"}, {Name: "tweet_id", Type: "timeuuid"}},
}

func TestPartitionQuery(t *testing.T) {
	t.Parallel()
	tu := domain.NewTimeUUID(1273656000123456).String()
	tests := []struct {
		name string
		key  []string
		opts PartitionSlice
		want string
		args int
	}{
		{"clustering order", []string{"bob"}, PartitionSlice{Count: 5},
			`SELECT "username", "time", "tweet_id", WRITETIME("tweet_id"), TTL("tweet_id") FROM ks."timeline" WHERE "username" = ? ORDER BY "time" DESC LIMIT ?`, 2},
		{"reversed", []string{"bob"}, PartitionSlice{Count: 5, Reversed: true},
			`SELECT "username", "time", "tweet_id", WRITETIME("tweet_id"), TTL("tweet_id") FROM ks."timeline" WHERE "username" = ? ORDER BY "time" ASC LIMIT ?`, 2},
		// Newest first, the start is the high end, as in a reversed get_slice.
		{"start newest first", []string{"bob"}, PartitionSlice{Count: 5, Start: tu},
			`SELECT "username", "time", "tweet_id", WRITETIME("tweet_id"), TTL("tweet_id") FROM ks."timeline" WHERE "username" = ? AND "time" <= ? ORDER BY "time" DESC LIMIT ?`, 3},
		{"both bounds reversed", []string{"bob"}, PartitionSlice{Count: 5, Start: tu, Finish: "2010-05-12T10:00:00Z", Reversed: true},
			`SELECT "username", "time", "tweet_id", WRITETIME("tweet_id"), TTL("tweet_id") FROM ks."timeline" WHERE "username" = ? AND "time" >= ? AND "time" <= ? ORDER BY "time" ASC LIMIT ?`, 4},
	}
	for _, tc := range tests {
		stmt, args, err := partitionQuery(timelineInfo, tc.key, tc.opts)
		if err != nil || stmt != tc.want || len(args) != tc.args {
			t.Errorf("%s: %q %v %v, want %q with %d values", tc.name, stmt, args, err, tc.want, tc.args)
		}
	}
	// A time as a timeuuid bound covers its whole microsecond.
	_, args, err := partitionQuery(timelineInfo, []string{"bob"}, PartitionSlice{Count: 1, Start: "2010-05-12T09:20:00.123456Z", Finish: "2010-05-12T09:20:00.123456Z"})
	if err != nil {
		t.Fatal(err)
	}
	if lo, hi := args[1], args[2]; lo != gu(cql3.MinTimeUUID(1273656000123456)) || hi != gu(cql3.MaxTimeUUID(1273656000123456)) {
		t.Errorf("time bounds: %v .. %v", lo, hi)
	}
	for _, tc := range []struct {
		name string
		t    InspectTable
		key  []string
		opts PartitionSlice
		msg  string
	}{
		{"two key values", timelineInfo, []string{"a", "b"}, PartitionSlice{Count: 1}, "has 1 partition key column(s) (username), got 2"},
		{"bad bound", timelineInfo, []string{"a"}, PartitionSlice{Count: 1, Finish: "soon"}, `finish: "soon" is neither a timeuuid nor a time`},
		{"v4 bound", timelineInfo, []string{"a"}, PartitionSlice{Count: 1, Start: uuid.NewString()}, "a timeuuid is version 1"},
		{"bounds without clustering", InspectTable{Name: "users", PartitionKey: []InspectColumn{{Name: "username", Type: "text"}}},
			[]string{"a"}, PartitionSlice{Count: 1, Start: "x"}, "has no clustering column"},
		{"bad date key", InspectTable{Name: "public_line", PartitionKey: []InspectColumn{{Name: "day", Type: "date"}}},
			[]string{"yesterday"}, PartitionSlice{Count: 1}, `day: "yesterday" is not a date like 2010-05-12`},
	} {
		_, _, err := partitionQuery(tc.t, tc.key, tc.opts)
		if !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v, want ErrInvalid saying %q", tc.name, err, tc.msg)
		}
	}
}

func TestParseCQLValue(t *testing.T) {
	t.Parallel()
	good := map[string]string{
		"text": "it's", "timeuuid": domain.NewTimeUUID(1).String(), "uuid": uuid.NewString(), "date": "2010-05-12",
		"timestamp": "2010-05-12T09:20:00Z", "bigint": "-9223372036854775808", "int": "2147483647", "blob": "0x00ff",
		"boolean": "true", "double": "1.5", "float": "2", "inet": "127.0.0.1", "smallint": "7",
	}
	for typ, s := range good {
		if _, err := parseCQLValue(typ, s); err != nil {
			t.Errorf("%s %q: %v", typ, s, err)
		}
	}
	bad := map[string]string{
		"timeuuid": "x' OR '1'='1", "uuid": "6ba7b8109dad11d180b400c04fd430c8", "date": "2010-5-12", "timestamp": "soon",
		"int": "2147483648", "blob": "00ff", "ascii": "é", "duration": "1h", "boolean": "maybe",
	}
	for typ, s := range bad {
		if _, err := parseCQLValue(typ, s); err == nil {
			t.Errorf("%s %q: no error", typ, s)
		}
	}
	if got := quoteText("it's\n"); got != `'it''s\n'` {
		t.Errorf("quoteText: %s", got)
	}
}

// lineFixture writes n entries, a second apart from base, to the timeline of owner.
func lineFixture(t *testing.T, s *Store, owner string, base int64, n int) []uuid.UUID {
	t.Helper()
	ctx := testCtx(t, time.Minute)
	ids := make([]uuid.UUID, n)
	for i := range n {
		micros := base + int64(i)*1_000_000
		ids[i] = domain.NewTimeUUID(micros)
		if err := s.store.Append(ctx, domain.LineEntry{Time: micros, TweetID: ids[i]}, domain.LineKey{Kind: domain.Timeline, Owner: owner}); err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

// column returns the value of the named cell of row.
func column(t *testing.T, row []PartitionCell, name string) string {
	t.Helper()
	for _, c := range row {
		if c.Name == name {
			return c.Value
		}
	}
	t.Fatalf("row %v has no column %s", row, name)
	return ""
}

func TestReadPartition(t *testing.T) {
	s := sharedStore(t)
	ctx := testCtx(t, 2*time.Minute)
	owner := "inspect_" + randomKeyspace("")
	const base = 1273656000000000 // 2010-05-12 09:20:00 UTC
	ids := lineFixture(t, s, owner, base, 5)

	tables, err := s.InspectTables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(tables, func(t InspectTable) bool { return t.Name == "timeline" })
	if i < 0 {
		t.Fatalf("no timeline among %v", tables)
	}
	want := timelineQueryFirst
	want.Keyspace = s.Keyspace()
	if got := tables[i]; got.Name != want.Name || !slices.Equal(got.PartitionKey, want.PartitionKey) ||
		!slices.Equal(got.Clustering, want.Clustering) || !slices.Equal(got.Regular, want.Regular) || got.Keyspace != want.Keyspace {
		t.Errorf("timeline: %+v, want %+v", got, want)
	}

	times := func(rows [][]PartitionCell) []string {
		out := make([]string, len(rows))
		for i, r := range rows {
			if r[0].Name != "username" || r[1].Name != "time" || r[len(r)-1].Name != "tweet_id" {
				t.Fatalf("columns out of order: %v", r)
			}
			out[i] = column(t, r, "time")
		}
		return out
	}
	idText := func(idx ...int) []string {
		out := make([]string, len(idx))
		for i, n := range idx {
			out[i] = ids[n].String()
		}
		return out
	}
	for _, tc := range []struct {
		name string
		opts PartitionSlice
		want []string
	}{
		{"newest first", PartitionSlice{Count: 20}, idText(4, 3, 2, 1, 0)},
		{"reversed: oldest first", PartitionSlice{Count: 20, Reversed: true}, idText(0, 1, 2, 3, 4)},
		{"count", PartitionSlice{Count: 2}, idText(4, 3)},
		{"bounds newest first", PartitionSlice{Count: 20, Start: ids[3].String(), Finish: ids[1].String()}, idText(3, 2, 1)},
		{"bounds reversed", PartitionSlice{Count: 20, Start: ids[1].String(), Finish: ids[3].String(), Reversed: true}, idText(1, 2, 3)},
		{"bounds the wrong way round", PartitionSlice{Count: 20, Start: ids[1].String(), Finish: ids[3].String()}, idText()},
		{"time bounds", PartitionSlice{Count: 20, Start: "2010-05-12T09:20:02Z", Reversed: true}, idText(2, 3, 4)},
		{"time bound and count", PartitionSlice{Count: 1, Start: "2010-05-12T09:20:02Z"}, idText(2)},
	} {
		rows, err := s.ReadPartition(ctx, "timeline", []string{owner}, tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := times(rows); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	rows, err := s.ReadPartition(ctx, "timeline", []string{owner}, PartitionSlice{Count: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := rows[0]; got[0].Value != "'"+owner+"'" || got[len(got)-1].Value != ids[4].String() {
		t.Errorf("row: %v", got)
	}

	// The keyspace is shared with the contract suites, which may have left thousands of
	// timelines: the listing is bounded, distinct, and names real partitions; it holds owner
	// whenever it is not cut short by its bound.
	keys, err := s.PartitionKeys(ctx, "timeline", MaxPartitionSlice)
	if err != nil || len(keys) == 0 || len(keys) > MaxPartitionSlice {
		t.Fatalf("partition keys of timeline: %d keys, %v", len(keys), err)
	}
	seen := map[string]bool{}
	for _, k := range keys {
		if len(k) != 1 || seen[k[0]] {
			t.Fatalf("partition key %v listed twice or malformed", k)
		}
		seen[k[0]] = true
	}
	if len(keys) < MaxPartitionSlice && !seen[owner] {
		t.Errorf("partition keys of timeline (%d) lack %s", len(keys), owner)
	}
	if rows, err := s.ReadPartition(ctx, "timeline", keys[len(keys)-1], PartitionSlice{Count: 1}); err != nil || len(rows) != 1 {
		t.Errorf("listed partition %v reads %d rows, %v", keys[len(keys)-1], len(rows), err)
	}
}

func TestReadPartitionRendering(t *testing.T) {
	s := sharedStore(t)
	ctx := testCtx(t, 2*time.Minute)
	name := "inspect_" + randomKeyspace("")
	created := time.Date(2010, 5, 12, 9, 20, 0, 123456000, time.UTC)
	u := domain.User{ID: uuid.New(), Username: name, PasswordHash: []byte{0, 1, 0xfe}, CreatedAt: created}
	if err := s.store.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	rows, err := s.ReadPartition(ctx, "users", []string{name}, PartitionSlice{Count: 5})
	if err != nil || len(rows) != 1 {
		t.Fatalf("users: %v, %v", rows, err)
	}
	for col, want := range map[string]string{
		"username": "'" + name + "'", "id": u.ID.String(), "password": "<password hash, 3 bytes>", // secrets are hidden where they are read
		"created_at": "2010-05-12T09:20:00.123Z", "created_at_us": "456",
	} {
		if got := column(t, rows[0], col); got != want {
			t.Errorf("users.%s: %s, want %s", col, got, want)
		}
	}

	// Each regular cell carries its write time (microseconds) and TTL; key columns carry none.
	for _, c := range rows[0] {
		switch {
		case c.Name == "username" && (c.Timestamp != 0 || c.TTL != 0):
			t.Errorf("the key column has a timestamp: %+v", c)
		case c.Name == "id" && (c.Timestamp < time.Now().Add(-time.Hour).UnixMicro() || c.TTL != 0):
			t.Errorf("users.id: timestamp %d, TTL %d; want a recent write time and no TTL", c.Timestamp, c.TTL)
		}
	}
	if err := s.Write(ctx, name, "racer 1"); err != nil {
		t.Fatal(err)
	}
	claim, err := s.ReadPartition(ctx, "race_names", []string{name + ""}, PartitionSlice{Count: 1})
	if err != nil || len(claim) != 1 {
		t.Fatalf("race_names: %v, %v", claim, err)
	}
	if c := claim[0][slices.IndexFunc(claim[0], func(c PartitionCell) bool { return c.Name == "owner" })]; c.TTL < 86000 || c.TTL > 86400 || c.Timestamp == 0 {
		t.Errorf("a sandbox claim expires after a day: %+v", c)
	}

	if err := s.store.PutAuthor(ctx, model.Author{Name: name, Profile: map[string]string{"twitter": "phatduckk", "bio": "it's me", "email": "jane@example.com"}}); err != nil {
		t.Fatal(err)
	}
	rows, err = s.ReadPartition(ctx, "authors", []string{name}, PartitionSlice{Count: 5})
	if err != nil || len(rows) != 1 {
		t.Fatalf("authors: %v, %v", rows, err)
	}
	if got := column(t, rows[0], "profile"); got != `{'bio': 'it''s me', 'email': '<email, hidden>', 'twitter': 'phatduckk'}` {
		t.Errorf("profile: %s", got)
	}
	if c := rows[0][slices.IndexFunc(rows[0], func(c PartitionCell) bool { return c.Name == "posts" })]; !c.Null || c.Value != "null" {
		t.Errorf("posts: %+v, want null", c)
	}
	if err := s.store.CreateEntry(ctx, model.Entry{Slug: name, ID: domain.NewTimeUUID(created.UnixMicro()), Title: "t", Body: "b",
		Author: name, Tags: []string{"guitar", "musician"}, PublishedAt: created}); err != nil {
		t.Fatal(err)
	}
	rows, err = s.ReadPartition(ctx, "blog_entries", []string{name}, PartitionSlice{Count: 5})
	if err != nil || len(rows) != 1 {
		t.Fatalf("blog_entries: %v, %v", rows, err)
	}
	if got := column(t, rows[0], "tags"); got != `{'guitar', 'musician'}` {
		t.Errorf("tags: %s", got)
	}
}

func TestReadPartitionRefusesBadInput(t *testing.T) {
	s := sharedStore(t)
	ctx := testCtx(t, 2*time.Minute)
	owner := "inspect_" + randomKeyspace("")
	lineFixture(t, s, owner, 1273656000000000, 2)
	for _, tc := range []struct {
		name, table string
		key         []string
		opts        PartitionSlice
		is          error
		msg         string
	}{
		{"unknown table", "nope", []string{"a"}, PartitionSlice{Count: 1}, domain.ErrNotFound, `has no table "nope" (it has `},
		{"injection in the table", `timeline WHERE username = 'a'; DROP TABLE users; --`, []string{"a"}, PartitionSlice{Count: 1}, domain.ErrNotFound, "has no table"},
		{"quoted table", `"timeline"`, []string{owner}, PartitionSlice{Count: 1}, domain.ErrNotFound, "has no table"},
		{"qualified table", "system.local", []string{owner}, PartitionSlice{Count: 1}, domain.ErrNotFound, "has no table"},
		{"bad timeuuid key", "tweets", []string{"not-a-uuid"}, PartitionSlice{Count: 1}, domain.ErrInvalid, `tweet_id: "not-a-uuid" is not a timeuuid`},
		{"bad date key", "public_line", []string{"2010-13-01"}, PartitionSlice{Count: 1}, domain.ErrInvalid, "is not a date"},
		{"bad timeuuid bound", "timeline", []string{owner}, PartitionSlice{Count: 1, Start: "zzz"}, domain.ErrInvalid, `start: "zzz" is neither a timeuuid nor a time`},
		{"count zero", "timeline", []string{owner}, PartitionSlice{}, domain.ErrInvalid, "count: must be from 1 to 1000"},
		{"no key", "timeline", nil, PartitionSlice{Count: 1}, domain.ErrInvalid, "got 0 value(s)"},
		{"log-in attempts", "login_attempts", []string{"addr:192.0.2.1"}, PartitionSlice{Count: 1}, domain.ErrInvalid, "its rows are private"},
		{"ended sessions", "ended_sessions", []string{"x"}, PartitionSlice{Count: 1}, domain.ErrInvalid, "its rows are private"},
		{"progress", "course_progress", []string{"x"}, PartitionSlice{Count: 1}, domain.ErrInvalid, "its rows are private, so no page shows them (migration 008"},
	} {
		_, err := s.ReadPartition(ctx, tc.table, tc.key, tc.opts)
		if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v, want %v saying %q", tc.name, err, tc.is, tc.msg)
		}
	}
	// Values are bound, never spliced: a key made of CQL is just a key nobody has.
	for _, key := range []string{"a' OR '1'='1", owner + "'; DROP TABLE timeline; --", `"` + owner + `"`} {
		rows, err := s.ReadPartition(ctx, "timeline", []string{key}, PartitionSlice{Count: 10})
		if err != nil || len(rows) != 0 {
			t.Errorf("key %q: %d rows, %v", key, len(rows), err)
		}
	}
	rows, err := s.ReadPartition(ctx, "timeline", []string{owner}, PartitionSlice{Count: 10})
	if err != nil || len(rows) != 2 {
		t.Errorf("the timeline after the attempts: %d rows, %v", len(rows), err)
	}
	if _, err := s.PartitionKeys(ctx, "users; DROP TABLE users", 5); !errors.Is(err, domain.ErrNotFound) {
		t.Errorf("partition keys of a made-up table: %v", err)
	}
}

// The partition lessons list no partition of the private tables (who tried to log in, from where,
// what a learner did in the course) and none of the migrations' bookkeeping, whatever they hold.
func TestWidestRowsListNoPrivateOrInternalTable(t *testing.T) {
	s := freshStore(t, "twissandra_test_private_")
	ctx := testCtx(t, 2*time.Minute)
	for i := range 3 {
		if err := s.store.AddLoginAttempt(ctx, "addr:192.0.2."+strconv.Itoa(i+1), domain.NewTimeUUID(time.Now().UnixMicro()), time.Minute); err != nil {
			t.Fatal(err)
		}
		if err := s.RecordVisit(ctx, "learner"+strconv.Itoa(i), "writes"); err != nil {
			t.Fatal(err)
		}
	}
	for _, table := range []string{"login_attempts", "course_progress"} {
		if _, err := s.PartitionKeys(ctx, table, 10); !errors.Is(err, domain.ErrInvalid) {
			t.Fatalf("PartitionKeys of %s: %v, want ErrInvalid", table, err)
		}
	}
	sizes, err := s.WidestRows(ctx, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range sizes.Rows {
		for _, hidden := range []string{".login_attempts", ".ended_sessions", ".course_progress", ".gocqlx_migrate", ".schema_lease"} {
			if strings.HasSuffix(r.Container, hidden) {
				t.Errorf("the partitions listed include %s %q", r.Container, r.Key)
			}
		}
	}
}
