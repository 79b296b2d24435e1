package cql3

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocql/gocql"
	"github.com/google/uuid"
	"go.uber.org/fx"
	"golang.org/x/crypto/bcrypt"

	"twissandra/domain"
	"twissandra/domain/blog/model"
	"twissandra/domain/social"
	"twissandra/ports"
)

// injections are strings that would wreck a store that built CQL from values.
var injections = []string{
	`'); DROP KEYSPACE x; --`,
	`x'; DROP TABLE users; --`,
	`' OR '1'='1`,
	`"; TRUNCATE tweets; --`,
	`$$ ; DROP TABLE tweets ; $$`,
	`\'; DELETE FROM users WHERE username = 'a'; --`,
	"line one;\nline two -- /* not a comment */ ?, :name, %s, {{.}}",
	"ünïcödé ✓ 🐦 \u0000 nul",
}

// TestInjectionIsInert writes every injection into every free-text field and reads it back
// verbatim, then checks the schema is whole.
func TestInjectionIsInert(t *testing.T) {
	s := sharedStore(t)
	ctx := testCtx(t, 2*time.Minute)
	user := "inj_" + uuid.NewString()[:8]
	if err := s.CreateUser(ctx, domain.User{ID: uuid.New(), Username: user, PasswordHash: []byte(injections[0]), CreatedAt: time.Now().UTC()}); err != nil {
		t.Fatal(err)
	}
	if u, err := s.GetUser(ctx, user); err != nil || string(u.PasswordHash) != injections[0] {
		t.Fatalf("GetUser = %+v, %v", u, err)
	}
	for i, text := range injections {
		now := time.Now().UnixMicro() + int64(i)
		tw := domain.Tweet{ID: domain.NewTimeUUID(now), Username: user, Body: text, CreatedAt: domain.TimeFromMicros(now)}
		if err := s.SaveTweet(ctx, tw); err != nil {
			t.Fatalf("SaveTweet(%q): %v", text, err)
		}
		if got, err := s.GetTweet(ctx, tw.ID); err != nil || got.Body != text {
			t.Fatalf("GetTweet body = %q, %v; want %q", got.Body, err, text)
		}
		// Free text as a follow cursor: a bound value, compared, never parsed.
		if _, err := s.Friends(ctx, user, text, 10); err != nil {
			t.Fatalf("Friends(after=%q): %v", text, err)
		}

		author := model.Author{Name: "Author " + text, Profile: map[string]string{text: text, "bio": text}}
		if err := s.PutAuthor(ctx, author); err != nil {
			t.Fatalf("PutAuthor(%q): %v", text, err)
		}
		if got, err := s.GetAuthor(ctx, author.Name); err != nil || !maps.Equal(got.Profile, author.Profile) {
			t.Fatalf("GetAuthor(%q) = %+v, %v", author.Name, got, err)
		}
		slug := fmt.Sprintf("inj-%d-%s", i, uuid.NewString()[:8])
		e := model.Entry{Slug: slug, ID: domain.NewTimeUUID(now), Title: text, Body: text, Author: author.Name,
			Tags: []string{text, "plain"}, PublishedAt: domain.TimeFromMicros(now)}
		slices.Sort(e.Tags)
		if err := s.CreateEntry(ctx, e); err != nil {
			t.Fatalf("CreateEntry(%q): %v", text, err)
		}
		if got, err := s.GetEntry(ctx, slug); err != nil || got.Title != text || got.Body != text || !slices.Equal(got.Tags, e.Tags) || got.Author != author.Name {
			t.Fatalf("GetEntry = %+v, %v", got, err)
		}
		if err := s.AddTagged(ctx, e.ID, slug, text); err != nil {
			t.Fatalf("AddTagged(%q): %v", text, err)
		}
		if refs, err := s.SliceTagged(ctx, text, uuid.Nil, 10); err != nil || !slices.ContainsFunc(refs, func(r model.TagRef) bool { return r.Slug == slug }) {
			t.Fatalf("SliceTagged(%q) = %v, %v", text, refs, err)
		}
		c := model.Comment{ID: domain.NewTimeUUID(now), Slug: slug, Name: text, Email: text, Text: text, Time: domain.TimeFromMicros(now)}
		if err := s.AddComment(ctx, c); err != nil {
			t.Fatalf("AddComment(%q): %v", text, err)
		}
		if cs, err := s.SliceComments(ctx, slug, uuid.Nil, 10); err != nil || len(cs) != 1 || cs[0] != c {
			t.Fatalf("SliceComments = %+v, %v; want %+v", cs, err, c)
		}
	}
	sess, err := s.sess()
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	if err := sess.ContextQuery(ctx, "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", nil).Bind(s.Keyspace()).SelectRelease(&tables); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"users", "friends", "followers", "tweets", "userline", "timeline", "public_line", "public_days", "authors", "blog_entries", "tagged_posts", "comments"} {
		if !slices.Contains(tables, want) {
			t.Fatalf("table %s is gone after the injection attempts: %v", want, tables)
		}
	}
	if _, err := s.GetUser(ctx, user); err != nil {
		t.Fatalf("the user is gone after the injection attempts: %v", err)
	}
}

