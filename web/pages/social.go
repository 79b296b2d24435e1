package pages

import (
	"errors"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/web"
	"twissandra/web/site"
)

// lineData is a page of tweets with its links: "Older" (only when the service says more exists,
// so it never leads to an empty page), and past the first page "Newer" and "Newest".
type lineData struct {
	Heading string
	Tweets  []domain.Tweet
	pager
	Empty string
	// The post box (home page, logged in).
	PostBox bool
	Body    string
	Error   string
	MaxLen  int
}

func olderURL(path, next string) string {
	if next == "" {
		return ""
	}
	return path + "?start=" + url.QueryEscape(next)
}

// pager holds the links of a line page. A line is read newest first from an exclusive cursor
// (a slice with a start column): there is no cursor for "the page before". The links carry the
// trail of the cursors that led here instead (back=, comma-separated, the last maxTrail of
// them), and Newer pops it; past the trail, Newer leads to the newest page.
type pager struct {
	OlderURL, NewerURL, FirstURL string
}

const maxTrail = 30

func linePager(c *gin.Context, path, next string) pager {
	start := c.Query("start")
	if start == "" {
		return pager{OlderURL: olderURL(path, next)}
	}
	var trail []string
	if back := c.Query("back"); back != "" {
		trail = strings.Split(back, ",")
	}
	p := pager{FirstURL: path, NewerURL: path}
	if n := len(trail); n > 0 {
		q := url.Values{"start": {trail[n-1]}}
		if n > 1 {
			q.Set("back", strings.Join(trail[:n-1], ","))
		}
		p.NewerURL = path + "?" + q.Encode()
	}
	if next != "" {
		trail = append(trail, start)
		if len(trail) > maxTrail {
			trail = trail[len(trail)-maxTrail:]
		}
		p.OlderURL = path + "?" + url.Values{"start": {next}, "back": {strings.Join(trail, ",")}}.Encode()
	}
	return p
}

func (h *handler) home(c *gin.Context) {
	if site.User(c) != "" {
		site.Measure(c, site.HomeTimelinePage)
	}
	h.renderHome(c, http.StatusOK, "", "")
}

func (h *handler) renderHome(c *gin.Context, status int, body, problem string) {
	ctx := c.Request.Context()
	me := site.User(c)
	start := c.Query("start")
	var (
		page social.TweetPage
		err  error
		d    = lineData{MaxLen: domain.MaxTweetLen, Body: body, Error: problem}
	)
	if me != "" {
		site.Serves(c, site.HomeTimeline)
		page, err = h.deps.Social.Timeline(ctx, me, start, linePageSize)
		d.Heading, d.PostBox = "Your timeline", true
		d.Empty = "Nothing here yet. Post something, or find people to follow."
	} else {
		site.Serves(c, site.PublicLine)
		page, err = h.deps.Social.PublicLine(ctx, start, linePageSize)
		d.Heading = "Public timeline"
		d.Empty = "No one has posted yet."
	}
	if err != nil {
		h.site.Fail(c, err)
		return
	}
	d.Tweets, d.pager = page.Tweets, linePager(c, "/", page.Next)
	h.site.Render(c, status, site.Page{Title: "Home", Nav: "home", Content: homeContent(d)})
}

func (h *handler) public(c *gin.Context) {
	site.Serves(c, site.PublicLine)
	page, err := h.deps.Social.PublicLine(c.Request.Context(), c.Query("start"), linePageSize)
	if err != nil {
		h.site.Fail(c, err)
		return
	}
	h.site.Render(c, http.StatusOK, site.Page{Title: "Public timeline", Nav: "public", Content: homeContent(lineData{
		Heading: "Public timeline", Tweets: page.Tweets, pager: linePager(c, "/public", page.Next),
		Empty: "No one has posted yet.",
	})})
}

// postAction names the action of posting a tweet, for the learner.
const postAction = "your post"

func (h *handler) postTweet(c *gin.Context) {
	me := site.User(c)
	body := c.PostForm("body")
	if me == "" {
		site.AddFlash(c, site.FlashError, "Sign in to post.")
		h.site.Redirect(c, "/login", postAction)
		return
	}
	if _, err := h.deps.Social.Post(c.Request.Context(), me, body); err != nil {
		status, msg := site.ProblemMessage(err)
		if status >= 500 {
			h.site.Fail(c, err)
			return
		}
		if !utf8.ValidString(body) {
			body = ""
		}
		h.renderHome(c, status, body, msg)
		return
	}
	site.AddFlash(c, site.FlashOK, "Posted.")
	site.Measure(c, site.Post)
	h.site.Redirect(c, "/", postAction)
}

type userData struct {
	User          domain.User
	IsMe          bool
	Following     bool
	Line          lineData
	Friends       []string
	Followers     []string
	FriendsMore   bool
	FollowersMore bool
}

