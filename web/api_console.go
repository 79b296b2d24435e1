package web

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
)

// The consoles as an API: the languages a learner may type on this backend (cli on widerow, cql
// on cql3, both in compare mode), and a statement run in the caller's sandbox, as the console
// page runs it. The teaching room serves the consoles (ServeConsole); a server without it
// answers these routes with 404.
//
// Whose sandbox: a bearer token's user's ("user:<name>", the sandbox the user's pages use when
// signed in), else the browser of the request's session cookie, the pages' own cookie, made
// and set on the first call that has none ("browser:<id>"). A signed-in page cookie does not
// make the API's caller that user: the API knows a user by a token only.

// Console is the consoles the teaching room serves.
type Console interface {
	// Session is middleware that opens the request's session cookie (the pages'), which
	// Learner reads, then calls c.Next().
	Session(c *gin.Context)
	// Learner names the caller's sandbox: "user:<user>" when user is not "", else the browser
	// of the session cookie ("browser:<id>"), one made and the cookie set when it has none.
	Learner(c *gin.Context, user string) (string, error)
	// Languages are the languages this backend offers, in order ("cli", "cql"); none on a
	// backend without a console.
	Languages() []string
	// Info is what each language's console says of learner's sandbox before anything is
	// typed (its keyspace, column families or tables, what it may read, its bounds), in the
	// order of Languages, each a JSON object with its "language".
	Info(c *gin.Context, learner string) ([]any, error)
	// Run runs statement in learner's sandbox in language, one of Languages. A statement the
	// console refused is a domain.ErrInvalid whose message is the console's; a learner past a
	// bound a *domain.RetryError.
	Run(c *gin.Context, learner, language, statement string) (ConsoleRun, error)
}

// ConsoleRun is what POST /api/v1/console answers: the text the console shows, and the
// statements as they reached the store where the language has them (cql).
type ConsoleRun struct {
	Language string   `json:"language"`
	Output   string   `json:"output"`
	Sent     []string `json:"sent"`
}

// consoleRequest is a statement to run.
type consoleRequest struct {
	Language  string `json:"language" binding:"required"`
	Statement string `json:"statement" binding:"required"`
}

// consoleHolder is the consoles the teaching room installed, nil before.
type consoleHolder struct{ atomic.Pointer[Console] }

// ServeConsole installs the consoles the /api/v1/console routes answer with.
func (s *Server) ServeConsole(c Console) { s.console.Store(&c) }

func (s *Server) consoleOf(c *gin.Context) (Console, bool) {
	if p := s.console.Load(); p != nil {
		return *p, true
	}
	s.WriteError(c, clientError(domain.ErrNotFound, "this server serves no console"))
	return nil, false
}

func (s *Server) consoleRoutes() {
	s.API.GET("/console", s.consoleSession, s.getConsole)
	s.API.POST("/console", s.consoleSession, s.postConsole)
}

// consoleSession opens the pages' session cookie for the console's routes.
func (s *Server) consoleSession(c *gin.Context) {
	con, ok := s.consoleOf(c)
	if !ok {
		return
	}
	con.Session(c)
}

// consoleLearner is whose sandbox the request's: a bearer token's user (a token that is not
// valid is a 401), else the session cookie's browser.
func (s *Server) consoleLearner(c *gin.Context, con Console) (string, error) {
	user := ""
	if c.GetHeader("Authorization") != "" {
		claims, err := s.authenticate(c)
		if err != nil {
			return "", err
		}
		user = claims.Username
	}
	return con.Learner(c, user)
}

func (s *Server) getConsole(c *gin.Context) {
	con, _ := s.consoleOf(c)
	learner, err := s.consoleLearner(c, con)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	infos, err := con.Info(c, learner)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	langs := con.Languages()
	if langs == nil {
		langs = []string{}
	}
	if infos == nil {
		infos = []any{}
	}
	SetOpsHeader(c)
	c.JSON(http.StatusOK, gin.H{"languages": langs, "consoles": infos})
}

func (s *Server) postConsole(c *gin.Context) {
	con, _ := s.consoleOf(c)
	var req consoleRequest
	if err := bindJSON(c, &req); err != nil {
		s.WriteError(c, err)
		return
	}
	langs := con.Languages()
	if !slices.Contains(langs, req.Language) {
		offered := "none: this backend has no console"
		if len(langs) > 0 {
			q := make([]string, len(langs))
			for i, l := range langs {
				q[i] = strconv.Quote(l)
			}
			offered = strings.Join(q, ", ")
		}
		s.WriteError(c, domain.Invalid("language", "%s is not a console language of this server; it offers %s", strconv.Quote(req.Language), offered))
		return
	}
	learner, err := s.consoleLearner(c, con)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	out, err := con.Run(c, learner, req.Language, req.Statement)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	out.Language = req.Language
	if out.Sent == nil {
		out.Sent = []string{}
	}
	SetOpsHeader(c)
	c.JSON(http.StatusOK, out)
}
