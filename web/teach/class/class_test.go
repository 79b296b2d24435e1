package class_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/ports/teaching"
	"twissandra/web"
	"twissandra/web/teach/frame"
)

const token = "a-secret-of-the-instructor-1234"

// api sends a JSON request to the API with bearer as its Authorization.
func api(t *testing.T, c *webkit.Client, method, path, bearer string, body any) (webkit.Response, map[string]any) {
	t.Helper()
	var rd *strings.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	} else {
		rd = strings.NewReader("")
	}
	req, _ := http.NewRequest(method, c.App.Srv.URL+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	r := c.Do(req)
	var out map[string]any
	_ = json.Unmarshal([]byte(r.Body), &out)
	return r, out
}

func roster(t *testing.T, c *webkit.Client, class string) web.ClassRoster {
	t.Helper()
	r, _ := api(t, c, http.MethodGet, "/api/v1/class/"+class, token, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("roster of %s: %d %s", class, r.Status, r.Body)
	}
	var out web.ClassRoster
	if err := json.Unmarshal([]byte(r.Body), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func makeAccounts(t *testing.T, c *webkit.Client, class string, n int) []web.ClassAccount {
	t.Helper()
	r, _ := api(t, c, http.MethodPost, "/api/v1/class/"+class+"/accounts", token, map[string]int{"n": n})
	if r.Status != http.StatusCreated {
		t.Fatalf("accounts of %s: %d %s", class, r.Status, r.Body)
	}
	var out web.ClassAccounts
	if err := json.Unmarshal([]byte(r.Body), &out); err != nil {
		t.Fatal(err)
	}
	return out.Accounts
}

// logIn logs a browser in on the page's form.
func logIn(t *testing.T, c *webkit.Client, a web.ClassAccount) {
	t.Helper()
	r := c.Post("/login", url.Values{"username": {a.Username}, "password": {a.Password}})
	if r.Status != http.StatusSeeOther {
		t.Fatalf("log in %s: %d\n%s", a.Username, r.Status, r.Body)
	}
}

func backends(t *testing.T) map[string]func(*testing.T) webkit.Stores {
	return map[string]func(*testing.T) webkit.Stores{
		"memory":  func(*testing.T) webkit.Stores { return webkit.MemoryStores() },
		"widerow": func(t *testing.T) webkit.Stores { return webkit.WiderowStores(t) },
		// on the node (TWISSANDRA_CQL_HOSTS); skipped loudly without one
		"cql3": func(t *testing.T) webkit.Stores { st, _ := webkit.CQL3Stores(t); return st },
	}
}

// Without a token the page says how to turn the tools on, and the API answers 404 saying so.
func TestOffWithoutAToken(t *testing.T) {
	app := teachkit.NewApp(t, webkit.WithClasses(webkit.MemoryStores(), ""))
	c := app.Client(t)
	p := c.Get("/instructor")
	if p.Status != http.StatusOK {
		t.Fatalf("/instructor: %d", p.Status)
	}
	webkit.MustContain(t, p.Body, `id="instructor-off"`, "--instructor-token", "TWISSANDRA_INSTRUCTOR_TOKEN")
	webkit.MustNotContain(t, p.Body, `id="instructor-login"`)
	r, body := api(t, c, http.MethodGet, "/api/v1/class/class1", "anything-at-all-here", nil)
	if r.Status != http.StatusNotFound || !strings.Contains(fmt.Sprint(body["message"]), "--instructor-token") {
		t.Fatalf("the API without a token: %d %s", r.Status, r.Body)
	}
	if r := c.Post("/instructor/login", url.Values{"token": {"anything-at-all-here"}}); r.Status != http.StatusNotFound {
		t.Fatalf("a log-in without a token: %d", r.Status)
	}
}

// A wrong token is a 401 with a message, on the API and the page; the tries are bounded like a
// log-in's: past InstructorLimits.PerAddress from one address (no device), every try is a 429,
// the right token's included.
func TestWrongTokenRefusedAndBounded(t *testing.T) {
	app := teachkit.NewApp(t, webkit.WithClasses(webkit.MemoryStores(), token))
	c := app.Client(t)
	if r, body := api(t, c, http.MethodGet, "/api/v1/class/class1", "", nil); r.Status != http.StatusUnauthorized || !strings.Contains(fmt.Sprint(body["message"]), "token is required") {
		t.Fatalf("no bearer: %d %s", r.Status, r.Body)
	}
	p := c.Post("/instructor/login", url.Values{"token": {"not-the-token-at-all"}})
	if p.Status != http.StatusUnauthorized || !strings.Contains(p.Body, "Wrong instructor token") {
		t.Fatalf("the page's wrong token: %d\n%s", p.Status, p.Body)
	}
	// The page's try counted: the API's count on, from the same browser (its device, which its
	// log-in form gave it, counts its tries as a log-in's are: PerDevice).
	for i := 2; i <= web.InstructorLimits.PerDevice; i++ {
		r, body := api(t, c, http.MethodGet, "/api/v1/class/class1", fmt.Sprintf("wrong-token-%02d-of-many", i), nil)
		if r.Status != http.StatusUnauthorized || body["message"] != "wrong instructor token" {
			t.Fatalf("wrong try %d: %d %s", i, r.Status, r.Body)
		}
	}
	r, _ := api(t, c, http.MethodGet, "/api/v1/class/class1", token, nil)
	if r.Status != http.StatusTooManyRequests || r.Header.Get("Retry-After") == "" {
		t.Fatalf("the right token past the limit: %d %s", r.Status, r.Body)
	}
	// A page of a session that gave no token refuses its forms.
	if r := c.Post("/instructor/reset", url.Values{"class": {"class1"}, "confirm": {"class1"}}); r.Status != http.StatusUnauthorized {
		t.Fatalf("a reset without the token: %d", r.Status)
	}
}

// The class end to end on each embedded backend: accounts made through the API log in; the
// roster shows two learners' progress, last action and console statements (the page and the
// API); the reset clears the class and leaves another user's progress, activity and tweet.
func TestClassEndToEnd(t *testing.T) {
	for name, stores := range backends(t) {
		t.Run(name, func(t *testing.T) {
			st := webkit.WithClasses(stores(t), token)
			app := teachkit.NewApp(t, st)
			teacher := app.Client(t)
			accounts := makeAccounts(t, teacher, "class1", 2)
			if len(accounts) != 2 || accounts[0].Username != "class1_001" || accounts[1].Username != "class1_002" || len(accounts[0].Password) < 12 || accounts[0].Password == accounts[1].Password {
				t.Fatalf("accounts: %+v", accounts)
			}
			// Each logs in through the API too.
			for _, a := range accounts {
				r, _ := api(t, teacher, http.MethodPost, "/api/v1/sessions", "", map[string]string{"username": a.Username, "password": a.Password})
				if r.Status != http.StatusOK {
					t.Fatalf("log in %s through the API: %d %s", a.Username, r.Status, r.Body)
				}
			}
			lessons := frame.Course()
			ann, bob, zed := app.Client(t), app.Client(t), app.Client(t)
			logIn(t, ann, accounts[0])
			logIn(t, bob, accounts[1])
			zed.SignUp("zed")
			for _, l := range lessons[:2] {
				ann.LessonPage("/learn/" + l.Slug)
			}
			bob.LessonPage("/learn/" + lessons[0].Slug)
			// A console statement, as the console's web layer records it.
			if err := st.Classes.Touch(webkit.BG(), "user:"+accounts[1].Username, "console cql"); err != nil {
				t.Fatal(err)
			}
			// ann passes an exercise on its form; bob, after his statement, one through the API with
			// his token.
			if r := ann.Post("/learn/exercises/time-1", url.Values{"answer": {"first"}}); r.Status != http.StatusSeeOther {
				t.Fatalf("ann's answer: %d", r.Status)
			}
			_, sess := api(t, bob, http.MethodPost, "/api/v1/sessions", "", map[string]string{"username": accounts[1].Username, "password": accounts[1].Password})
			if r, body := api(t, bob, http.MethodPost, "/api/v1/exercises/time-1/answers", fmt.Sprint(sess["token"]), map[string]string{"answer": "first"}); r.Status != http.StatusOK || body["verdict"] != "correct" {
				t.Fatalf("bob's answer: %d %s", r.Status, r.Body)
			}
			zed.LessonPage("/learn/" + lessons[0].Slug)
			if _, err := app.Social.Post(webkit.BG(), "zed", "zed's own tweet"); err != nil {
				t.Fatal(err)
			}

			r := roster(t, teacher, "class1")
			if r.Lessons != len(lessons) || r.Exercises == 0 || len(r.Learners) != 2 {
				t.Fatalf("roster: %+v", r)
			}
			a, b := r.Learners[0], r.Learners[1]
			if a.Username != "class1_001" || a.LessonsVisited != 2 || a.ExercisesPassed != 1 || a.LastAction != "exercise time-1" || a.LastAt == nil || a.Statements != 0 {
				t.Errorf("ann on the roster: %+v", a)
			}
			if b.Username != "class1_002" || b.LessonsVisited != 1 || b.ExercisesPassed != 1 || b.LastAction != "exercise time-1" || b.Statements != 1 {
				t.Errorf("bob on the roster: %+v", b)
			}

			// The page, signed in with the token.
			if r := teacher.Post("/instructor/login", url.Values{"token": {token}}); r.Status != http.StatusSeeOther {
				t.Fatalf("the page's log-in: %d\n%s", r.Status, r.Body)
			}
			page := teacher.Get("/instructor?class=class1")
			webkit.MustContain(t, page.Body, `id="roster"`, `id="learner-class1_001"`, `id="learner-class1_002"`,
				fmt.Sprintf("2 of %d", len(lessons)), "1 of ", "exercise time-1", `class="statements">1<`, `id="reset-form"`, `id="accounts-form"`)
			// Accounts from the page's form: shown once, numbered on.
			made := teacher.Post("/instructor/accounts", url.Values{"class": {"class1"}, "n": {"1"}})
			if made.Status != http.StatusCreated {
				t.Fatalf("the accounts form: %d\n%s", made.Status, made.Body)
			}
			webkit.MustContain(t, made.Body, `id="accounts-csv"`, "username,password\nclass1_003,")
			if bad := teacher.Post("/instructor/accounts", url.Values{"class": {"class1"}, "n": {"0"}}); bad.Status != http.StatusBadRequest || !strings.Contains(bad.Body, "1 to 100") {
				t.Fatalf("zero accounts: %d", bad.Status)
			}

			// The reset asks for the class's name again.
			if r := teacher.Post("/instructor/reset", url.Values{"class": {"class1"}, "confirm": {"class2"}}); r.Status != http.StatusBadRequest || !strings.Contains(r.Body, "repeat the class") {
				t.Fatalf("a reset unconfirmed: %d\n%s", r.Status, r.Body)
			}
			if r := roster(t, teacher, "class1"); r.Learners[0].LessonsVisited != 2 {
				t.Fatalf("an unconfirmed reset cleared the class: %+v", r.Learners[0])
			}
			if r := teacher.Post("/instructor/reset", url.Values{"class": {"class1"}, "confirm": {"class1"}}); r.Status != http.StatusSeeOther {
				t.Fatalf("the reset: %d\n%s", r.Status, r.Body)
			}
			after := roster(t, teacher, "class1")
			if len(after.Learners) != 3 {
				t.Fatalf("after the reset: %+v", after)
			}
			for _, l := range after.Learners {
				if l.LessonsVisited != 0 || l.ExercisesPassed != 0 || l.LastAction != "" || l.LastAt != nil || l.Statements != 0 {
					t.Errorf("after the reset, %s: %+v", l.Username, l)
				}
			}
			// The rest is left: zed's progress, activity and tweet; the accounts log in.
			if p, err := st.Progress.Progress(webkit.BG(), "zed"); err != nil || len(p.Visited) != 1 {
				t.Errorf("zed's progress after the reset: %+v, %v", p, err)
			}
			if a, err := st.Classes.Activity(webkit.BG(), "user:zed"); err != nil || a.Last != "lesson "+lessons[0].Slug {
				t.Errorf("zed's activity after the reset: %+v, %v", a, err)
			}
			if line, err := app.Social.Userline(webkit.BG(), "zed", "", 10); err != nil || len(line.Tweets) != 1 {
				t.Errorf("zed's tweets after the reset: %+v, %v", line, err)
			}
			logIn(t, app.Client(t), accounts[0])

			// The API's reset says what it left.
			rr, body := api(t, teacher, http.MethodPost, "/api/v1/class/class1/reset", token, nil)
			if rr.Status != http.StatusOK || body["learners"] != float64(3) || len(body["left"].([]any)) == 0 {
				t.Fatalf("the API's reset: %d %s", rr.Status, rr.Body)
			}
			// A bad class name is a 400 with a message.
			if r, body := api(t, teacher, http.MethodGet, "/api/v1/class/no-hyphens", token, nil); r.Status != http.StatusBadRequest || !strings.Contains(fmt.Sprint(body["message"]), "letters, digits or underscores") {
				t.Fatalf("a bad class name: %d %s", r.Status, r.Body)
			}
		})
	}
}

// On cql3 several servers over one cluster show one roster: accounts made on one, a learner's
// lessons and console statements on another, the roster and the reset on a third.
func TestOneRosterAcrossServers(t *testing.T) {
	cq, _ := webkit.CQL3Stores(t)
	st := webkit.WithClasses(cq, token)
	a, b, c := teachkit.NewApp(t, st), teachkit.NewApp(t, st), teachkit.NewApp(t, st)
	accounts := makeAccounts(t, a.Client(t), "multi", 1)
	ann := b.Client(t)
	logIn(t, ann, accounts[0])
	slug := frame.Course()[0].Slug
	ann.LessonPage("/learn/" + slug)
	if err := st.Classes.Touch(webkit.BG(), "user:"+accounts[0].Username, "console cql"); err != nil {
		t.Fatal(err)
	}
	r := roster(t, c.Client(t), "multi")
	if len(r.Learners) != 1 || r.Learners[0].LessonsVisited != 1 || r.Learners[0].Statements != 1 || r.Learners[0].LastAction != "console cql" {
		t.Fatalf("the roster on a third server: %+v", r)
	}
	if rr, _ := api(t, c.Client(t), http.MethodPost, "/api/v1/class/multi/reset", token, nil); rr.Status != http.StatusOK {
		t.Fatalf("reset: %d %s", rr.Status, rr.Body)
	}
	if r := roster(t, a.Client(t), "multi"); r.Learners[0].LessonsVisited != 0 || r.Learners[0].Statements != 0 {
		t.Fatalf("after the reset, on the first server: %+v", r.Learners[0])
	}
}

// meetingProgress is a ProgressStore whose reads wait for one another: each Progress returns
// only once two have come, and fails if a second never comes while the first waits.
type meetingProgress struct {
	teaching.ProgressStore
	n   *atomic.Int32
	met chan struct{}
}

func (m meetingProgress) Progress(ctx context.Context, user string) (teaching.Progress, error) {
	if m.n.Add(1) == 2 {
		close(m.met)
	}
	select {
	case <-m.met:
	case <-time.After(10 * time.Second):
		return teaching.Progress{}, errors.New("no second read came while this one waited: the roster reads one learner at a time")
	}
	return m.ProgressStore.Progress(ctx, user)
}

// The roster reads its learners several at once (a class of 200 on a node is 400 reads).
func TestRosterReadsLearnersAtOnce(t *testing.T) {
	st := webkit.WithClasses(webkit.MemoryStores(), token)
	st.Progress = meetingProgress{ProgressStore: st.Progress, n: new(atomic.Int32), met: make(chan struct{})}
	app := teachkit.NewApp(t, st)
	c := app.Client(t)
	makeAccounts(t, c, "pair", 2)
	if r := roster(t, c, "pair"); len(r.Learners) != 2 || r.Learners[0].Username != "pair_001" || r.Learners[1].Username != "pair_002" {
		t.Fatalf("roster: %+v", r)
	}
}
