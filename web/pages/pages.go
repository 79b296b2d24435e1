// Package pages serves Twissandra's HTML pages on the web package's gin engine: the timelines,
// user pages, sign-in and sign-up, find people, the blog, and the "Models" teaching views (the
// running backend's schema beside the other model's, a storage inspector of the widerow engine's
// rows and the cql3 backend's partitions, and the storage operations of every request).
//
// Sessions are one signed and encrypted cookie; every form carries a per-session CSRF token;
// failed logins are throttled per username and per client address.
package pages

import (
	"embed"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"time"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/domain/social"
	"twissandra/ports/teaching"
	"twissandra/web"
)

// noneIfNil sets *p, an interface, to nil when it holds a nil pointer.
func noneIfNil[T any](p *T) {
	if r := reflect.ValueOf(*p); r.Kind() == reflect.Pointer && r.IsNil() {
		var none T
		*p = none
	}
}

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Deps are the pages' collaborators.
type Deps struct {
	// Social runs Twissandra's use cases (required). Build it on stores wrapped by package
	// web/opstrace for the storage-operations footer to list anything.
	Social *social.Service
	// Blog runs the blog; nil leaves the blog pages out.
	Blog *blog.Service
	// Backend names the running backend: "widerow", "cql3" or "memory".
	Backend string
	// Wide reads the widerow engine's rows, for the storage inspector and the live schema; nil
	// on the other backends.
	Wide teaching.WideRowInspector
	// StorageConf is the widerow engine's storage-conf.xml, shown on the models page when the
	// running backend is another (Wide nil).
	StorageConf string
	// CQL reads the cql3 backend's tables for the storage inspector; nil elsewhere.
	CQL teaching.CQLInspector
	// Lab is the comparator and slice lab's scratch keyspace; nil leaves the lab out.
	Lab teaching.ColumnLab
	// Claims is the uniqueness race's sandbox in the running backend's model; nil leaves the
	// race out.
	Claims teaching.NameClaims
	// Sizes measures the running store's rows for the partition lessons; nil leaves them out.
	Sizes teaching.RowSizer
	// CompareSizes measures compare mode's second backend, named CompareBackend, beside the
	// running one; nil outside compare mode.
	CompareSizes   teaching.RowSizer
	CompareBackend string
	// Locator says where each record lives, for the "where does it live" pages; nil leaves
	// them out.
	Locator teaching.Locator
	// CQLSchema is the CQL DDL of the cql3 adapter (its migrations); empty means the pages'
	// own rendition of the equivalent tables.
	CQLSchema string
	// QueryFirstDDL is the cql3 adapter's migrations whatever the backend, for the Chebotko
	// diagram of the generations page; empty leaves the diagram out.
	QueryFirstDDL string
	// Clock drives login throttling; nil means the wall clock.
	Clock domain.Clock
	// Logger receives errors; nil means the server's.
	Logger *slog.Logger
}

// Login throttling: this many failures per window, per username and per client address.
const (
	loginMaxFailures = 5
	loginWindow      = time.Minute
	loginMaxKeys     = 10000
)

// Page sizes.
const (
	linePageSize   = domain.DefaultPageSize
	followPreview  = 20
	followPageSize = 100
	blogPageSize   = 10
	commentsPage   = 40
)

type handler struct {
	deps      Deps
	log       *slog.Logger
	tmpl      map[string]*pageTemplate
	userFails *limiter
	addrFails *limiter
	actions   *actionStore
	costs     costLedger
	diagram   *chebDiagram // of Deps.QueryFirstDDL, laid out once
}

// Register adds the pages to the server's engine: the routes, the static files, and the HTML
// 404 and 405 pages for every path outside /api/ (which keeps its JSON answers).
func Register(s *web.Server, deps Deps) error {
	if deps.Social == nil {
		return errors.New("pages: Deps.Social is required")
	}
	if deps.Logger == nil {
		deps.Logger = s.Logger()
	}
	// A nil pointer from an optional fx dependency is no collaborator.
	noneIfNil(&deps.Wide)
	noneIfNil(&deps.CQL)
	noneIfNil(&deps.Lab)
	noneIfNil(&deps.Claims)
	noneIfNil(&deps.Sizes)
	noneIfNil(&deps.CompareSizes)
	noneIfNil(&deps.Locator)
	if deps.Backend == "" {
		deps.Backend = "memory"
	}
	now := time.Now
	if deps.Clock != nil {
		now = deps.Clock.Now
	}
	tmpl, err := loadTemplates()
	if err != nil {
		return err
	}
	store, err := newSessionStore(s)
	if err != nil {
		return err
	}
	h := &handler{
		deps:      deps,
		log:       deps.Logger,
		tmpl:      tmpl,
		userFails: newLimiter(loginMaxFailures, loginWindow, loginMaxKeys, now),
		addrFails: newLimiter(loginMaxFailures, loginWindow, loginMaxKeys, now),
		actions:   newActionStore(),
	}
	if deps.QueryFirstDDL != "" {
		d := chebotko(deps.QueryFirstDDL)
		h.diagram = &d
	}

	static, err := fs.Sub(staticFS, "static")
	if err != nil {
		return err
	}
	for _, name := range []string{"style.css", "app.js", "favicon.svg", "celebrity.svg"} {
		s.Engine.StaticFileFS("/static/"+name, name, http.FS(static))
	}
	// Browsers ask for /favicon.ico whatever the page links: the same SVG answers.
	s.Engine.GET("/favicon.ico", func(c *gin.Context) {
		c.Header("Cache-Control", "public, max-age=86400")
		c.FileFromFS("favicon.svg", http.FS(static))
	})

	mw := []gin.HandlerFunc{web.OpLog(), sessions.Sessions(sessionCookie, store), web.Recovery(h.log, "panic serving page", h.serverError), h.csrf}
	g := s.Engine.Group("/", mw...)
	h.routes(g)

	notFound := append([]gin.HandlerFunc{apiPassThrough(s.APINotFound), trimTrailingSlash}, append(mw, h.notFound)...)
	s.Engine.NoRoute(notFound...)
	noMethod := append([]gin.HandlerFunc{apiPassThrough(s.APIMethodNotAllowed)}, append(mw, h.methodNotAllowed)...)
	s.Engine.NoMethod(noMethod...)
	return nil
}

