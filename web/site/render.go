package site

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/web"
)

//go:generate go tool templ generate -path .

// Page is what a handler renders: its title, the navigation link it marks as the current page
// ("" for none), and its content, which the layout frames.
type Page struct {
	Title   string
	Nav     string
	Content templ.Component
}

// View is what the layout shows around a page's content: the frame's fields and the teaching
// views' footer.
type View struct {
	Title      string
	Me         string
	FlashOK    []string
	FlashError []string
	BlogOn     bool
	Nav        string
	// Banner is what the teaching views show at the top of the main content (Teacher.Banner),
	// Footer what they show at the head of the footer (Teacher.Footer).
	Banner, Footer templ.Component
}

// The page being rendered carries its gin context in the context its components get, for what
// a component asks of the request (CSRFInput's token).
type ginKey struct{}

// CSRF is the CSRF token of the session of the page being rendered in ctx (made on first use, so
// a page without a form writes no session), "" outside a page.
func CSRF(ctx context.Context) string {
	c, _ := ctx.Value(ginKey{}).(*gin.Context)
	if c == nil {
		return ""
	}
	return csrfToken(c)
}

// bufs are the buffers pages are rendered into: a page is written whole or, on a failure, not
// at all, and its buffer serves the next page.
var bufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// Render renders p in the layout into a buffer, then saves the session, sets the Storage-Ops
// header and the security headers, and writes the page with status. A rendering failure is a
// logged 500, never half a page.
func (s *Site) Render(c *gin.Context, status int, p Page) {
	v := &View{
		Title:      p.Title,
		Me:         User(c),
		FlashOK:    takeFlashes(c, FlashOK),
		FlashError: takeFlashes(c, FlashError),
		BlogOn:     s.blog,
		Nav:        p.Nav,
	}
	s.measured(c)
	if s.teacher != nil {
		v.Banner, v.Footer = s.teacher.Banner(c), s.teacher.Footer(c)
	}
	buf := bufs.Get().(*bytes.Buffer)
	buf.Reset()
	defer bufs.Put(buf)
	err := layout(v, p.Content).Render(context.WithValue(c.Request.Context(), ginKey{}, c), buf)
	if err != nil && c.Request.Context().Err() != nil {
		// The client left: templ stopped rendering for nobody. Nothing failed here.
		c.AbortWithStatus(web.StatusClientClosed)
		return
	}
	if err != nil {
		s.log.Error("render page", "page", p.Title, "err", err)
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString("<!doctype html><title>Error</title><h1>Something went wrong</h1><p>The page could not be built.</p>")
	}
	s.write(c, status, buf.Bytes())
}

// write saves the session, sets the Storage-Ops header and the security headers, and writes the
// page with status.
func (s *Site) write(c *gin.Context, status int, page []byte) {
	if err := s.saveSession(c); err != nil {
		s.log.Error("save session", "err", err)
	}
	web.SetOpsHeader(c)
	h := c.Writer.Header()
	for k, v := range pageHeaders {
		h[k] = v
	}
	c.Data(status, "text/html; charset=utf-8", page)
	c.Abort()
}

// pageHeaders are the headers of every page: no caching, no sniffing, no framing, the referrer
// kept to this site, and the strict Content-Security-Policy (no inline style or script). Their
// value slices are shared by every response (net/http never changes one in place).
var pageHeaders = map[string][]string{
	"Cache-Control":           {"no-store"},
	"X-Content-Type-Options":  {"nosniff"},
	"X-Frame-Options":         {"DENY"},
	"Referrer-Policy":         {"same-origin"},
	"Content-Security-Policy": {"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"},
}

// ErrorPage renders the error page with status.
func (s *Site) ErrorPage(c *gin.Context, status int, heading, message string) {
	s.Render(c, status, Page{Title: heading, Content: errorContent(status, heading, message)})
}

// Fail renders the error page for err, mapped to a status by web.MapError; server errors are
// logged with their details and shown generically.
func (s *Site) Fail(c *gin.Context, err error) {
	p := web.MapError(err)
	heading := http.StatusText(p.Status)
	msg := p.Message
	switch {
	case p.Status == http.StatusNotFound:
		heading, msg = "Not found", "There is nothing here: "+p.Message+"."
	case p.Status >= 500:
		s.log.LogAttrs(c.Request.Context(), slog.LevelError, "page failed",
			slog.String("path", c.Request.URL.Path), slog.Any("error", err))
		heading = "Something went wrong"
		if p.Status == http.StatusServiceUnavailable {
			msg = "The storage is not answering right now. Try again in a moment."
		} else {
			msg = "The page could not be built. Try again in a moment."
		}
	}
	s.ErrorPage(c, p.Status, heading, msg)
}

// Redirect saves the session (flashes, login) and answers 303 See Other to to. action names
// the form's action c carried, for the learner ("your post"): the Teacher keeps what it cost
// for the next page to show. It is "" for a redirect that answers no form.
func (s *Site) Redirect(c *gin.Context, to, action string) {
	s.measured(c)
	if action != "" && s.teacher != nil {
		s.teacher.Acted(c, action)
	}
	if err := s.saveSession(c); err != nil {
		s.log.Error("save session", "err", err)
	}
	web.SetOpsHeader(c)
	c.Redirect(http.StatusSeeOther, to)
	c.Abort()
}

// RefuseBack answers a form whose action failed with err: a failure of the server is its error
// page (Fail); anything else, a refusal of the learner's input, is flashed on the page at back,
// where the form was.
func (s *Site) RefuseBack(c *gin.Context, err error, back string) {
	status, msg := ProblemMessage(err)
	if status >= http.StatusInternalServerError {
		s.Fail(c, err)
		return
	}
	AddFlash(c, FlashError, msg)
	s.Redirect(c, back, "")
}

// ProblemMessage is the message to show beside a form for err, and its status.
func ProblemMessage(err error) (int, string) {
	return problemMessage(err)
}

// Problem is ProblemMessage for a form's answer to c: an error that says when to try again
// (too many sign-ups, comments) also sets Retry-After.
func Problem(c *gin.Context, err error) (int, string) {
	if after, ok := web.RetryAfter(err); ok {
		c.Header("Retry-After", after)
	}
	return problemMessage(err)
}

func problemMessage(err error) (int, string) {
	var ve *domain.ValidationError
	if errors.As(err, &ve) {
		return http.StatusBadRequest, Sentence(ve.Error())
	}
	p := web.MapError(err)
	return p.Status, Sentence(p.Message)
}

// Sentence capitalises the first letter and ends with a full stop.
func Sentence(s string) string {
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// SafeNext accepts only a local path as a place to go back to.
func SafeNext(s string) string {
	if s == "" || !strings.HasPrefix(s, "/") || strings.HasPrefix(s, "//") || strings.HasPrefix(s, "/\\") {
		return "/"
	}
	// A browser drops tabs and line breaks from a URL and reads a backslash as a slash, so
	// "/\t/evil.example" is "//evil.example", another host: no control character, no backslash.
	if strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' }) {
		return "/"
	}
	return s
}
