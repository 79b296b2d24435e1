// Package twissandra is lesson 4 of the course: Twissandra's seven column families, and where a
// tweet lives: a tweet the learner posts from the lesson (or the newest one), every place it was
// written (fan-out on write), and its author's User row beside the Username index written by hand.
package twissandra

//go:generate go tool templ generate -path .

import (
	"context"
	"errors"
	"net/http"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/ports/teaching"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
	"twissandra/web/teach/models"
)

// Lesson is this package's lesson, for the course's list (package course).
func Lesson(lh *labs.Handler) frame.Lesson {
	h := &handler{lh}
	return frame.Lesson{Consoles: []frame.ConsoleOffer{console},
		Slug: "twissandra", Title: "Twissandra's column families: where a tweet lives",
		Summary: "Post a tweet and see every row it was written to: its Tweet row, the userline, the public line and each follower's timeline, and the Username index kept by hand.",
		Show:    func(c *gin.Context) (templ.Component, error) { return showTwissandra(h, c) },
		Routes: func(g *gin.RouterGroup) {
			g.POST("learn/twissandra/post", h.twissandraPost)
		},
		Topics:    []string{"column families", "fan-out on write", "denormalization"},
		Exercises: exercises(h.Deps.Social, h.Deps.Locator, h.Deps.Sandbox, h.SandboxGate)}
}

// handler is the labs' handler, which the lesson reads the running store through.
type handler struct{ *labs.Handler }

// twissandraFollowers is how many followers' timelines the lesson lists.
const twissandraFollowers = 10

type twissandraData struct {
	Keyspace teaching.WideKeyspace
	Me       string // the signed-in user, "" for none
	Body     string
	Error    string
	Locates  bool // the server can say where records live
	Tweet    *domain.Tweet
	Mine     bool // the tweet is the one the learner just posted
	// Whose says whose tweet the page shows when the learner named none: "yours" (their
	// newest), "another's" (the newest on the server, by another user, for a learner who has
	// posted none), or "" for a tweet asked for by its ID.
	Whose  string
	Fanout *social.Fanout
	More   bool // the author has more followers than the lesson lists
	Places []models.LocateModel
	User   []models.LocateModel // the author's User row and Username index
}

// twissandraCFs says what each of Twissandra's column families is for, in seed 001's words.
var twissandraCFs = map[string]string{
	"User":      "the users, one row per user keyed by a UUID, with the username and password",
	"Username":  "the inverted index from a username to that UUID: Cassandra 0.6 has no secondary index, so the application writes its own",
	"Friends":   "who a user follows, one column per friend",
	"Followers": "who follows a user: the same follow, written from the other side",
	"Tweet":     "the tweets, one row per tweet keyed by its UUID",
	"Userline":  "a user's own tweets: a time (a LongType name) to the tweet's ID",
	"Timeline":  "a user's home timeline: the tweets of the user and of everyone they follow, copied in on write",
}

func showTwissandra(h *handler, c *gin.Context) (templ.Component, error) {
	d := twissandraData{Keyspace: h.SchemaKeyspace("Twissandra"), Me: site.User(c), Locates: h.Deps.Locator != nil}
	if r := h.Recalled(c).Refusal("tweet"); r != nil {
		d.Body, d.Error = r.Form["body"], r.Msg
	}
	if !d.Locates {
		return twissandraView(d), nil
	}
	ctx := c.Request.Context()
	var id uuid.UUID
	if s := c.Query("tweet"); s != "" {
		var err error
		if id, err = uuid.Parse(s); err != nil {
			d.Error = "“" + s + "” is not a tweet's ID: here is the newest tweet instead."
		}
		d.Mine = c.Query("posted") == "1"
	}
	if id == uuid.Nil {
		// The learner's own newest tweet; else the server's newest, which the page says is
		// another user's.
		var page social.TweetPage
		var err error
		if d.Me != "" {
			if page, err = h.Deps.Social.Userline(ctx, d.Me, "", 1); err != nil && !errors.Is(err, domain.ErrNotFound) {
				return nil, err
			}
			d.Whose = "yours"
		}
		if len(page.Tweets) == 0 {
			if page, err = h.Deps.Social.PublicLine(ctx, "", 1); err != nil {
				return nil, err
			}
			d.Whose = "another's"
		}
		if len(page.Tweets) == 0 {
			d.Whose = ""
			return twissandraView(d), nil
		}
		id = page.Tweets[0].ID
	}
	if err := h.twissandraPlaces(ctx, &d, id); err != nil {
		if !errors.Is(err, domain.ErrNotFound) {
			return nil, err
		}
		d.Error, d.Mine = "No tweet has the ID "+id.String()+".", false
	}
	return twissandraView(d), nil
}

// twissandraPlaces reads where the tweet id lives, and its author's record.
func (h *handler) twissandraPlaces(ctx context.Context, d *twissandraData, id uuid.UUID) error {
	t, loci, next, err := h.Deps.Social.TweetLoci(ctx, id, "", twissandraFollowers)
	if err != nil {
		return err
	}
	user, err := h.Deps.Social.UserLoci(ctx, t.Username)
	if err != nil {
		return err
	}
	places, err := h.Deps.Locator.Locate(ctx, append(loci, user...))
	if err != nil {
		return err
	}
	var tweet, record []teaching.Placement
	for _, p := range places {
		if p.Locus.Kind == teaching.LocusUser {
			record = append(record, p)
		} else {
			tweet = append(tweet, p)
		}
	}
	f, err := h.Deps.Social.FanoutOf(ctx, t.Username)
	if err != nil {
		return err
	}
	d.Tweet, d.Fanout, d.More, d.Places, d.User = &t, &f, next != "", h.GroupPlaces(tweet), h.GroupPlaces(record)
	return nil
}

// twissandraPost posts a tweet from the lesson and comes back to it, showing where the tweet
// went and, in the footer, what the post cost.
func (h *handler) twissandraPost(c *gin.Context) {
	me := site.User(c)
	if me == "" {
		site.AddFlash(c, site.FlashError, "Sign in to post.")
		h.Site.Redirect(c, "/login?next=/learn/twissandra", "")
		return
	}
	t, err := h.Deps.Social.Post(c.Request.Context(), me, c.PostForm("body"))
	if err != nil {
		status, msg := site.ProblemMessage(err)
		if status >= http.StatusInternalServerError {
			h.Site.Fail(c, err)
			return
		}
		h.Refuse(c, "tweet", msg, labs.PostForm(c, "body"))
		h.Site.Redirect(c, "/learn/twissandra#post", "your tweet")
		return
	}
	site.Measure(c, site.Post)
	h.Site.Redirect(c, "/learn/twissandra?tweet="+t.ID.String()+"&posted=1#where", "your tweet")
}

// console is the lesson's cassandra-cli console, ready to run: Twissandra's own column families, read as they are (written never).
var console = frame.ConsoleOffer{Language: "cli", Statements: []string{
	"describe keyspace Twissandra",
	"list Twissandra.Tweet limit 2",
	"list Twissandra.Userline limit 2",
}}