// apiPassThrough answers paths under /api/ with the JSON API's handler and leaves every other
// path to the HTML handlers after it.
func apiPassThrough(api gin.HandlerFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		if strings.HasPrefix(c.Request.URL.Path, "/api/") {
			api(c)
			c.Abort()
		}
	}
}

// trimTrailingSlash sends a browser's GET of "/blog/" to "/blog", as readers expect of pages
// (the engine's own redirect is off, so that the JSON API never redirects).
func trimTrailingSlash(c *gin.Context) {
	p := c.Request.URL.Path
	if (c.Request.Method != http.MethodGet && c.Request.Method != http.MethodHead) || len(p) < 2 || !strings.HasSuffix(p, "/") {
		return
	}
	target := strings.TrimRight(p, "/")
	if target == "" || strings.HasPrefix(target, "//") {
		return
	}
	u := url.URL{Path: target, RawQuery: c.Request.URL.RawQuery}
	c.Redirect(http.StatusMovedPermanently, u.String())
	c.Abort()
}

func (h *handler) routes(g *gin.RouterGroup) {
	g.GET("", h.home)
	g.POST("tweets", h.postTweet)
	g.GET("public", h.public)
	g.GET("users/:username", h.userPage)
	g.GET("users/:username/friends", h.followList(true))
	g.GET("users/:username/followers", h.followList(false))
	g.POST("users/:username/follow", h.follow)
	g.POST("users/:username/unfollow", h.unfollow)
	g.GET("find", h.find)
	g.GET("login", h.loginPage)
	g.POST("login", h.login)
	g.POST("signup", h.signup)
	g.POST("logout", h.logout)
	g.GET("models", h.models)
	g.GET("models/inspect", h.inspect)
	g.GET("models/where", h.where)
	h.registerLab(g)
	g.GET("models/partitions", h.partitions)
	g.GET("models/generations", h.generations)
	g.GET("models/celebrity", h.celebrity)
	g.GET("models/race", h.racePage)
	g.POST("models/race", h.runRace)
	if h.deps.Blog != nil {
		g.GET("blog", h.blogIndex)
		g.GET("blog/tags/:tag", h.blogTag)
		g.GET("blog/entries/:slug", h.blogEntry)
		g.POST("blog/entries/:slug/comments", h.blogComment)
		g.GET("blog/authors/:name", h.blogAuthor)
		g.GET("blog/new", h.blogNewForm)
		g.POST("blog/new", h.blogPublish)
	}
}

// csrf refuses every POST whose form lacks the session's CSRF token, with a readable 403 page.
func (h *handler) csrf(c *gin.Context) {
	if c.Request.Method != http.MethodPost {
		c.Next()
		return
	}
	if err := c.Request.ParseForm(); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			h.errorPage(c, http.StatusRequestEntityTooLarge, "Too much data",
				"The form sent more data than this site accepts. Shorten what you typed and try again.")
			return
		}
		h.errorPage(c, http.StatusBadRequest, "Bad form", "The form could not be read. Reload the page and try again.")
		return
	}
	if err := checkCSRF(c); err != nil {
		h.errorPage(c, http.StatusForbidden, "Form expired or forged",
			"This form did not carry this site's security token, so nothing was done. "+
				"If you sent it yourself, go back, reload the page and send it again.")
		return
	}
	c.Next()
}

// serverError is the HTML 500 page, the pages' answer to a panic.
func (h *handler) serverError(c *gin.Context) {
	h.errorPage(c, http.StatusInternalServerError, "Something went wrong", "The page could not be built. Try again in a moment.")
}

func (h *handler) notFound(c *gin.Context) {
	h.errorPage(c, http.StatusNotFound, "Page not found", "There is no page at "+c.Request.URL.Path+".")
}

func (h *handler) methodNotAllowed(c *gin.Context) {
	h.errorPage(c, http.StatusMethodNotAllowed, "Not allowed", "This page does not accept "+c.Request.Method+" requests.")
}
