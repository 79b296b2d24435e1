package site

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/http"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"
)

// The session is one cookie, signed (HMAC-SHA256) and encrypted (AES-256) by gorilla's
// securecookie with keys derived from the server's token secret: it holds the username, the
// CSRF token and the flash messages, and nothing lives in server memory.
const (
	// SessionCookie is the session cookie's name.
	SessionCookie = "twissandra_session"
	sessionMaxAge = 7 * 24 * 60 * 60

	keyUser = "user"
	keyCSRF = "csrf"

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

// LogIn starts a logged-in session. The CSRF token is replaced, so a token seen before the
// login is worth nothing after it.
func LogIn(c *gin.Context, username string) {
	s := sessions.Default(c)
	s.Set(keyUser, username)
	newCSRFToken(s)
}

// LogOut ends the session's login and replaces its CSRF token.
func LogOut(c *gin.Context) {
	s := sessions.Default(c)
	s.Delete(keyUser)
	newCSRFToken(s)
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
