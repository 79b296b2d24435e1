package site

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/http"
	"time"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"twissandra/domain/blog"
	"twissandra/domain/blog/model"
	"twissandra/domain/social"
	"twissandra/web"
)

// The session is one cookie, signed (HMAC-SHA256) and encrypted (AES-256) by gorilla's
// securecookie with keys derived from the server's token secret: it holds the username, the
// log-in's id and end, the CSRF token and the flash messages. A log-in lasts sessionMaxAge from
// the moment it was made, however often the cookie is rewritten; a logout ends it in the store
// (web.Server.EndSession), so that a copy of the cookie taken before is refused by every server.
const (
	// SessionCookie is the session cookie's name.
	SessionCookie = "twissandra_session"
	sessionMaxAge = 7 * 24 * 60 * 60

	keyUser = "user"
	keyCSRF = "csrf"
	keySID  = "sid"  // the log-in's id, as web.SessionID.String writes it
	keyEnds = "ends" // when the log-in ends, in Unix seconds

	// CSRFField is the form field that carries the session's CSRF token (the "csrf" partial
	// writes it).
	CSRFField = "csrf_token"
)

// The kinds of flash message: a page shows each once, on the next page rendered.
const (
	FlashOK    = "flash_ok"
	FlashError = "flash_err"
)

// KeySource derives keys from the server's secret; *web.Server is one.
type KeySource interface {
	DeriveKey(purpose string, n int) ([]byte, error)
}

func newSessionStore(keys KeySource) (sessions.Store, error) {
	hashKey, err := keys.DeriveKey("pages session cookie hmac v1", 64)
	if err != nil {
		return nil, err
	}
	blockKey, err := keys.DeriveKey("pages session cookie aes v1", 32)
	if err != nil {
		return nil, err
	}
	store := newCookieStore(hashKey, blockKey)
	// The codec refuses cookies older than this, whatever the browser keeps.
	store.MaxAge(sessionMaxAge)
	store.Options(baseCookieOptions(false))
	return store, nil
}

func baseCookieOptions(secure bool) sessions.Options {
	return sessions.Options{
		Path:     "/",
		MaxAge:   sessionMaxAge,
		HttpOnly: true,
		Secure:   secure,
		SameSite: http.SameSiteLaxMode,
	}
}

// saveSession writes the cookie if the session changed; when the client reached the server
// over TLS (its own, or a trusted proxy's: web.Server.HTTPS) the cookie is Secure.
func (s *Site) saveSession(c *gin.Context) error {
	sess := sessions.Default(c)
	if w, ok := sess.(interface{ Written() bool }); ok && !w.Written() {
		return nil
	}
	if s.https(c.Request) {
		sess.Options(baseCookieOptions(true))
	}
	return sess.Save()
}

// Session is the pages' session cookie as middleware of a route outside the pages (the
// console's API, whose anonymous caller's sandbox is the cookie's browser): it opens the
// session, then runs the rest of the chain. Nothing of the pages' checks runs: such a route
// reads the session's browser, never its log-in.
func (s *Site) Session(c *gin.Context) { s.session(c) }

// SaveSession writes the session's cookie when it changed, before the response's body: what a
// route outside the pages must call after it set something in the session.
func (s *Site) SaveSession(c *gin.Context) error { return s.saveSession(c) }

// User is the logged-in username, or "".
func User(c *gin.Context) string {
	v, _ := sessions.Default(c).Get(keyUser).(string)
	return v
}

// csrfToken returns the session's CSRF token, making one if the session has none yet.
func csrfToken(c *gin.Context) string {
	s := sessions.Default(c)
	if v, ok := s.Get(keyCSRF).(string); ok && v != "" {
		return v
	}
	return newCSRFToken(s)
}

func newCSRFToken(s sessions.Session) string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	tok := base64.RawURLEncoding.EncodeToString(b)
	s.Set(keyCSRF, tok)
	return tok
}

