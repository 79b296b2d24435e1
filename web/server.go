// Package web is Twissandra's HTTP layer on gin: the JSON API v1 under /api/v1, health
// endpoints, middleware and the one error mapping (MapError).
//
// # Adding routes
//
// NewServer builds the engine, its middleware and every route group; other parts of the package
// (the blog API, HTML pages) add their routes the same way the JSON API does:
//
//  1. write a file (api_blog.go, pages.go, ...) with a method such as
//     func (s *Server) blogRoutes() { g := s.API.Group("/blog"); g.GET("/entries", s.listEntries) ... }
//  2. call it from (*Server).routes in server.go;
//  3. put new dependencies in Deps.
//
// Handlers answer errors with s.WriteError(c, err) (JSON) or use MapError for other formats;
// s.RequireAuth is the bearer-token middleware and ClaimsFrom reads its result.
package web

import (
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/domain/blog"
	"twissandra/domain/social"
	"twissandra/ports"
)

// DefaultMaxBodyBytes is the request body limit when Config.MaxBodyBytes is 0.
const DefaultMaxBodyBytes = 64 << 10

// Config holds the web layer's settings.
type Config struct {
	// TokenSecret signs bearer tokens; at least MinTokenSecretLen bytes. Empty means a random
	// secret for this process: tokens then die with it and work on no other process.
	TokenSecret []byte
	// TokenTTL is how long a token lives; 0 means DefaultTokenTTL (24h).
	TokenTTL time.Duration
	// MaxBodyBytes limits request bodies; 0 means DefaultMaxBodyBytes (64 KiB).
	MaxBodyBytes int64
	// TrustedProxies are the addresses or CIDRs whose X-Forwarded-For is believed; none by default.
	TrustedProxies []string
	// CachePublicPages keeps the public line's first pages between posts (see pageCache). Turn
	// it on only when this process is the only writer of the stores (the embedded widerow
	// store, the memory store): it learns of posts from its own social.Service only.
	CachePublicPages bool
	// SlowRequest is the duration from which a request is logged at Info (the others at
	// Debug); 0 means DefaultSlowRequest, negative never.
	SlowRequest time.Duration
	// ReadTimeout bounds the reading of a request's body, from when the handlers start (its
	// headers are bounded by the http.Server); WriteTimeout the writing of a response, from its
	// first byte. 0 means the defaults, negative no bound. A client that sends a byte a second,
	// or never reads what it asked for, is dropped when its bound passes.
	ReadTimeout, WriteTimeout time.Duration
	// SessionRecheck is how long the server believes that a session it found open (a token, a
	// page session) is still open: a logout on another server takes up to this long to be seen
	// here (a logout here is seen at once). 0 means DefaultSessionRecheck; negative never asks
	// again, for a store that this process alone writes (the embedded backends).
	SessionRecheck time.Duration
	// MetricsElsewhere leaves /metrics off this server's routes, for a process that serves its
	// metrics on a listener of their own (serve --metrics-addr): a public address then says
	// nothing of the process's load, stores and errors.
	MetricsElsewhere bool
}

// The defaults of Config.ReadTimeout, Config.WriteTimeout and Config.SessionRecheck.
const (
	DefaultSessionRecheck = time.Second
	DefaultReadTimeout    = 10 * time.Second
	DefaultWriteTimeout   = 20 * time.Second
)

// orDefault is d, or def when d is 0, or 0 (no bound) when d is negative.
func orDefault(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}

// DefaultSlowRequest is the default Config.SlowRequest.
const DefaultSlowRequest = 500 * time.Millisecond

// Deps are the web layer's collaborators.
type Deps struct {
	Social *social.Service
	// Access logs users in under the limit and ends sessions, over the backend's
	// SessionStore (required).
	Access *social.Access
	// Blog serves /api/v1/blog; nil leaves the blog API out.
	Blog *blog.Service
	// Ready are asked by /readyz; may be empty.
	Ready []ports.Pinger
	// Logger receives request and error logs; nil discards them.
	Logger *slog.Logger
	// Clock drives token issue and expiry; nil means the wall clock.
	Clock domain.Clock
}

// Server is the assembled HTTP layer. Its fields are what later route files build on.
type Server struct {
	// Engine is the gin engine: an http.Handler with the middleware installed.
	Engine *gin.Engine
	// API is the /api/v1 route group.
	API *gin.RouterGroup
	// Tokens issues and checks the bearer tokens of the API.
	Tokens *Tokens

	cfg    Config
	deps   Deps
	log    *slog.Logger
	tweets *TweetCache
	// proxies are the trusted proxies, whose X-Forwarded-Proto HTTPS believes.
	proxies proxies
	pages   *pageCache // nil unless Config.CachePublicPages
	// sessions says whether a token's or a page's session was ended (sessions.go).
	sessions *sessionCheck
	// deviceKey signs the device cookie (device.go).
	deviceKey []byte
	// comments bounds the blog's anonymous comments (AdmitComment).
	comments *social.Gate
	// pagesRefuse: the pages answer their requests refused before a handler (PagesAnswerRefusals).
	pagesRefuse bool
	// course is the course the teaching room serves (api_course.go).
	course courseHolder
	// class is the instructor's class and token (api_class.go).
	class classHolder
	// console is the consoles the teaching room serves (api_console.go).
	console consoleHolder
}

