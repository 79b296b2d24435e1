package web

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/domain/social"
)

// An instructor's tools as an API: a class's roster, its pre-made accounts and its reset, behind
// the instructor's token (--instructor-token), sent as a bearer. The teaching room serves the
// class (ServeClass); a server without it, or started without a token, answers these routes
// with 404 and says how to turn them on. A wrong token is a 401 and counts, as a failed log-in
// does, under InstructorLimits: past them every try is a 429, the right token included.

// Class is a class's tools, which the teaching room serves.
type Class interface {
	// Roster is class's learners with their progress, last action and console use. An
	// invalid class name is a domain.ErrInvalid.
	Roster(ctx context.Context, class string) (ClassRoster, error)
	// MakeAccounts makes n accounts for class and says their passwords, which nothing keeps.
	MakeAccounts(ctx context.Context, class string, n int) (ClassAccounts, error)
	// Reset clears what class's learners did (progress, activity, and what else the room can),
	// and nothing else.
	Reset(ctx context.Context, class string) (ClassReset, error)
}

// ClassRoster is GET /api/v1/class/{class}.
type ClassRoster struct {
	Class string `json:"class"`
	// Lessons and Exercises are how many the course has.
	Lessons   int            `json:"lessons"`
	Exercises int            `json:"exercises"`
	Learners  []ClassLearner `json:"learners"`
}

// ClassLearner is one account of a class on its roster.
type ClassLearner struct {
	Username        string     `json:"username"`
	LessonsVisited  int        `json:"lessons_visited"`
	ExercisesPassed int        `json:"exercises_passed"`
	Visited         []string   `json:"visited"`
	Passed          []string   `json:"passed"`
	LastAction      string     `json:"last_action"`
	LastAt          *time.Time `json:"last_at"`
	Statements      int64      `json:"console_statements"`
}

// ClassAccounts is the answer of POST /api/v1/class/{class}/accounts.
type ClassAccounts struct {
	Class    string         `json:"class"`
	Accounts []ClassAccount `json:"accounts"`
}

// ClassAccount is one account made for a class.
type ClassAccount struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

// ClassReset is the answer of POST /api/v1/class/{class}/reset.
type ClassReset struct {
	Class string `json:"class"`
	// Learners is how many accounts' progress and activity were cleared.
	Learners int `json:"learners"`
	// Left says, in words, what the reset does not clear.
	Left []string `json:"left"`
}

// InstructorLimits bound the tries of the instructor's token, as the log-in limit bounds a
// password's: counted in the store for every server, per device and per address.
var InstructorLimits = social.GateLimits{Window: time.Minute, PerDevice: 5, PerAddressDevices: 20, PerAddress: 10, PerServer: 100}

// classServed is the class the teaching room installed and the instructor's token.
type classServed struct {
	class Class
	token string
	gate  *social.Gate
}

type classHolder struct{ atomic.Pointer[classServed] }

// ServeClass installs the class the /api/v1/class routes and the instructor's page answer
// with, behind token; an empty token leaves the tools off.
func (s *Server) ServeClass(cl Class, token string) {
	s.class.Store(&classServed{class: cl, token: token, gate: s.deps.Access.NewGate("instructor log-in", InstructorLimits)})
}

// InstructorOn reports whether this server has an instructor: a class served and a token.
func (s *Server) InstructorOn() bool {
	p := s.class.Load()
	return p != nil && p.token != ""
}

// ErrNoInstructor is what the class's tools answer on a server started without a token.
var ErrNoInstructor = clientError(domain.ErrNotFound, "this server has no instructor: start it with --instructor-token (or TWISSANDRA_INSTRUCTOR_TOKEN) set to a secret of at least 16 characters")

// CheckInstructor checks given against the instructor's token, under InstructorLimits: nil
// when it is right, domain.ErrUnauthenticated when it is wrong (and the try counts), a
// *domain.RetryError past the limits, ErrNoInstructor when the server has none.
func (s *Server) CheckInstructor(c *gin.Context, given string) error {
	p := s.class.Load()
	if p == nil || p.token == "" {
		return ErrNoInstructor
	}
	if given == "" {
		return clientError(domain.ErrUnauthenticated, "the instructor's token is required (Authorization: Bearer <token>)")
	}
	ctx := c.Request.Context()
	pass, err := p.gate.Admit(ctx, s.LoginClient(c))
	if err != nil {
		return err
	}
	if !sameSecret(given, p.token) {
		return clientError(domain.ErrUnauthenticated, "wrong instructor token")
	}
	return pass.Undo(context.WithoutCancel(ctx))
}

// InstructorMark is what a page's session keeps once its instructor gave the right token: a
// hash of the token, so that a session outlives no change of it and the cookie holds no token.
func (s *Server) InstructorMark() string {
	p := s.class.Load()
	if p == nil || p.token == "" {
		return ""
	}
	h := sha256.Sum256([]byte("twissandra instructor\x00" + p.token))
	return hex.EncodeToString(h[:16])
}

// IsInstructorMark reports whether mark is this server's InstructorMark.
func (s *Server) IsInstructorMark(mark string) bool {
	want := s.InstructorMark()
	return want != "" && subtle.ConstantTimeCompare([]byte(mark), []byte(want)) == 1
}

func sameSecret(a, b string) bool {
	ha, hb := sha256.Sum256([]byte(a)), sha256.Sum256([]byte(b))
	return subtle.ConstantTimeCompare(ha[:], hb[:]) == 1
}

func (s *Server) classRoutes() {
	s.API.GET("/class/:class", s.requireInstructor, s.getClass)
	s.API.POST("/class/:class/accounts", s.requireInstructor, s.postClassAccounts)
	s.API.POST("/class/:class/reset", s.requireInstructor, s.postClassReset)
}

// requireInstructor lets a request with the instructor's token as its bearer through.
func (s *Server) requireInstructor(c *gin.Context) {
	given, _ := bearerToken(c.GetHeader("Authorization")) // none or malformed: ""
	if err := s.CheckInstructor(c, given); err != nil {
		s.WriteError(c, err)
		return
	}
	c.Next()
}

func (s *Server) classOf() Class { return s.class.Load().class }

func (s *Server) getClass(c *gin.Context) {
	r, err := s.classOf().Roster(c.Request.Context(), c.Param("class"))
	if err != nil {
		s.WriteError(c, err)
		return
	}
	SetOpsHeader(c)
	c.JSON(http.StatusOK, r)
}

// accountsRequest asks for N accounts.
type accountsRequest struct {
	N int `json:"n"`
}

func (s *Server) postClassAccounts(c *gin.Context) {
	var req accountsRequest
	if err := bindJSON(c, &req); err != nil {
		s.WriteError(c, err)
		return
	}
	a, err := s.classOf().MakeAccounts(c.Request.Context(), c.Param("class"), req.N)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	SetOpsHeader(c)
	c.JSON(http.StatusCreated, a)
}

func (s *Server) postClassReset(c *gin.Context) {
	r, err := s.classOf().Reset(c.Request.Context(), c.Param("class"))
	if err != nil {
		s.WriteError(c, err)
		return
	}
	SetOpsHeader(c)
	c.JSON(http.StatusOK, r)
}

// ServedCourse is the course the teaching room installed (ServeCourse), if any.
func (s *Server) ServedCourse() (Course, bool) {
	if p := s.course.Load(); p != nil {
		return *p, true
	}
	return nil, false
}
