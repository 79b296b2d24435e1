package frame_test

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocql/gocql"
	"golang.org/x/crypto/bcrypt"

	"twissandra/internal/testkit/cqltest"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/ports/oplog"
	"twissandra/web"
)

// stepClock says a millisecond later at each reading, from where it starts: two servers given
// one each, and the same actions in the same order, write the same times.
type stepClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(time.Millisecond)
	return c.now
}

// scriptStep is one request of a learner's session: who makes it (each user has a browser of
// their own, signed in by their sign-up), and what.
type scriptStep struct {
	who          string
	method, path string
	form         url.Values
}

// opsOf runs script on app and returns, for each step, the cql3 operations of its request as
// the Storage-Ops-Detail record lists them: the record's own (cql3 alone) or its second model's
// (compare mode, where secondary is true), normalised to what must be equal between two servers:
// no times, no keyspace names, no read of the pulled authors (a cache of a second answers
// it or not, by the machine's clock), in a stable order (a fan-out's statements run concurrently).
func opsOf(t *testing.T, app *webkit.App, script []scriptStep, keyspace string, secondary bool) [][]string {
	t.Helper()
	browsers := map[string]*webkit.Client{}
	var out [][]string
	for _, s := range script {
		c := browsers[s.who]
		if c == nil {
			c = app.Client(t)
			browsers[s.who] = c
		}
		var req *http.Request
		if s.method == http.MethodPost {
			form := url.Values{}
			for k, v := range s.form {
				form[k] = v
			}
			form.Set("csrf_token", c.CSRF())
			req, _ = http.NewRequest(http.MethodPost, app.Srv.URL+s.path, strings.NewReader(form.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		} else {
			req, _ = http.NewRequest(http.MethodGet, app.Srv.URL+s.path, nil)
		}
		req.Header.Set("Accept", "text/html")
		req.Header.Set(web.StorageOpsDetailHeader, "json")
		r := c.Do(req)
		if want := map[string]int{http.MethodGet: http.StatusOK, http.MethodPost: http.StatusSeeOther}[s.method]; r.Status != want {
			t.Fatalf("%s %s as %s: %d, want %d\n%s", s.method, s.path, s.who, r.Status, want, r.Body)
		}
		var rec web.OpsRecord
		if err := json.Unmarshal([]byte(r.Header.Get(web.StorageOpsDetailHeader)), &rec); err != nil {
			t.Fatalf("%s %s: the record: %v", s.method, s.path, err)
		}
		ops := rec.Ops
		if secondary {
			for _, op := range rec.Ops {
				if op.Kind == oplog.Divergence {
					t.Errorf("%s %s: %s", s.method, s.path, op.Text)
				}
			}
			if rec.Secondary == nil {
				t.Fatalf("%s %s: no second model's record", s.method, s.path)
			}
			ops = rec.Secondary.Ops
		}
		if rec.Dropped > 0 || (rec.Secondary != nil && rec.Secondary.Dropped > 0) {
			t.Fatalf("%s %s: the record dropped operations", s.method, s.path)
		}
		var lines []string
		for _, op := range ops {
			if op.Model != "cql3" {
				continue
			}
			if op.Family == "pulled_authors" {
				// Each process reads the pulled authors at most once a second (its cache, in
				// either mode): whether this page read them or the cache answered depends on the
				// clock of the machine, not on the mode. So neither is listed.
				continue
			}
			op.Took = 0
			b, _ := json.Marshal(op)
			lines = append(lines, strings.ReplaceAll(string(b), keyspace, "KS"))
		}
		slices.Sort(lines)
		out = append(out, lines)
	}
	return out
}

// cql3Rows reads every row of every table of keyspace (the migrations' record left out) as
// JSON, with what differs between two servers by chance replaced by what it stands for: a
// user's random UUID by the user's name, a tweet's, entry's or comment's time UUID (random in
// its last eight bytes) by its body or slug, a bcrypt hash (salted at random) by the password it
// verifies. Rows are sorted within each table.
func cql3Rows(t *testing.T, keyspace, password string) map[string][]string {
	t.Helper()
	hosts, port := cqltest.Node(t)
	cl := gocql.NewCluster(hosts...)
	cl.Port, cl.Keyspace, cl.Timeout = port, keyspace, 20*time.Second
	sess, err := cl.CreateSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var tables []string
	iter := sess.Query("SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", keyspace).Iter()
	var name string
	for iter.Scan(&name) {
		switch name {
		case "gocqlx_migrate", "schema_lease": // the migrations' own bookkeeping
		case "login_attempts": // the limits' counts, keyed by each run's random device
		default:
			tables = append(tables, name)
		}
	}
	if err := iter.Close(); err != nil {
		t.Fatal(err)
	}
	raw := map[string][]map[string]any{}
	for _, table := range tables {
		iter := sess.Query("SELECT JSON * FROM " + table).Iter()
		var js string
		for iter.Scan(&js) {
			var row map[string]any
			if err := json.Unmarshal([]byte(js), &row); err != nil {
				t.Fatal(err)
			}
			raw[table] = append(raw[table], row)
		}
		if err := iter.Close(); err != nil {
			t.Fatalf("read %s: %v", table, err)
		}
	}
	labels := map[string]string{}
	label := func(table, idColumn, prefix, nameColumn string) {
		for _, row := range raw[table] {
			if id, ok := row[idColumn].(string); ok {
				labels[id] = fmt.Sprintf("%s:%v", prefix, row[nameColumn])
			}
		}
	}
	label("users", "id", "user", "username")
	label("tweets", "tweet_id", "tweet", "body")
	label("blog_entries", "id", "entry", "slug")
	label("comments", "time", "comment", "body")
	out := map[string][]string{}
	for _, table := range tables {
		for _, row := range raw[table] {
			for col, v := range row {
				s, ok := v.(string)
				if !ok {
					continue
				}
				if l, ok := labels[s]; ok {
					row[col] = l
				}
				if table == "users" && col == "password" {
					hash, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
					if err != nil || bcrypt.CompareHashAndPassword(hash, []byte(password)) != nil {
						t.Errorf("users: the password of %v is not a bcrypt hash of %q: %s", row["username"], password, s)
					}
					row[col] = "bcrypt(" + password + ")"
				}
			}
			b, _ := json.Marshal(row) // keys sorted
			out[table] = append(out[table], string(b))
		}
		slices.Sort(out[table])
	}
	return out
}

// Compare mode (widerow answering, cql3 beside it) gives cql3 every write as cql3 alone makes
// it, and has it read every page as it would alone: one script of actions (sign-ups, follows
// and their backfill, posts, pages, an unfollow, the blog), run through compare mode and through
// cql3 alone with the same clock, leaves the same rows in every cql3 table, every column (write
// times aside), and each request's cql3 operations in compare mode are those of the same request
// on cql3 alone. A follow's backfill once wrote timeline rows without their tweets in compare
// mode, and every page of a line read the tweets table besides.
func TestCompareModeGivesCQL3WhatItDoesAlone(t *testing.T) {
	start := time.Now().UTC().Truncate(time.Minute)
	alone, aloneStore := webkit.CQL3Stores(t)
	alone.Clock = &stepClock{now: start}
	both, bothStore := webkit.CompareStoresOn(t)
	both.Clock = &stepClock{now: start}

	const password = "password1"
	signUp := func(name string) scriptStep {
		return scriptStep{name, http.MethodPost, "/signup", url.Values{"username": {name}, "password": {password}, "password2": {password}}}
	}
	post := func(who, body string) scriptStep {
		return scriptStep{who, http.MethodPost, "/tweets", url.Values{"body": {body}}}
	}
	get := func(who, path string) scriptStep { return scriptStep{who, http.MethodGet, path, nil} }
	follow := func(who, whom string) scriptStep {
		return scriptStep{who, http.MethodPost, "/users/" + whom + "/follow", nil}
	}
	script := []scriptStep{
		signUp("ann"), signUp("bob"), signUp("cat"),
		post("bob", "bob's first"), post("bob", "bob's second"), post("bob", "bob's third"), post("ann", "ann's first"),
		follow("ann", "bob"), // backfills bob's three tweets into ann's timeline
		follow("cat", "bob"), follow("bob", "ann"),
		post("bob", "bob's fourth, to ann and cat"),
		get("ann", "/"), get("cat", "/"), get("bob", "/"), get("", "/public"),
		get("ann", "/users/bob"), get("ann", "/users/bob/followers"), get("ann", "/users/ann/friends"),
		{"ann", http.MethodPost, "/users/bob/unfollow", nil}, // removes bob's tweets from ann's timeline
		get("ann", "/"),
		{"cat", http.MethodPost, "/blog/new", url.Values{"slug": {"on-supercolumns"}, "title": {"On super columns"}, "body": {"They nest."}, "tags": {"cassandra, models"}}},
		{"ann", http.MethodPost, "/blog/entries/on-supercolumns/comments", url.Values{"name": {"Ann"}, "email": {"ann@example.com"}, "text": {"Nice."}}},
		{"", http.MethodPost, "/blog/entries/on-supercolumns/comments", url.Values{"name": {"Anonymous"}, "text": {"No email."}}},
		get("", "/blog"), get("", "/blog/tags/models"), get("", "/blog/entries/on-supercolumns"), get("", "/blog/authors/cat"),
	}
	aloneOps := opsOf(t, teachkit.NewApp(t, alone), script, aloneStore.Keyspace(), false)
	bothOps := opsOf(t, teachkit.NewApp(t, both), script, bothStore.Keyspace(), true)
	for i, s := range script {
		if len(aloneOps[i]) == 0 && !strings.HasPrefix(s.path, "/public") {
			t.Errorf("%s %s: cql3 alone recorded no operation", s.method, s.path)
		}
		if !slices.Equal(aloneOps[i], bothOps[i]) {
			t.Errorf("%s %s as %q: cql3's operations differ\ncql3 alone:\n  %s\ncompare mode:\n  %s", s.method, s.path, s.who,
				strings.Join(aloneOps[i], "\n  "), strings.Join(bothOps[i], "\n  "))
		}
	}

	aloneRows, bothRows := cql3Rows(t, aloneStore.Keyspace(), password), cql3Rows(t, bothStore.Keyspace(), password)
	for _, table := range []string{"users", "friends", "followers", "tweets", "userline", "timeline", "public_line", "public_days",
		"authors", "blog_entries", "tagged_posts", "comments"} {
		if len(aloneRows[table]) == 0 {
			t.Errorf("the script wrote no row of %s", table)
		}
	}
	for table, rows := range aloneRows {
		if !slices.Equal(rows, bothRows[table]) {
			t.Errorf("%s: the rows differ\ncql3 alone:\n  %s\ncompare mode:\n  %s", table, strings.Join(rows, "\n  "), strings.Join(bothRows[table], "\n  "))
		}
	}
	// The backfill's rows carry their tweets: cat's timeline has bob's first three, whole.
	for _, row := range bothRows["timeline"] {
		if strings.Contains(row, `"body":null`) {
			t.Errorf("compare mode wrote a timeline row without its tweet: %s", row)
		}
	}
}
