// Package class is an instructor's tools: the page /instructor, behind the instructor's token
// (--instructor-token), with a class's roster (each account's progress through the course, its
// last action and its console statements), the form that makes a class's accounts, and the
// class's reset; and the same as the API's /api/v1/class routes (web.Class), which this
// package serves. A class is a name; its accounts are <class>_001, <class>_002, ..., kept in
// the store's ClassBook (teaching.ClassBook) with every learner's activity, so that several
// servers over one cluster show one roster.
package class

//go:generate go tool templ generate -path .

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"
	"golang.org/x/sync/errgroup"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
)

// Bounds of the accounts a call makes: each is a bcrypt hash.
const (
	// AccountsMax is the most accounts one call makes; a class holds teaching.ClassMax.
	AccountsMax = 100
	// passwordLen is a made password's length, of an alphabet without look-alikes (31 letters
	// and digits: about 59 bits).
	passwordLen = 12
	alphabet    = "abcdefghjkmnpqrstuvwxyz23456789"
	// sessionKey is where a page's session keeps web.Server.InstructorMark.
	sessionKey = "instructor"
)

var className = regexp.MustCompile(`^\w{1,16}$`)

// handler serves the instructor's page and the class's API.
type handler struct {
	*frame.Base
}

// Register adds /instructor and its forms, and serves the class's API on the site's server.
func Register(g *gin.RouterGroup, b *frame.Base) {
	h := &handler{Base: b}
	if b.Deps.Classes != nil {
		b.Site.Server().ServeClass(h, b.Deps.InstructorToken)
	}
	g.GET("instructor", h.page)
	g.POST("instructor/login", h.login)
	g.POST("instructor/logout", h.logout)
	g.POST("instructor/accounts", h.accounts)
	g.POST("instructor/reset", h.reset)
}

func checkClass(class string) error {
	if !className.MatchString(class) {
		return domain.Invalid("class", "must be 1 to 16 ASCII letters, digits or underscores")
	}
	return nil
}

// accountName is a class's account number i.
func accountName(class string, i int) string { return fmt.Sprintf("%s_%03d", class, i) }

// Roster implements web.Class.
func (h *handler) Roster(ctx context.Context, class string) (web.ClassRoster, error) {
	if err := checkClass(class); err != nil {
		return web.ClassRoster{}, err
	}
	out := web.ClassRoster{Class: class, Lessons: len(frame.Course()), Learners: []web.ClassLearner{}}
	if course, ok := h.Site.Server().ServedCourse(); ok {
		for _, l := range course.Lessons() {
			out.Exercises += len(l.Exercises)
		}
	}
	members, err := h.Deps.Classes.Members(ctx, class)
	if err != nil {
		return web.ClassRoster{}, err
	}
	out.Learners = make([]web.ClassLearner, len(members))
	err = each(ctx, members, func(ctx context.Context, i int, u string) error {
		l := web.ClassLearner{Username: u, Visited: []string{}, Passed: []string{}}
		if h.Deps.Progress != nil {
			p, err := h.Deps.Progress.Progress(ctx, u)
			if err != nil {
				return err
			}
			l.Visited, l.Passed = append(l.Visited, p.Visited...), append(l.Passed, p.Passed...)
			for _, s := range p.Visited {
				if frame.IsLesson(s) {
					l.LessonsVisited++
				}
			}
			l.ExercisesPassed = len(p.Passed)
		}
		a, err := h.Deps.Classes.Activity(ctx, "user:"+u)
		if err != nil {
			return err
		}
		l.LastAction, l.Statements = a.Last, a.Statements
		if !a.At.IsZero() {
			at := a.At.UTC()
			l.LastAt = &at
		}
		out.Learners[i] = l
		return nil
	})
	if err != nil {
		return web.ClassRoster{}, err
	}
	return out, nil
}

// concurrency is how many learners a roster or a reset reads or clears at once: a class of
// 200 on a node is 400 reads, which one at a time took 0.8 to 1.6 s.
const concurrency = 16

// each runs fn on every member, concurrency at a time; the first error stops the rest.
func each(ctx context.Context, members []string, fn func(ctx context.Context, i int, u string) error) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(concurrency)
	for i, u := range members {
		g.Go(func() error { return fn(ctx, i, u) })
	}
	return g.Wait()
}

