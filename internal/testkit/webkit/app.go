// Package webkit is the kit of the web layer's tests: a server of the pages (and whatever views a
// test registers) on one backend's stores, a browser-like HTTP client, and headless Chromium for
// the end-to-end tests. The tests of web/pages and of every web/teach package use it; nothing
// else does.
package webkit

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"twissandra/adapters/compare"
	"twissandra/adapters/cql3"
	cqlteach "twissandra/adapters/cql3/teach"
	"twissandra/adapters/memory"
	memteach "twissandra/adapters/memory/teach"
	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	wideteach "twissandra/adapters/widerow/teach"
	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/domain/social"
	"twissandra/internal/testkit/cqltest"
	"twissandra/ports"
	"twissandra/ports/teaching"
	"twissandra/web"
	"twissandra/web/site"
)

// App is a server with the pages (and the views a test registered) on one backend, and the
// services behind it.
type App struct {
	Srv    *httptest.Server
	Social *social.Service
	Blog   *blog.Service
}

// Stores are one backend's stores, and the teaching views' readers of them.
type Stores struct {
	Users    ports.UserStore
	Tweets   ports.TweetStore
	Lines    ports.LineStore
	Authors  ports.AuthorStore
	Entries  ports.EntryStore
	Tags     ports.TagIndex
	Comments ports.CommentStore
	Sessions ports.SessionStore
	Node     *engine.Node // nil off widerow
	Wide     teaching.WideRowInspector
	CQL      teaching.CQLInspector
	Locator  teaching.Locator
	Claims   teaching.NameClaims
	Sizes    teaching.RowSizer
	QueryLab teaching.QueryLab
	Ring     teaching.Ring
	// CompareRing places keys on compare mode's second backend's ring.
	CompareRing teaching.Ring
	// Levels tries the consistency levels on the cql3 backend's cluster (cql3 only)
	Levels teaching.ClusterLevels
	// IndexLab finds a user four ways on the cql3 backend's node (cql3, compare mode)
	IndexLab teaching.IndexLab
	// Progress keeps signed-in learners' progress through the course (nil: the session).
	Progress teaching.ProgressStore
	// TTL is the TTL lesson's lab on a node (cql3, or compare mode's second backend).
	TTL teaching.TTLLab
	// AddressBook is the collections lesson's lab on the node (cql3 only).
	AddressBook teaching.AddressBookLab
	// Counters is the counters lesson's table on the node (cql3 only).
	Counters teaching.CounterLab
	// Storage is the widerow engine's storage, for the write and read paths lesson (widerow only).
	Storage teaching.StorageEngine
	// NodeViews reads the cql3 node's virtual tables, for the same lesson (cql3, compare mode).
	NodeViews teaching.NodeViews
	// CompareSizes measures compare mode's second backend, CompareBackend.
	CompareSizes   teaching.RowSizer
	CompareBackend string
	// Consoles are the backend's consoles (cli on widerow, cql on cql3, both in compare mode).
	Consoles []teaching.Console
	NoLab    bool // serve without the comparator lab
	Backend  string
	// Clock is the use cases' clock (nil: the wall clock).
	Clock domain.Clock
	// Classes keeps the instructor's classes (nil: no instructor's page; see ClassBookOf), and
	// InstructorToken is the instructor's secret (empty: the tools are off).
	Classes         teaching.ClassBook
	InstructorToken string
}

// WithClasses is st with the backend's ClassBook and, where st keeps none, its ProgressStore,
// as serve wires them, and the instructor's token.
func WithClasses(st Stores, token string) Stores {
	switch st.Backend {
	case "memory":
		st.Classes = memteach.NewClassBook(nil)
	case "widerow":
		st.Classes = wideteach.NewClassBook(st.Node)
		if st.Progress == nil {
			st.Progress = wideteach.NewProgress(st.Node)
		}
	case "cql3":
		in := st.CQL.(*cqlteach.Store)
		st.Classes = in
		if st.Progress == nil {
			st.Progress = in
		}
	}
	st.InstructorToken = token
	return st
}