// allPortCalls calls one method of every port on s and returns the errors.
func allPortCalls(ctx context.Context, s *Store) map[string]error {
	id := domain.NewTimeUUID(time.Now().UnixMicro())
	_, getUser := s.GetUser(ctx, "a")
	_, getUsers := s.GetUsers(ctx, []string{"a"})
	_, friends := s.Friends(ctx, "a", "", 10)
	_, getTweet := s.GetTweet(ctx, id)
	_, slice := s.Slice(ctx, domain.TimelineOf("a"), 0, 10)
	_, public := s.Slice(ctx, domain.PublicLine(), 0, 10)
	_, author := s.GetAuthor(ctx, "a")
	_, tagged := s.SliceTagged(ctx, "t", uuid.Nil, 10)
	return map[string]error{
		"CreateUser":  s.CreateUser(ctx, domain.User{ID: uuid.New(), Username: "a", CreatedAt: time.Now()}),
		"GetUser":     getUser,
		"GetUsers":    getUsers,
		"Follow":      s.Follow(ctx, "a", "b", time.Now()),
		"Friends":     friends,
		"SaveTweet":   s.SaveTweet(ctx, domain.Tweet{ID: id, Username: "a", Body: "b", CreatedAt: time.Now()}),
		"GetTweet":    getTweet,
		"Append":      s.Append(ctx, domain.LineEntry{Time: time.Now().UnixMicro(), TweetID: id}, domain.TimelineOf("a"), domain.TimelineOf("b")),
		"Slice":       slice,
		"SlicePublic": public,
		"Remove":      s.Remove(ctx, domain.TimelineOf("a"), 1),
		"GetAuthor":   author,
		"AddPosts":    s.AddPosts(ctx, "a", 1),
		"SliceTagged": tagged,
		"Ping":        s.Ping(ctx),
	}
}

func TestUnstartedStoreIsUnavailable(t *testing.T) {
	s, err := New(Config{Hosts: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	for op, err := range allPortCalls(context.Background(), s) {
		if !errors.Is(err, domain.ErrUnavailable) {
			t.Errorf("%s before Start: err = %v, want ErrUnavailable", op, err)
		}
	}
}

// TestClosedPortFailsFast points a Store at a port nobody listens on.
func TestClosedPortFailsFast(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close() // now nothing listens there
	start := time.Now()
	_, err = Open(context.Background(), Config{Hosts: []string{"127.0.0.1"}, Port: port, StartTimeout: time.Second, ConnectTimeout: 500 * time.Millisecond})
	if !errors.Is(err, domain.ErrUnavailable) {
		t.Fatalf("Open on a closed port: err = %v, want ErrUnavailable", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Open on a closed port took %v despite a 1s start timeout", d)
	}
}

// proxy forwards TCP connections to target until cut.
type proxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	conns  []net.Conn
	cut    atomic.Bool
}

func newProxy(t *testing.T, target string) *proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target}
	go p.serve()
	t.Cleanup(p.close)
	return p
}

