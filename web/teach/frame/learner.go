package frame

import (
	"crypto/rand"
	"encoding/base64"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"twissandra/web/site"
)

// keyBrowser is the session cookie's key of the browser's random id (the labs' row, a
// learner's sandbox until they sign in).
const keyBrowser = "lab"

// BrowserID is the browser's random id, kept in its session cookie; create makes one when the
// session has none (the response then sets the cookie). It is "" without one and !create.
func BrowserID(c *gin.Context, create bool) string {
	s := sessions.Default(c)
	if v, ok := s.Get(keyBrowser).(string); ok && v != "" {
		return v
	}
	if !create {
		return ""
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	id := base64.RawURLEncoding.EncodeToString(b)
	s.Set(keyBrowser, id)
	return id
}

// LearnerID names the learner of a page request: "user:<name>" when signed in, else
// "browser:<id>" (the browser's session, made when create). A learner's sandbox, lab rows and
// data "of their own" follow it. It is "" for a browser without a session and !create.
func LearnerID(c *gin.Context, create bool) string {
	if u := site.User(c); u != "" {
		return "user:" + u
	}
	if id := BrowserID(c, create); id != "" {
		return "browser:" + id
	}
	return ""
}
