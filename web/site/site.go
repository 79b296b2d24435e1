// Package site is the frame every HTML page of Twissandra shares: the session cookie, the CSRF
// token of every form, flash messages, the layout and the partials every page uses, rendering
// (headers, the strict Content-Security-Policy, a 500 rather than half a page), error pages,
// redirects, the static files, the HTML 404 and 405 pages and the trailing-slash redirect.
//
// It knows no page: package pages serves the product's pages and package teach the teaching
// views, each registering its routes on Routes and rendering its components with Render. What the
// teaching views add to every page (the footer that says what the page cost) comes through a
// Teacher, which the site calls and knows nothing of.
package site

import (
	"embed"
	"errors"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"twissandra/web"
)

//go:embed static
var staticFS embed.FS

// Config is what the frame needs to know of the site.
type Config struct {
	// Blog says the blog is served: the layout's navigation links to it.
	Blog bool
	// Logger receives errors; nil means the server's.
	Logger *slog.Logger
}

// Site is the frame of the HTML pages on one server's engine. Build it with New, then register
// the pages on it; it is not safe to change (Teach) once it serves.
type Site struct {
	engine  *gin.Engine
	routes  *gin.RouterGroup
	log     *slog.Logger
	blog    bool
	https   func(*http.Request) bool
	teacher Teacher
	server  *web.Server
	session gin.HandlerFunc // the session cookie's middleware
}

// New adds the frame to the server's engine: the static files, the middleware every page runs
// behind (the operation log, the session, panic recovery, CSRF), and the HTML 404 and 405 pages
// for every path outside /api/ (which keeps its JSON answers).
func New(s *web.Server, cfg Config) (*Site, error) {
	if cfg.Logger == nil {
		cfg.Logger = s.Logger()
	}
	store, err := newSessionStore(s)
	if err != nil {
		return nil, err
	}
	st := &Site{engine: s.Engine, log: cfg.Logger, blog: cfg.Blog, https: s.HTTPS, server: s}
	// A form's body over the limit gets the pages' error page, not the API's JSON.
	s.PagesAnswerRefusals()
	static, err := fs.Sub(staticFS, "static")
	if err != nil {
		return nil, err
	}
	st.Static(static, "style.css", "app.js", "favicon.svg")
	// Browsers ask for /favicon.ico whatever the page links: the same SVG answers.
	s.Engine.GET("/favicon.ico", func(c *gin.Context) {
		c.Header("Cache-Control", "public, max-age=86400")
		c.FileFromFS("favicon.svg", http.FS(static))
	})

	st.session = sessions.Sessions(SessionCookie, store)
	mw := []gin.HandlerFunc{web.OpLog(), st.session, web.Recovery(st.log, "panic serving page", st.serverError), st.checkLogin, st.refusedBody, st.csrf}
	st.routes = s.Engine.Group("/", mw...)

	notFound := append([]gin.HandlerFunc{apiPassThrough(s.APINotFound), trimTrailingSlash}, append(mw, st.notFound)...)
	s.Engine.NoRoute(notFound...)
	noMethod := append([]gin.HandlerFunc{apiPassThrough(s.APIMethodNotAllowed)}, append(mw, st.methodNotAllowed)...)
	s.Engine.NoMethod(noMethod...)
	return st, nil
}

// Routes is the group the pages register their routes on, at the root: each of its handlers
// runs behind the frame's middleware.
func (s *Site) Routes() *gin.RouterGroup { return s.routes }

// Server is the server whose engine the site serves on, for the parts of the API the pages'
// packages provide (the course).
func (s *Site) Server() *web.Server { return s.server }

// Logger is the logger of the pages' errors.
func (s *Site) Logger() *slog.Logger { return s.log }

// Static serves each named file of fsys at /static/<name>.
func (s *Site) Static(fsys fs.FS, names ...string) {
	for _, name := range names {
		s.engine.StaticFileFS("/static/"+name, name, http.FS(fsys))
	}
}

// Teach installs the teaching views' part of every page (see Teacher); without one, pages have
// no teaching footer.
func (s *Site) Teach(t Teacher) { s.teacher = t }

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

// csrf refuses every POST whose form lacks the session's CSRF token, with a readable 403 page.
func (s *Site) csrf(c *gin.Context) {
	if c.Request.Method != http.MethodPost {
		c.Next()
		return
	}
	if err := c.Request.ParseForm(); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			s.ErrorPage(c, http.StatusRequestEntityTooLarge, "Too much data",
				"The form sent more data than this site accepts. Shorten what you typed and try again.")
			return
		}
		s.ErrorPage(c, http.StatusBadRequest, "Bad form", "The form could not be read. Reload the page and try again.")
		return
	}
	if err := checkCSRF(c); err != nil {
		s.ErrorPage(c, http.StatusForbidden, "Form expired or forged",
			"This form did not carry this site's security token, so nothing was done. "+
				"If you sent it yourself, go back, reload the page and send it again.")
		return
	}
	c.Next()
}

// serverError is the HTML 500 page, the pages' answer to a panic.
func (s *Site) serverError(c *gin.Context) {
	s.ErrorPage(c, http.StatusInternalServerError, "Something went wrong", "The page could not be built. Try again in a moment.")
}

func (s *Site) notFound(c *gin.Context) {
	s.ErrorPage(c, http.StatusNotFound, "Page not found", "There is no page at "+c.Request.URL.Path+".")
}

func (s *Site) methodNotAllowed(c *gin.Context) {
	s.ErrorPage(c, http.StatusMethodNotAllowed, "Not allowed", "This page does not accept "+c.Request.Method+" requests.")
}

// refusedBody answers a page request whose body the server refused (web.RefusedBody) with the
// error page, before anything reads the body.
func (s *Site) refusedBody(c *gin.Context) {
	if err := web.RefusedBody(c); err != nil {
		s.Fail(c, err)
		c.Abort()
	}
}
