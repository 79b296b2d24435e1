package labs

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/models"
)

// The console page (/learn/console): the languages the backend offers, a picker where there
// are two, the learner's keyspace and what it holds and the console's bounds (its Info, read
// each time), a form, and the learner's recent runs. Its form, and every lesson's console box
// (frame.ConsoleBox), post to it: the statements run, the run is kept for the learner's pages,
// and the answer is a redirect back (post, redirect, get), whose footer lists what the
// statements cost. The same consoles serve the JSON API (web.Console, consoleAPI).

// consoleData is what the console page shows.
type consoleData struct {
	Backend string
	Langs   []string
	Lang    string // the one picked; "" when the backend has none
	Info    *teaching.ConsoleInfo
	InfoErr string
	History []frame.ConsoleEntry // the learner's runs in Lang, newest first
	Input   string               // the textarea: the last run's text from this page
}

func (h *Handler) registerConsole(g *gin.RouterGroup) {
	g.GET("learn/console", h.consolePage)
	g.POST("learn/console", h.consoleRun)
	h.Site.Server().ServeConsole(consoleAPI{h})
}

func (h *Handler) consolePage(c *gin.Context) {
	d := consoleData{Backend: h.Deps.Backend, Langs: h.ConsoleLanguages()}
	if len(d.Langs) > 0 {
		d.Lang = d.Langs[0]
		if l := c.Query("lang"); slices.Contains(d.Langs, l) {
			d.Lang = l
		}
		// The page gives a browser without a session one: the sandbox it shows is the one the
		// browser's statements will run in (Info makes nothing).
		info, err := h.Deps.Consoles[d.Lang].Info(h.ConsoleContext(c.Request.Context(), d.Lang), frame.LearnerID(c, true))
		if err != nil {
			if models.StatusOf(err) >= http.StatusInternalServerError {
				h.Site.Fail(c, err)
				return
			}
			d.InfoErr = site.Sentence(err.Error())
		} else {
			d.Info = &info
		}
		for _, e := range h.ConsoleHistory(c) {
			if e.Language != d.Lang {
				continue
			}
			if d.Input == "" && e.From == frame.ConsoleURL {
				d.Input = e.Input
			}
			d.History = append(d.History, e)
		}
	}
	title := "Console"
	if d.Lang != "" {
		title = frame.LanguageName(d.Lang) + " console"
	}
	h.Site.Render(c, http.StatusOK, site.Page{Title: title, Nav: "learn", Content: consoleView(d)})
}

// consoleBack is where a console's run sends the learner back: the lesson it came from, or the
// console page (with its language picked), never anywhere else.
func consoleBack(c *gin.Context, lang string) (page, to string) {
	back := c.PostForm("back")
	path, anchor, _ := strings.Cut(back, "#")
	if slug, ok := strings.CutPrefix(path, "/learn/"); ok && frame.IsLesson(slug) && (anchor == "" || anchor == "console-"+lang) {
		return path, back
	}
	return frame.ConsoleURL, frame.ConsoleLangURL(lang) + "#console-runs"
}

func (h *Handler) consoleRun(c *gin.Context) {
	lang := c.PostForm("language")
	page, to := consoleBack(c, lang)
	if h.Deps.Consoles[lang] == nil {
		h.Site.ErrorPage(c, http.StatusBadRequest, "No such console",
			"This server ("+h.Deps.Backend+") has no console for "+strconv.Quote(lang)+". "+offered(h.ConsoleLanguages()))
		return
	}
	_, err := h.RunConsole(c, lang, c.PostForm("statements"), page)
	var retry *domain.RetryError
	switch {
	case errors.As(err, &retry):
		secs := max(1, int((retry.After+time.Second-1)/time.Second))
		c.Header("Retry-After", strconv.Itoa(secs))
		h.Site.ErrorPage(c, http.StatusTooManyRequests, "Too many statements", site.Sentence(retry.Message)+
			" The statements before it ran: your console shows them. Try again in "+strconv.Itoa(secs)+" "+frame.Plural(secs, "second", "seconds")+".")
		return
	case err != nil:
		h.Site.RefuseBack(c, err, to)
		return
	}
	h.Site.Redirect(c, to, "your statements")
}

// offered says which consoles this server offers.
func offered(langs []string) string {
	if len(langs) == 0 {
		return "It offers none: the cli console runs on widerow, the CQL console on cql3 and in compare mode."
	}
	q := make([]string, len(langs))
	for i, l := range langs {
		q[i] = strconv.Quote(l)
	}
	return "It offers " + strings.Join(q, " and ") + "."
}

// consoleAPI is the consoles as the JSON API serves them (web.Console): the same consoles, the
// same sandboxes as the pages.
type consoleAPI struct{ h *Handler }

// Session implements web.Console.
func (a consoleAPI) Session(c *gin.Context) { a.h.Site.Session(c) }

// Learner implements web.Console: a token's user's sandbox is the one the user's pages use
// (frame.LearnerID), an anonymous caller's the browser of its session cookie.
func (a consoleAPI) Learner(c *gin.Context, user string) (string, error) {
	if user != "" {
		return "user:" + user, nil
	}
	id := frame.BrowserID(c, true)
	if err := a.h.Site.SaveSession(c); err != nil {
		return "", err
	}
	return "browser:" + id, nil
}

// Languages implements web.Console.
func (a consoleAPI) Languages() []string { return a.h.ConsoleLanguages() }

// Info implements web.Console.
func (a consoleAPI) Info(c *gin.Context, learner string) ([]any, error) {
	var out []any
	for _, l := range a.h.ConsoleLanguages() {
		info, err := a.h.Deps.Consoles[l].Info(a.h.ConsoleContext(c.Request.Context(), l), learner)
		if err != nil {
			return nil, err
		}
		out = append(out, info)
	}
	return out, nil
}

// Run implements web.Console: a refusal is a domain.ErrInvalid with the console's message.
func (a consoleAPI) Run(c *gin.Context, learner, lang, statement string) (web.ConsoleRun, error) {
	r, err := a.h.Deps.Consoles[lang].Run(a.h.ConsoleContext(c.Request.Context(), lang), learner, statement)
	var refusal *teaching.ConsoleRefusal
	switch {
	case errors.As(err, &refusal):
		return web.ConsoleRun{}, domain.Invalid("", "%s", refusal.Message)
	case errors.Is(err, teaching.ErrNoConsole):
		return web.ConsoleRun{}, domain.Invalid("language", "%s", err.Error())
	case err != nil:
		return web.ConsoleRun{}, err
	}
	a.h.TouchConsole(c.Request.Context(), learner, lang)
	return web.ConsoleRun{Output: r.Output, Sent: r.Sent}, nil
}