// MakeAccounts implements web.Class: n accounts numbered on from the class's last, each signed
// up with a random password; a name someone else took is passed over.
func (h *handler) MakeAccounts(ctx context.Context, class string, n int) (web.ClassAccounts, error) {
	if err := checkClass(class); err != nil {
		return web.ClassAccounts{}, err
	}
	if n < 1 || n > AccountsMax {
		return web.ClassAccounts{}, domain.Invalid("n", "must be 1 to %d accounts a call", AccountsMax)
	}
	members, err := h.Deps.Classes.Members(ctx, class)
	if err != nil {
		return web.ClassAccounts{}, err
	}
	if len(members)+n > teaching.ClassMax {
		return web.ClassAccounts{}, domain.Invalid("n", "would make the class %d accounts; a class holds at most %d (it has %d)", len(members)+n, teaching.ClassMax, len(members))
	}
	next := 1
	for _, m := range members {
		if i, err := strconv.Atoi(strings.TrimPrefix(m, class+"_")); err == nil && i >= next {
			next = i + 1
		}
	}
	out := web.ClassAccounts{Class: class, Accounts: []web.ClassAccount{}}
	var made []string
	for len(made) < n && next <= 999 {
		name, pw := accountName(class, next), password()
		next++
		_, err := h.Deps.Social.SignUp(ctx, name, pw)
		if errors.Is(err, domain.ErrAlreadyExists) {
			continue
		}
		if err != nil {
			// What was made stays the class's; its passwords are lost with the answer.
			return web.ClassAccounts{}, errors.Join(err, h.Deps.Classes.Enrol(context.WithoutCancel(ctx), class, made))
		}
		made = append(made, name)
		out.Accounts = append(out.Accounts, web.ClassAccount{Username: name, Password: pw})
	}
	if len(made) < n {
		err = domain.Invalid("class", "has no free account names left (%s_001 to %s_999)", class, class)
	}
	return out, errors.Join(err, h.Deps.Classes.Enrol(ctx, class, made))
}