// The constructors of the backends' stores and teaching readers are called here only.

// MemoryStores are the memory backend's.
func MemoryStores() Stores {
	m, b := memory.New(), memory.NewBlog()
	return Stores{Users: m, Tweets: m, Lines: m, Authors: b, Entries: b, Tags: b, Comments: b, Sessions: memory.NewSessions(),
		Locator: memteach.Locator{Store: m, Blog: b}, Sizes: memteach.Locator{Store: m, Blog: b}, Claims: memteach.NewNameClaims(), Backend: "memory",
		QueryLab: memteach.Locator{Store: m, Blog: b}, Ring: memteach.Locator{Store: m, Blog: b}, Progress: memteach.NewProgress()}
}

// WiderowStores are the widerow backend's, on an engine node of the test's own.
func WiderowStores(t testing.TB) Stores {
	t.Helper()
	node, err := widerow.OpenNode(widerow.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = node.Close() })
	s, b := widerow.NewStore(node), widerow.NewBlogStore(node)
	in := wideteach.NewInspector(node)
	con, err := wideteach.NewConsole(node, wideteach.ConsoleConfig{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = con.Close() })
	return Stores{Consoles: []teaching.Console{con}, Users: s, Tweets: s, Lines: s, Authors: b, Entries: b, Tags: b, Comments: b, Sessions: widerow.NewSessions(node),
		Node: node, Wide: in, Locator: in, Sizes: in, Claims: wideteach.NewNameClaims(node), Backend: "widerow", QueryLab: in, Ring: in,
		Storage: wideteach.NewStorageEngine(node)}
}

// WiderowStore is widerow's store of Twissandra on node.
func WiderowStore(node *engine.Node) *widerow.Store { return widerow.NewStore(node) }

// CQL3Stores opens a cql3 Store on a keyspace of this test only (dropped at the end), on the
// node of internal/testkit/cqltest: without it the test skips, loudly; under CI=true it fails.
func CQL3Stores(t *testing.T) (Stores, *cql3.Store) {
	t.Helper()
	s := cqltest.Store(t, "twissandra_test_pages_")
	in := cqlteach.New(s)
	t.Cleanup(func() { dropConsoleKeyspace(t, s) }) // before the store closes
	return Stores{Consoles: []teaching.Console{cqlteach.NewConsole(in, cqlteach.ConsoleConfig{})}, Users: s, Tweets: s, Lines: s, Authors: s, Entries: s, Tags: s, Comments: s, Sessions: s, CQL: in, Locator: in, Claims: in, Sizes: in, QueryLab: in, Ring: in, TTL: in, AddressBook: in, Counters: in, NodeViews: in, IndexLab: in, Backend: "cql3"}, s
}

// CompareStores runs widerow (answering) with cql3 on the real node, as serve --compare does.
func CompareStores(t *testing.T) Stores {
	t.Helper()
	st, _ := CompareStoresOn(t)
	return st
}

// CompareStoresOn is CompareStores, and the cql3 store of its second model.
func CompareStoresOn(t *testing.T) (Stores, *cql3.Store) {
	t.Helper()
	w := WiderowStores(t)
	c, cs := CQL3Stores(t)
	p := &compare.Pair{Primary: "widerow", Secondary: "cql3"}
	st := w
	both := compare.Stores(p, w.Ports(), c.Ports())
	st.Users, st.Tweets, st.Lines = both.Users, both.Tweets, both.Lines
	st.Authors, st.Entries, st.Tags, st.Comments, st.Sessions = both.Authors, both.Entries, both.Tags, both.Comments, both.Sessions
	st.Locator = compare.Locator(p, w.Locator, c.Locator)
	st.CompareSizes, st.CompareBackend, st.CompareRing = c.Sizes, "cql3", c.Ring
	st.QueryLab = c.QueryLab       // as serve --compare cql3 wires it: the lesson tries keys on the node
	st.Levels = cqlteach.New(cs)   // and the consistency lesson its levels
	st.TTL = c.TTL                 // and the TTL lesson its runs
	st.AddressBook = c.AddressBook // and the collections lesson its forms
	st.Counters = c.Counters       // and the counters lesson its table
	st.NodeViews = c.NodeViews     // and the paths lesson the node's views
	st.IndexLab = c.IndexLab       // and the lesson on indexes its four ways
	st.Consoles = append(st.Consoles, c.Consoles...)
	return st, cs
}

