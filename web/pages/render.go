package pages

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/ports/oplog"
	"twissandra/web"
)

// pageTemplate is the layout, the shared partials and one page, parsed together, so that every
// page defines its own "title" and "content" blocks without colliding with another's.
type pageTemplate struct{ t *template.Template }

// pageFiles lists the page templates; each is parsed with layout.html and partials.html.
var pageFiles = []string{
	"home", "user", "follows", "login", "find", "error",
	"blog_index", "blog_entry", "blog_author", "blog_new",
	"models", "inspect", "inspect_cql",
	"where", "lab", "race", "partitions", "generations", "celebrity",
}

var funcs = template.FuncMap{
	"when": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("2 Jan 2006 15:04 UTC")
	},
	"iso":        func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"pathEscape": url.PathEscape,
	"join":       strings.Join,
	"lines":      func(s string) []string { return strings.Split(s, "\n") },
	"nameAt":     nameAt,
	"add":        func(a, b int) int { return a + b },
	// short cuts s to n runes, with an ellipsis.
	"short": func(s string, n int) string {
		if r := []rune(s); len(r) > n {
			return string(r[:n-1]) + "…"
		}
		return s
	},
	// micros shows a duration in microseconds, as an operation's time reads best.
	"micros": func(d time.Duration) string {
		return strconv.FormatFloat(float64(d)/float64(time.Microsecond), 'f', 0, 64) + " µs"
	},
	// inspect is the storage inspector's address for a query a store made (url.Values encoded).
	"inspect": func(query string) template.URL { return template.URL("/models/inspect?" + query) },
	// cqlTable is the table name at the start of a mapping's CQL3 table, "" for none.
	"cqlTable": func(s string) string {
		name, _, _ := strings.Cut(s, " ")
		if strings.HasPrefix(name, "(") {
			return ""
		}
		return name
	},
}

func loadTemplates() (map[string]*pageTemplate, error) {
	out := make(map[string]*pageTemplate, len(pageFiles))
	for _, name := range pageFiles {
		t, err := template.New(name).Funcs(funcs).ParseFS(templateFS,
			"templates/layout.html", "templates/partials.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("pages: parse %s: %w", name, err)
		}
		out[name] = &pageTemplate{t: t}
	}
	return out, nil
}

// view is what every page template gets: the layout's fields and the page's own Data.
type view struct {
	Title      string
	Me         string
	CSRF       string
	FlashOK    []string
	FlashError []string
	Backend    string
	BlogOn     bool
	Nav        string
	Ops        []oplog.Op
	OpsDropped int
	OpsSummary string
	// Action is what the action that redirected here cost (a post, a follow), if any.
	Action *actionOps
	// Secondary is what this page cost the second model (compare mode), Elapsed the first
	// model's time (timed in compare mode only), Divergences the reads the two answered
	// differently and the secondary's failures.
	Secondary   *opsSet
	Elapsed     time.Duration
	Divergences []string
	// Queries are the access patterns this page serves (accessPatterns).
	Queries []accessPattern
	// Cached says that caches answered some lookups (ops starting with "cache "), so the same
	// page may cost more on a first visit.
	Cached bool
	Data   any
}