func password() string {
	b := make([]byte, passwordLen)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// Left is what a class's reset does not clear.
var Left = []string{
	"the accounts, which log in as before",
	"the accounts' tweets, follows and blog entries",
	"the consoles' sandboxes, which the consoles drop once idle past their bound",
	"the labs' results and scratch rows, which follow the browser (its session cookie), not the account",
	"what a learner's browser session remembers having recorded: a lesson or exercise it recorded before the reset is recorded again only from another browser session",
}

// Reset implements web.Class: each account's progress and activity, forgotten.
func (h *handler) Reset(ctx context.Context, class string) (web.ClassReset, error) {
	if err := checkClass(class); err != nil {
		return web.ClassReset{}, err
	}
	members, err := h.Deps.Classes.Members(ctx, class)
	if err != nil {
		return web.ClassReset{}, err
	}
	err = each(ctx, members, func(ctx context.Context, _ int, u string) error {
		if h.Deps.Progress != nil {
			if err := h.Deps.Progress.ForgetProgress(ctx, u); err != nil {
				return err
			}
		}
		return h.Deps.Classes.ForgetActivity(ctx, "user:"+u)
	})
	if err != nil {
		return web.ClassReset{}, err
	}
	return web.ClassReset{Class: class, Learners: len(members), Left: Left}, nil
}

// view is what the page shows.
type view struct {
	// Book is false on a backend that keeps no classes; On false on a server without a token;
	// Signed whether this session gave the token.
	Book, On, Signed bool
	Class            string
	Roster           *web.ClassRoster
	Accounts         []web.ClassAccount
	// Refused is a form's refusal, shown beside it.
	Refused string
}

func (h *handler) signed(c *gin.Context) bool {
	mark, _ := sessions.Default(c).Get(sessionKey).(string)
	return h.Site.Server().IsInstructorMark(mark)
}

func (h *handler) base(c *gin.Context) view {
	srv := h.Site.Server()
	v := view{Book: h.Deps.Classes != nil, On: srv.InstructorOn()}
	v.Signed = v.On && h.signed(c)
	return v
}

func (h *handler) render(c *gin.Context, status int, v view) {
	h.Site.Render(c, status, site.Page{Title: "Instructor", Content: page(v)})
}

// page is /instructor: how to turn it on, the token's form, or the class's roster and forms.
func (h *handler) page(c *gin.Context) {
	v := h.base(c)
	v.Class = c.Query("class")
	if v.Signed && v.Class != "" {
		r, err := h.Roster(c.Request.Context(), v.Class)
		if err != nil {
			h.RefuseBack(c, err, v)
			return
		}
		v.Roster = &r
	}
	h.render(c, http.StatusOK, v)
}

// login takes the instructor's token under the limit of its tries.
func (h *handler) login(c *gin.Context) {
	v := h.base(c)
	if err := h.Site.Server().CheckInstructor(c, strings.TrimSpace(c.PostForm("token"))); err != nil {
		h.RefuseBack(c, err, v)
		return
	}
	sessions.Default(c).Set(sessionKey, h.Site.Server().InstructorMark())
	site.AddFlash(c, site.FlashOK, "Signed in as the instructor.")
	h.Site.Redirect(c, "/instructor", "")
}

func (h *handler) logout(c *gin.Context) {
	sessions.Default(c).Delete(sessionKey)
	h.Site.Redirect(c, "/instructor", "")
}

// guard answers a form of a session that has not given the token, and says whether it did.
func (h *handler) guard(c *gin.Context) bool {
	if h.base(c).Signed {
		return true
	}
	v := h.base(c)
	v.Refused = "Give the instructor's token first."
	h.render(c, http.StatusUnauthorized, v)
	return false
}

func classURL(class string) string { return "/instructor?class=" + url.QueryEscape(class) }

// accounts makes the form's number of accounts and shows them, once: nothing keeps the
// passwords.
func (h *handler) accounts(c *gin.Context) {
	if !h.guard(c) {
		return
	}
	v := h.base(c)
	v.Class = strings.TrimSpace(c.PostForm("class"))
	n, err := strconv.Atoi(strings.TrimSpace(c.PostForm("n")))
	if err != nil {
		err = domain.Invalid("n", "must be a whole number of accounts, 1 to %d", AccountsMax)
	} else {
		var a web.ClassAccounts
		a, err = h.MakeAccounts(c.Request.Context(), v.Class, n)
		v.Accounts = a.Accounts
	}
	if err != nil {
		h.RefuseBack(c, err, v)
		return
	}
	r, err := h.Roster(c.Request.Context(), v.Class)
	if err != nil {
		h.Site.Fail(c, err)
		return
	}
	v.Roster = &r
	h.render(c, http.StatusCreated, v)
}

// RefuseBack shows the page again with a form's refusal, or fails it for the server's error.
func (h *handler) RefuseBack(c *gin.Context, err error, v view) {
	status, msg := site.Problem(c, err)
	if status >= http.StatusInternalServerError {
		h.Site.Fail(c, err)
		return
	}
	v.Refused = msg
	h.render(c, status, v)
}

// reset clears the class once its name is typed again as the confirmation.
func (h *handler) reset(c *gin.Context) {
	if !h.guard(c) {
		return
	}
	v := h.base(c)
	v.Class = strings.TrimSpace(c.PostForm("class"))
	if c.PostForm("confirm") != v.Class {
		h.RefuseBack(c, domain.Invalid("confirm", "must repeat the class's name to reset it"), v)
		return
	}
	r, err := h.Reset(c.Request.Context(), v.Class)
	if err != nil {
		h.RefuseBack(c, err, v)
		return
	}
	site.AddFlash(c, site.FlashOK, fmt.Sprintf("Class %s reset: %d learners' progress and activity cleared.", r.Class, r.Learners))
	h.Site.Redirect(c, classURL(v.Class), "reset of class "+v.Class)
}

// lastAt is when l last acted, for the roster.
func lastAt(l web.ClassLearner) string {
	if l.LastAt == nil {
		return "—"
	}
	return l.LastAt.Format("2006-01-02 15:04:05 UTC")
}

func percent(n, of int) string {
	if of == 0 {
		return ""
	}
	return " (" + strconv.Itoa(n*100/of) + "%)"
}

// CSV is accounts as the page and `twissandra class accounts` print them: a header line, then
// a line per account.
func CSV(accounts []web.ClassAccount) string {
	var b strings.Builder
	b.WriteString("username,password\n")
	for _, a := range accounts {
		b.WriteString(a.Username + "," + a.Password + "\n")
	}
	return b.String()
}