// dropConsoleKeyspace drops the CQL console's keyspace beside s's, if a test made one.
func dropConsoleKeyspace(t *testing.T, s *cql3.Store) {
	sess, err := s.Session()
	if err != nil {
		t.Errorf("drop the console's keyspace: %v", err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := sess.ContextQuery(ctx, "DROP KEYSPACE IF EXISTS "+cqlteach.ConsoleKeyspace(s.Keyspace()), nil).ExecRelease(); err != nil {
		t.Errorf("drop the console's keyspace: %v", err)
	}
}

// Lab is a comparator lab of its own (and the consistency lab's ring), closed with the test.
func Lab(t testing.TB) *wideteach.Lab {
	t.Helper()
	l, err := wideteach.NewLab()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}

// Ports are the stores as one ports.Stores.
func (st Stores) Ports() ports.Stores {
	return ports.Stores{Users: st.Users, Tweets: st.Tweets, Lines: st.Lines,
		Authors: st.Authors, Entries: st.Entries, Tags: st.Tags, Comments: st.Comments, Sessions: st.Sessions}
}

// ConsolesByLanguage are st's consoles by their language, as the server wires them.
func (st Stores) ConsolesByLanguage() map[string]teaching.Console {
	m := map[string]teaching.Console{}
	for _, con := range st.Consoles {
		m[con.Language()] = con
	}
	return m
}

// Services are what the views a test registers are given: the use cases on the stores, and the
// stores themselves.
type Services struct {
	Social *social.Service
	Blog   *blog.Service
	Access *social.Access
	Stores Stores
}

// A Register adds views to the site, as pages.Register and teach.Register do.
type Register func(t testing.TB, s *site.Site, sv Services) error

// NewApp serves the JSON API and the views of each register on st, in the site's frame. Every
// store records its own operations (package oplog), as the server's do. cfg is the web layer's
// configuration (its token secret is the tests').
func NewApp(t testing.TB, st Stores, cfg web.Config, registers ...Register) *App {
	t.Helper()
	hasher := domain.NewPasswordHasher(bcrypt.MinCost)
	svc := social.New(st.Users, st.Tweets, st.Lines, st.Clock, hasher)
	bl := blog.New(st.Authors, st.Entries, st.Tags, st.Comments, st.Clock)
	access := social.NewAccess(svc, st.Sessions, nil)
	cfg.TokenSecret = []byte(strings.Repeat("k", 32))
	if cfg.SessionRecheck == 0 {
		if st.Backend != "cql3" && st.CompareBackend == "" {
			cfg.SessionRecheck = -1 // this process alone writes st, as serve on an embedded backend
		} else {
			// On a node a session is asked of the store again once a recheck has passed: an
			// hour, not serve's second, so that the operations a page costs (which tests count
			// and compare between runs) do not depend on how long a run took on a loaded
			// machine. web's tests hold the recheck itself.
			cfg.SessionRecheck = time.Hour
		}
	}
	s, err := web.NewServer(cfg, web.Deps{Social: svc, Access: access})
	if err != nil {
		t.Fatal(err)
	}
	frame, err := site.New(s, site.Config{Blog: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range registers {
		if err := r(t, frame, Services{Social: svc, Blog: bl, Access: access, Stores: st}); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(s.Engine)
	t.Cleanup(srv.Close)
	return &App{Srv: srv, Social: svc, Blog: bl}
}

// BG is the context of a test's direct calls.
func BG() context.Context { return context.Background() }