// render executes the page into a buffer, then saves the session, sets the Storage-Ops header
// and writes the page with status. A template failure is a logged 500, never half a page.
func (h *handler) render(c *gin.Context, status int, page, title, nav string, data any) {
	v := view{
		Title:      title,
		Me:         currentUser(c),
		CSRF:       csrfToken(c),
		FlashOK:    takeFlashes(c, flashOK),
		FlashError: takeFlashes(c, flashError),
		Backend:    h.deps.Backend,
		BlogOn:     h.deps.Blog != nil,
		Nav:        nav,
		Data:       data,
	}
	v.Action = h.takeActionOps(c)
	v.Queries = queriesOf(c)
	ops := oplog.LogFrom(c.Request.Context())
	v.Ops, v.OpsDropped = ops.Ops()
	v.OpsSummary = ops.Summary()
	if c.Request.Method == http.MethodGet && c.FullPath() == "/" && v.Me != "" {
		if m := costOf(ops); m != nil { // a home timeline page, measured
			h.costs.page.Store(m)
		}
	}
	if v.Secondary = secondaryOps(ops); v.Secondary != nil {
		v.Elapsed = ops.Elapsed().Round(time.Microsecond)
		for _, op := range v.Ops {
			if op.Kind == oplog.Divergence {
				v.Divergences = append(v.Divergences, op.Text)
			}
		}
	}
	v.Cached = slices.ContainsFunc(v.Ops, isCacheOp) || (v.Action != nil && slices.ContainsFunc(v.Action.Ops, isCacheOp))

	var buf bytes.Buffer
	pt, ok := h.tmpl[page]
	var err error
	if !ok {
		err = fmt.Errorf("no template %q", page)
	} else {
		err = pt.t.ExecuteTemplate(&buf, "layout", v)
	}
	if err != nil {
		h.log.Error("render page", "page", page, "err", err)
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString("<!doctype html><title>Error</title><h1>Something went wrong</h1><p>The page could not be built.</p>")
	}
	if err := saveSession(c); err != nil {
		h.log.Error("save session", "err", err)
	}
	web.SetOpsHeader(c)
	c.Header("Cache-Control", "no-store")
	c.Header("X-Content-Type-Options", "nosniff")
	c.Header("X-Frame-Options", "DENY")
	c.Header("Referrer-Policy", "same-origin")
	c.Header("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	c.Data(status, "text/html; charset=utf-8", buf.Bytes())
	c.Abort()
}

type errorData struct {
	Status  int
	Heading string
	Message string
}

// errorPage renders the error page with status.
func (h *handler) errorPage(c *gin.Context, status int, heading, message string) {
	h.render(c, status, "error", heading, "", errorData{Status: status, Heading: heading, Message: message})
}

// fail renders the error page for err, mapped to a status by web.MapError; server errors are
// logged with their details and shown generically.
func (h *handler) fail(c *gin.Context, err error) {
	p := web.MapError(err)
	heading := http.StatusText(p.Status)
	msg := p.Message
	switch {
	case p.Status == http.StatusNotFound:
		heading, msg = "Not found", "There is nothing here: "+p.Message+"."
	case p.Status >= 500:
		h.log.LogAttrs(c.Request.Context(), slog.LevelError, "page failed",
			slog.String("path", c.Request.URL.Path), slog.Any("error", err))
		heading = "Something went wrong"
		if p.Status == http.StatusServiceUnavailable {
			msg = "The storage is not answering right now. Try again in a moment."
		} else {
			msg = "The page could not be built. Try again in a moment."
		}
	}
	h.errorPage(c, p.Status, heading, msg)
}

// redirect saves the session (flashes, login) and answers 303 See Other.
func (h *handler) redirect(c *gin.Context, to string) {
	if c.Request.Method == http.MethodPost {
		h.keepActionOps(c, actionName(c))
	}
	if err := saveSession(c); err != nil {
		h.log.Error("save session", "err", err)
	}
	web.SetOpsHeader(c)
	c.Redirect(http.StatusSeeOther, to)
	c.Abort()
}

// problemMessage is the message to show beside a form for err, and its status.
func problemMessage(err error) (int, string) {
	var ve *domain.ValidationError
	if errors.As(err, &ve) {
		return http.StatusBadRequest, sentence(ve.Error())
	}
	p := web.MapError(err)
	return p.Status, sentence(p.Message)
}

// sentence capitalises the first letter and ends with a full stop.
func sentence(s string) string {
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// safeNext accepts only a local path as a place to go back to.
func safeNext(s string) string {
	if s == "" || !strings.HasPrefix(s, "/") || strings.HasPrefix(s, "//") || strings.HasPrefix(s, "/\\") {
		return "/"
	}
	return s
}

// isCacheOp reports whether op says a cache answered, not the store.
func isCacheOp(op oplog.Op) bool { return strings.HasPrefix(op.Text, "cache ") }