// lookUser returns the user named by the :username parameter, or renders the 404 page.
func (h *handler) lookUser(c *gin.Context) (domain.User, bool) {
	name := c.Param("username")
	u, err := h.deps.Social.GetUser(c.Request.Context(), name)
	if h.noSuchUser(c, name, err) {
		return domain.User{}, false
	}
	return u, true
}

// noSuchUser renders the 404 page when err says there is no user of that name, the error page
// of any other error, and reports whether it rendered one.
func (h *handler) noSuchUser(c *gin.Context, name string, err error) bool {
	switch {
	case err == nil:
		return false
	case errors.Is(err, domain.ErrNotFound) || domain.ValidateUsername(name) != nil:
		h.site.ErrorPage(c, http.StatusNotFound, "No such user", "There is no user named “"+name+"”.")
	default:
		h.site.Fail(c, err)
	}
	return true
}

func (h *handler) userPage(c *gin.Context) {
	name := c.Param("username")
	site.Serves(c, site.UserByName)
	p, err := h.deps.Social.Profile(c.Request.Context(), name, c.Query("start"), linePageSize, followPreview)
	if h.noSuchUser(c, name, err) {
		return
	}
	site.Serves(c, site.Userline, site.Follows)
	me, u := site.User(c), p.User
	d := userData{
		User: u, IsMe: me == u.Username,
		Line: lineData{
			Heading: "Tweets", Tweets: p.Line.Tweets,
			pager: linePager(c, "/users/"+url.PathEscape(u.Username), p.Line.Next),
			Empty: u.Username + " has not posted yet.",
		},
		Friends: p.Friends.Usernames(), FriendsMore: p.Friends.Next != "",
		Followers: p.Followers.Usernames(), FollowersMore: p.Followers.Next != "",
	}
	if me != "" && !d.IsMe {
		if d.Following, err = h.deps.Social.IsFollowing(c.Request.Context(), me, u.Username); err != nil {
			h.site.Fail(c, err)
			return
		}
	}
	h.site.Render(c, http.StatusOK, site.Page{Title: u.Username, Content: userContent(me, d)})
}

type followsData struct {
	User     string
	Friends  bool
	Names    []string
	OlderURL string
}

func (h *handler) followList(friends bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		site.Serves(c, site.UserByName)
		u, ok := h.lookUser(c)
		if !ok {
			return
		}
		site.Serves(c, site.Follows)
		list, path, title := h.deps.Social.Followers, "/followers", "Followers of "+u.Username
		if friends {
			list, path, title = h.deps.Social.Friends, "/friends", u.Username+" follows"
		}
		page, err := list(c.Request.Context(), u.Username, c.Query("start"), followPageSize)
		if err != nil {
			h.site.Fail(c, err)
			return
		}
		h.site.Render(c, http.StatusOK, site.Page{Title: title, Content: followsContent(followsData{
			User: u.Username, Friends: friends, Names: page.Usernames(),
			OlderURL: olderURL("/users/"+url.PathEscape(u.Username)+path, page.Next),
		})})
	}
}

func (h *handler) follow(c *gin.Context)   { h.changeFollow(c, true) }
func (h *handler) unfollow(c *gin.Context) { h.changeFollow(c, false) }

func (h *handler) changeFollow(c *gin.Context, follow bool) {
	me := site.User(c)
	other := c.Param("username")
	back := "/users/" + url.PathEscape(other)
	action := "your follow of " + other
	if !follow {
		action = "your unfollow of " + other
	}
	if me == "" {
		site.AddFlash(c, site.FlashError, "Sign in to follow people.")
		h.site.Redirect(c, "/login", action)
		return
	}
	var err error
	if follow {
		err = h.deps.Social.Follow(c.Request.Context(), me, other)
	} else {
		err = h.deps.Social.Unfollow(c.Request.Context(), me, other)
	}
	if err != nil {
		status, msg := site.ProblemMessage(err)
		switch {
		case status == http.StatusNotFound:
			h.site.ErrorPage(c, status, "No such user", "There is no user named “"+other+"”.")
		case status >= 500:
			h.site.Fail(c, err)
		default:
			site.AddFlash(c, site.FlashError, msg)
			h.site.Redirect(c, back, action)
		}
		return
	}
	if follow {
		site.AddFlash(c, site.FlashOK, "You now follow "+other+".")
	} else {
		site.AddFlash(c, site.FlashOK, "You no longer follow "+other+"; their tweets left your timeline.")
	}
	h.site.Redirect(c, site.SafeNext(c.PostForm("next")), action)
}

type findData struct {
	Query     string
	Error     string
	Found     *domain.User
	Following bool
	Searched  bool
}