func (p *proxy) port() int { return p.ln.Addr().(*net.TCPAddr).Port }

func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		u, err := net.Dial("tcp", p.target)
		if err != nil || p.cut.Load() {
			c.Close()
			if u != nil {
				u.Close()
			}
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, u)
		p.mu.Unlock()
		go func() { _, _ = io.Copy(u, c); u.Close() }()
		go func() { _, _ = io.Copy(c, u); c.Close() }()
	}
}

// close stops accepting and drops every forwarded connection: the node is gone.
func (p *proxy) close() {
	p.cut.Store(true)
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// TestNodeLostFailsFast connects through a proxy, cuts it, and expects every port method to
// fail with domain.ErrUnavailable within a bounded time, not hang.
func TestNodeLostFailsFast(t *testing.T) {
	shared := sharedStore(t)
	cfg := nodeConfig(t)
	p := newProxy(t, net.JoinHostPort(cfg.Hosts[0], strconv.Itoa(max(cfg.Port, DefaultPort))))
	cfg.Hosts, cfg.Port, cfg.Keyspace = []string{"127.0.0.1"}, p.port(), shared.Keyspace()
	cfg.Timeout, cfg.Retries = 2*time.Second, -1
	s, err := Open(testCtx(t, time.Minute), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Ping(context.Background()); err != nil {
		t.Fatalf("Ping through the proxy: %v", err)
	}
	p.close()
	start := time.Now()
	ctx := testCtx(t, 30*time.Second)
	for op, err := range allPortCalls(ctx, s) {
		if !errors.Is(err, domain.ErrUnavailable) {
			t.Errorf("%s with the node gone: err = %v, want ErrUnavailable", op, err)
		}
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("15 calls took %v with the node gone; they must fail fast", d)
	}
}

// countingObserver counts the requests a session sends.
type countingObserver struct {
	queries atomic.Int64
	batches atomic.Int64
	mu      sync.Mutex
	stmts   []string
}

func (o *countingObserver) ObserveQuery(_ context.Context, q gocql.ObservedQuery) {
	o.queries.Add(1)
	o.mu.Lock()
	o.stmts = append(o.stmts, q.Statement)
	o.mu.Unlock()
}

func (o *countingObserver) ObserveBatch(context.Context, gocql.ObservedBatch) { o.batches.Add(1) }

func (o *countingObserver) reset() {
	o.queries.Store(0)
	o.batches.Store(0)
	o.mu.Lock()
	o.stmts = nil
	o.mu.Unlock()
}

func (o *countingObserver) total() int64 { return o.queries.Load() + o.batches.Load() }

// observedStore opens a second Store on the shared keyspace whose session reports to obs.
func observedStore(t testing.TB, obs *countingObserver) *Store {
	shared := sharedStore(t)
	cfg := nodeConfig(t)
	cfg.Keyspace = shared.Keyspace()
	cfg.QueryObserver, cfg.BatchObserver = obs, obs
	s, err := Open(testCtx(t, time.Minute), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestTimelinePageIsOneRoundTrip reads a 40-tweet page of a home timeline through the use case
// and counts the requests: one slice of the timeline, whose query-first rows carry the tweets,
// once the hybrid fan-out's lookup of the pulled authors the reader follows is remembered.
func TestTimelinePageIsOneRoundTrip(t *testing.T) {
	obs := &countingObserver{}
	s := observedStore(t, obs)
	s.pulled.ttl = time.Hour // the test's second round must find the lookup remembered, however slow the machine
	ctx := testCtx(t, 2*time.Minute)
	svc := social.New(s, s, s, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	user := "rt_" + uuid.NewString()[:8]
	if _, err := svc.SignUp(ctx, user, "password1"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 45; i++ {
		if _, err := svc.Post(ctx, user, fmt.Sprintf("tweet %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	// There is a pulled author (the reader does not follow): the first page looks the reader's
	// follows among the pulled up, the next ones remember it.
	star := "rtstar_" + uuid.NewString()[:8]
	if _, err := svc.SignUp(ctx, star, "password1"); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkPulled(ctx, star); err != nil {
		t.Fatal(err)
	}
	obs.reset()
	if _, err := svc.Timeline(ctx, user, "", 40); err != nil {
		t.Fatal(err)
	}
	if n := obs.total(); n != 2 && n != 3 {
		t.Fatalf("the first page took %d round trips, want the slice and the lookup of pulled authors the reader follows (and of the pulled authors, unless remembered): %q", n, obs.stmts)
	}
	for round := 0; round < 2; round++ {
		obs.reset()
		page, err := svc.Timeline(ctx, user, "", 40)
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Tweets) != 40 || page.Next == "" {
			t.Fatalf("page has %d tweets, next %q", len(page.Tweets), page.Next)
		}
		if n := obs.total(); n != 1 {
			t.Fatalf("a timeline page of 40 took %d round trips, want 1 (one slice of one partition): %q", n, obs.stmts)
		}
	}
}

// TestPublicLineWalksDayBuckets pages the public line across day buckets with gaps of empty
// days between them, and checks that no empty calendar day is ever read.
func TestPublicLineWalksDayBuckets(t *testing.T) {
	obs := &countingObserver{}
	s := observedStore(t, obs)
	resetPublic(t, s)
	resetPublic(t, sharedStore(t))
	ctx := testCtx(t, time.Minute)
	day := time.Date(2014, 4, 17, 0, 0, 0, 0, time.UTC)
	var want []domain.LineEntry // newest first
	for _, d := range []int{0, -1, -5, -30} {
		for h := 23; h >= 0; h -= 11 {
			micros := day.AddDate(0, 0, d).Add(time.Duration(h) * time.Hour).UnixMicro()
			want = append(want, domain.LineEntry{Time: micros, TweetID: domain.NewTimeUUID(micros)})
		}
	}
	for _, e := range want {
		if err := s.Append(ctx, e, domain.PublicLine()); err != nil {
			t.Fatal(err)
		}
	}
	for _, limit := range []int{1, 2, 4, 5, 11, 12, 13} {
		var got []domain.LineEntry
		before := int64(0)
		for {
			page, err := s.Slice(ctx, domain.PublicLine(), before, limit)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, page...)
			if len(page) < limit {
				break
			}
			before = page[len(page)-1].Time
		}
		if !slices.Equal(got, want) {
			t.Fatalf("limit %d: paged %d entries, want the %d newest first", limit, len(got), len(want))
		}
	}
	// All twelve entries in one slice: the newest day, one read of the older days in
	// public_days, and one per older non-empty day (and, once a second, a read of the newest day
	// in public_days).
	obs.reset()
	if got, err := s.Slice(ctx, domain.PublicLine(), 0, 100); err != nil || len(got) != len(want) {
		t.Fatalf("Slice = %d entries, %v", len(got), err)
	}
	refresh := len(obs.stmts) > 0 && strings.HasPrefix(obs.stmts[0], "SELECT day FROM public_days WHERE line=? LIMIT")
	if n := obs.total(); n != 1+1+3 && !(refresh && n == 6) {
		t.Fatalf("a slice over 4 day buckets spread across 31 days took %d reads, want 5: %q", n, obs.stmts)
	}
	// A page that the newest day fills is one query.
	obs.reset()
	if got, err := s.Slice(ctx, domain.PublicLine(), 0, 2); err != nil || len(got) != 2 {
		t.Fatalf("Slice = %d entries, %v", len(got), err)
	}
	refresh = len(obs.stmts) > 0 && strings.HasPrefix(obs.stmts[0], "SELECT day FROM public_days WHERE line=? LIMIT")
	if n := obs.total(); n != 1 && !(refresh && n == 2) {
		t.Fatalf("a page within the newest day took %d reads, want 1: %q", n, obs.stmts)
	}
	// Past the oldest day there is nothing, found without probing older days.
	obs.reset()
	if got, err := s.Slice(ctx, domain.PublicLine(), want[len(want)-1].Time, 10); err != nil || len(got) != 0 {
		t.Fatalf("Slice past the oldest = %v, %v", got, err)
	}
	if n := obs.total(); n > 2 {
		t.Fatalf("a slice past the oldest entry took %d reads", n)
	}
	if err := s.Remove(ctx, domain.PublicLine(), want[0].Time, want[len(want)-1].Time); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Slice(ctx, domain.PublicLine(), 0, 100); !slices.Equal(got, want[1:len(want)-1]) {
		t.Fatalf("after removing the newest and the oldest (different day buckets): %d entries", len(got))
	}
}

// TestModule checks the fx wiring: the graph is complete, the ports work after start, and
// stop closes the session.
func TestModule(t *testing.T) {
	type needs struct {
		fx.In
		Users    ports.UserStore
		Tweets   ports.TweetStore
		Lines    ports.LineStore
		Authors  ports.AuthorStore
		Entries  ports.EntryStore
		Tags     ports.TagIndex
		Comments ports.CommentStore
		Pingers  []ports.Pinger `group:"pingers"`
	}
	if err := fx.ValidateApp(fx.Supply(Config{Hosts: []string{"127.0.0.1"}}), Module, fx.Invoke(func(needs) {})); err != nil {
		t.Fatalf("ValidateApp: %v", err)
	}
	cfg := nodeConfig(t)
	cfg.Keyspace = sharedStore(t).Keyspace()
	var got needs
	app := fx.New(fx.NopLogger, fx.Supply(cfg), Module, fx.Populate(&got))
	if err := app.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got.Pingers) != 1 {
		t.Fatalf("%d pingers in the group, want 1", len(got.Pingers))
	}
	if err := got.Pingers[0].Ping(context.Background()); !errors.Is(err, domain.ErrUnavailable) {
		t.Fatalf("Ping before start: %v, want ErrUnavailable", err)
	}
	if err := app.Start(testCtx(t, time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := got.Pingers[0].Ping(context.Background()); err != nil {
		t.Fatalf("Ping after start: %v", err)
	}
	if _, err := got.Users.GetUser(context.Background(), "nobody_"+uuid.NewString()[:8]); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("GetUser(missing) = %v, want ErrNotFound", err)
	}
	if err := app.Stop(testCtx(t, time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := got.Tweets.GetTweet(context.Background(), uuid.New()); !errors.Is(err, domain.ErrUnavailable) {
		t.Fatalf("GetTweet after stop: %v, want ErrUnavailable", err)
	}
}

// TestNetworkTopologyKeyspace creates a keyspace with per-DC replication and reads it back from
// the schema tables.
func TestNetworkTopologyKeyspace(t *testing.T) {
	cfg := nodeConfig(t)
	sess, err := sharedStore(t).sess()
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t, 2*time.Minute)
	var dc string
	if err := sess.ContextQuery(ctx, "SELECT data_center FROM system.local", nil).GetRelease(&dc); err != nil {
		t.Fatal(err)
	}
	cfg.Keyspace = randomKeyspace("twissandra_test_nts_")
	cfg.Replication = "NetworkTopologyStrategy:" + dc + "=1"
	cfg.LocalDC = dc
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.createKeyspace(ctx); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := sess.ContextQuery(context.Background(), "DROP KEYSPACE IF EXISTS "+cfg.Keyspace, nil).ExecRelease(); err != nil {
			t.Errorf("drop %s: %v", cfg.Keyspace, err)
		}
	}()
	var repl map[string]string
	if err := sess.ContextQuery(ctx, "SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?", nil).Bind(cfg.Keyspace).GetRelease(&repl); err != nil {
		t.Fatal(err)
	}
	if repl["class"] != "org.apache.cassandra.locator.NetworkTopologyStrategy" || repl[dc] != "1" {
		t.Fatalf("replication of %s = %v", cfg.Keyspace, repl)
	}
}