// LogIn starts a logged-in session, with an id of its own and an end sessionMaxAge away. The
// CSRF token is replaced, so a token seen before the login is worth nothing after it.
func (st *Site) LogIn(c *gin.Context, username string) {
	s := sessions.Default(c)
	id := web.NewSessionID()
	s.Set(keyUser, username)
	s.Set(keySID, id.String())
	s.Set(keyEnds, time.Now().Add(sessionMaxAge*time.Second).Unix())
	newCSRFToken(s)
	st.server.SessionOpened(id)
	st.server.GiveDevice(c)
}

// Comment posts a blog comment on svc under the comments' limits (web.Server.Comment).
func (st *Site) Comment(c *gin.Context, svc *blog.Service, slug string, d blog.CommentDraft) (model.Comment, error) {
	return st.server.Comment(c, svc, slug, d)
}

// GiveDevice gives the request's browser a device unless it has one (web.Server.GiveDevice).
func (st *Site) GiveDevice(c *gin.Context) { st.server.GiveDevice(c) }

// LoginClient is who a log-in attempt of this request comes from (web.Server.LoginClient).
func (st *Site) LoginClient(c *gin.Context) social.Client { return st.server.LoginClient(c) }

// LogOut ends the session's log-in on every server (a copy of the cookie is refused from now
// on) and replaces its CSRF token.
func (st *Site) LogOut(c *gin.Context) error {
	s := sessions.Default(c)
	if id, ends, ok := loginOf(s); ok {
		if err := st.server.EndSession(c.Request.Context(), id, ends); err != nil {
			return err
		}
	}
	signOut(s)
	return nil
}

// signOut forgets the session's log-in and replaces its CSRF token.
func signOut(s sessions.Session) {
	s.Delete(keyUser)
	s.Delete(keySID)
	s.Delete(keyEnds)
	newCSRFToken(s)
}

// loginOf reads the session's log-in: its id and its end.
func loginOf(s sessions.Session) (web.SessionID, time.Time, bool) {
	raw, _ := s.Get(keySID).(string)
	ends, ok := s.Get(keyEnds).(int64)
	id, okID := web.ParseSessionID(raw)
	return id, time.Unix(ends, 0), ok && okID
}

// checkLogin signs the request's session out when its log-in is over: ended by a logout on any
// server, past its end, or made before log-ins had an id (which no logout could have ended).
// A store that cannot say fails the page, as any read of it would.
func (st *Site) checkLogin(c *gin.Context) {
	s := sessions.Default(c)
	if user, _ := s.Get(keyUser).(string); user == "" {
		return
	}
	id, ends, ok := loginOf(s)
	if ok && time.Now().Before(ends) {
		ended, err := st.server.SessionEnded(c.Request.Context(), id, ends)
		if err != nil {
			st.Fail(c, err)
			c.Abort()
			return
		}
		if !ended {
			return
		}
	}
	signOut(s)
}

// AddFlash adds a message of kind (FlashOK, FlashError) for the next page rendered.
func AddFlash(c *gin.Context, kind, msg string) { sessions.Default(c).AddFlash(msg, kind) }

// takeFlashes returns and clears the flashes of one kind; a session with none is left untouched
// (so that rendering a page does not rewrite the cookie for nothing).
func takeFlashes(c *gin.Context, kind string) []string {
	s := sessions.Default(c)
	if s.Get(kind) == nil {
		return nil
	}
	var out []string
	for _, f := range s.Flashes(kind) {
		if m, ok := f.(string); ok {
			out = append(out, m)
		}
	}
	return out
}

var errCSRF = errors.New("missing or wrong CSRF token")

// checkCSRF compares the form's token with the session's in constant time.
func checkCSRF(c *gin.Context) error {
	want, _ := sessions.Default(c).Get(keyCSRF).(string)
	got := c.Request.PostFormValue(CSRFField)
	if want == "" || got == "" || subtle.ConstantTimeCompare([]byte(want), []byte(got)) != 1 {
		return errCSRF
	}
	return nil
}