func (h *handler) find(c *gin.Context) {
	q := strings.TrimSpace(c.Query("username"))
	d := findData{Query: q}
	if _, asked := c.GetQuery("username"); !asked {
		h.renderFind(c, http.StatusOK, d)
		return
	}
	d.Searched = true
	if err := domain.ValidateUsername(q); err != nil {
		_, d.Error = site.ProblemMessage(err)
		h.renderFind(c, http.StatusBadRequest, d)
		return
	}
	u, err := h.deps.Social.GetUser(c.Request.Context(), q)
	if errors.Is(err, domain.ErrNotFound) {
		d.Error = "No user is named “" + q + "”. Usernames are case-sensitive."
		h.renderFind(c, http.StatusNotFound, d)
		return
	}
	if err != nil {
		h.site.Fail(c, err)
		return
	}
	d.Found = &u
	if me := site.User(c); me != "" && me != u.Username {
		if d.Following, err = h.deps.Social.IsFollowing(c.Request.Context(), me, u.Username); err != nil {
			h.site.Fail(c, err)
			return
		}
	}
	h.renderFind(c, http.StatusOK, d)
}

func (h *handler) renderFind(c *gin.Context, status int, d findData) {
	h.site.Render(c, status, site.Page{Title: "Find people", Nav: "find", Content: findContent(site.User(c), d)})
}

// userURL is a user's page.
func userURL(name string) templ.SafeURL { return templ.SafeURL("/users/" + url.PathEscape(name)) }

// followButtonID is the id of a user page's follow button, by what it does.
func followButtonID(following bool) string {
	if following {
		return "unfollow"
	}
	return "follow"
}

type loginData struct {
	LoginUser   string
	LoginError  string
	SignupUser  string
	SignupError string
	Next        string
	MinPassword int
	MaxPassword int
}

func (h *handler) loginForm(c *gin.Context, status int, d loginData) {
	d.MinPassword, d.MaxPassword = domain.MinPasswordLen, domain.MaxPasswordLen
	if d.Next == "" {
		d.Next = site.SafeNext(c.Query("next"))
	}
	// The form gives the browser its device, so that its first log-in (on an account made for
	// it, say) is counted as its own, not with every browser behind its address
	// (docs/security.md).
	h.site.GiveDevice(c)
	h.site.Render(c, status, site.Page{Title: "Sign in or sign up", Nav: "login", Content: loginContent(d)})
}

func (h *handler) loginPage(c *gin.Context) {
	if site.User(c) != "" {
		h.site.Redirect(c, "/", "")
		return
	}
	h.loginForm(c, http.StatusOK, loginData{})
}

// keepName returns what the user typed as a username, for showing back in the form, unless it
// is not even text.
func keepName(s string) string {
	if !utf8.ValidString(s) || len(s) > 200 {
		return ""
	}
	return s
}

func (h *handler) login(c *gin.Context) {
	username, password := c.PostForm("username"), c.PostForm("password")
	d := loginData{LoginUser: keepName(username), Next: site.SafeNext(c.PostForm("next"))}
	if username == "" || password == "" {
		d.LoginError = "Enter your username and your password."
		h.loginForm(c, http.StatusBadRequest, d)
		return
	}
	u, err := h.deps.Access.LogIn(c.Request.Context(), username, password, h.site.LoginClient(c))
	if err != nil {
		if after, ok := web.RetryAfter(err); ok {
			c.Header("Retry-After", after)
			d.LoginError = "Too many sign-in attempts. Wait " + after + " seconds and try again."
			h.loginForm(c, http.StatusTooManyRequests, d)
			return
		}
		if errors.Is(err, domain.ErrUnauthenticated) {
			d.LoginError = "Wrong username or password."
			h.loginForm(c, http.StatusUnauthorized, d)
			return
		}
		h.site.Fail(c, err)
		return
	}
	h.site.LogIn(c, u.Username)
	site.AddFlash(c, site.FlashOK, "Welcome back, "+u.Username+".")
	h.site.Redirect(c, d.Next, "your log-in")
}

func (h *handler) signup(c *gin.Context) {
	username, password, password2 := c.PostForm("username"), c.PostForm("password"), c.PostForm("password2")
	d := loginData{SignupUser: keepName(username), Next: site.SafeNext(c.PostForm("next"))}
	switch {
	case username == "" || password == "":
		d.SignupError = "Choose a username and a password."
	case password != password2:
		d.SignupError = "The two passwords differ."
	}
	if d.SignupError != "" {
		h.loginForm(c, http.StatusBadRequest, d)
		return
	}
	u, err := h.deps.Access.SignUp(c.Request.Context(), username, password, h.site.LoginClient(c))
	if err != nil {
		status, msg := site.Problem(c, err)
		if errors.Is(err, domain.ErrAlreadyExists) {
			msg = "The username “" + username + "” is taken."
		}
		if status >= 500 {
			h.site.Fail(c, err)
			return
		}
		d.SignupError = msg
		h.loginForm(c, status, d)
		return
	}
	h.site.LogIn(c, u.Username)
	site.AddFlash(c, site.FlashOK, "Welcome, "+u.Username+". Your account is ready.")
	h.site.Redirect(c, d.Next, "your sign-up")
}

func (h *handler) logout(c *gin.Context) {
	if err := h.site.LogOut(c); err != nil {
		h.site.Fail(c, err)
		return
	}
	site.AddFlash(c, site.FlashOK, "You are signed out.")
	h.site.Redirect(c, "/", "your log-out")
}