// NewEngine builds the server and returns its gin engine (see NewServer).
func NewEngine(cfg Config, deps Deps) (*gin.Engine, error) {
	s, err := NewServer(cfg, deps)
	if err != nil {
		return nil, err
	}
	return s.Engine, nil
}

// NewServer builds the engine: release mode, explicit trusted proxies, request logging,
// recovery, the body size limit, the JSON 404/405 handlers and every route.
func NewServer(cfg Config, deps Deps) (*Server, error) {
	if deps.Social == nil {
		return nil, errors.New("web: Deps.Social is required")
	}
	if deps.Access == nil {
		return nil, errors.New("web: Deps.Access is required")
	}
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.MaxBodyBytes < 0 {
		return nil, fmt.Errorf("web: MaxBodyBytes must not be negative, got %d", cfg.MaxBodyBytes)
	}
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	secret := cfg.TokenSecret
	if len(secret) == 0 {
		secret = make([]byte, MinTokenSecretLen)
		if _, err := rand.Read(secret); err != nil {
			return nil, fmt.Errorf("web: random token secret: %w", err)
		}
		deps.Logger.Warn("no token secret configured: using a random one, so tokens end with this process")
	}
	tokens, err := NewTokens(secret, cfg.TokenTTL, deps.Clock)
	if err != nil {
		return nil, err
	}

	gin.SetMode(gin.ReleaseMode)
	engine := gin.New()
	if err := engine.SetTrustedProxies(cfg.TrustedProxies); err != nil {
		return nil, fmt.Errorf("web: trusted proxies: %w", err)
	}
	engine.HandleMethodNotAllowed = true
	// The API answers every path with a documented status, never a redirect: gin's trailing-slash
	// redirect would send /api/v1/public/ or /api/v1/tweets/%2F a 301 no client expects. The HTML
	// pages redirect trailing slashes themselves (web/site).
	engine.RedirectTrailingSlash = false

	trusted, err := parseProxies(cfg.TrustedProxies)
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	s := &Server{Engine: engine, Tokens: tokens, cfg: cfg, deps: deps, log: deps.Logger, tweets: NewTweetCache(TweetCacheSize), proxies: trusted}
	if cfg.CachePublicPages {
		s.pages = newPageCache()
	}
	clock := deps.Clock
	if clock == nil {
		clock = domain.SystemClock{}
	}
	recheck := cfg.SessionRecheck
	if recheck == 0 {
		recheck = DefaultSessionRecheck
	}
	s.sessions = newSessionCheck(deps.Access, recheck, clock)
	if s.deviceKey, err = s.DeriveKey("device cookie", 32); err != nil {
		return nil, err
	}
	s.comments = deps.Access.NewGate("comment", social.CommentLimits)
	engine.Use(httpMetrics(), noSniff)
	engine.Use(requestLogger(s.log, slowThreshold(cfg.SlowRequest)), Recovery(s.log, "panic serving request", internalError),
		opLog(orDefault(cfg.WriteTimeout, DefaultWriteTimeout)), bodyLimit(s, cfg.MaxBodyBytes, orDefault(cfg.ReadTimeout, DefaultReadTimeout)))
	engine.NoRoute(s.noRoute)
	engine.NoMethod(s.noMethod)
	s.API = engine.Group("/api/v1")
	s.routes()
	return s, nil
}

// routes registers every route group. Later route files add one call each here.
func (s *Server) routes() {
	s.healthRoutes()
	s.userRoutes()
	s.tweetRoutes()
	s.blogRoutes()
	s.courseRoutes()
	s.classRoutes()
	s.consoleRoutes()
	if !s.cfg.MetricsElsewhere {
		s.metricsRoutes()
	}
	s.openAPIRoutes()
}

// Handler returns the server as an http.Handler.
func (s *Server) Handler() http.Handler { return s.Engine }

func (s *Server) noRoute(c *gin.Context) {
	s.WriteError(c, clientError(domain.ErrNotFound, "no route for %s %s", c.Request.Method, c.Request.URL.Path))
}

func (s *Server) noMethod(c *gin.Context) {
	c.AbortWithStatusJSON(http.StatusMethodNotAllowed, ErrorBody{
		Error:   SlugMethodNotAllow,
		Message: fmt.Sprintf("method %s is not allowed on %s", c.Request.Method, c.Request.URL.Path),
	})
}

// slowThreshold reads Config.SlowRequest: 0 is the default, negative never (0 to requestLogger).
func slowThreshold(d time.Duration) time.Duration {
	switch {
	case d == 0:
		return DefaultSlowRequest
	case d < 0:
		return 0
	}
	return d
}
