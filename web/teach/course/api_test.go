package course_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	memteach "twissandra/adapters/memory/teach"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web"
	"twissandra/web/teach/frame"
)

// apiCall sends body as JSON to path (GET when body is ""), with token as the bearer when set,
// and decodes the answer into out when it is a 200.
func apiCall(t *testing.T, c *webkit.Client, method, path, token, body string, out any) webkit.Response {
	t.Helper()
	req, _ := http.NewRequest(method, c.App.Srv.URL+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	r := c.Do(req)
	if r.Status == http.StatusOK && out != nil {
		if err := json.Unmarshal([]byte(r.Body), out); err != nil {
			t.Fatalf("%s %s: %v\n%s", method, path, err, r.Body)
		}
	}
	return r
}

// The course as an API: every exercise listed takes junk as a 400 or "incorrect", and its model
// answer as "correct"; the grading's operations are in Storage-Ops; a signed-in learner's passes
// are in the progress after (through the ProgressStore).
func TestCourseAPIGradesEveryExercise(t *testing.T) {
	t.Parallel()
	wide := webkit.WiderowStores(t) // the simulated ring's exercise is widerow's
	if wide.Progress == nil {
		wide.Progress = memteach.NewProgress()
	}
	for name, st := range map[string]webkit.Stores{"memory": webkit.MemoryStores(), "widerow": wide} {
		t.Run(name, func(t *testing.T) { gradeEveryExercise(t, st) })
	}
}

// On cql3, the same: the lab's questions on its scratch node beside the real one, the fan-out's
// on the node.
func TestCourseAPIGradesEveryExerciseOnTheNode(t *testing.T) {
	t.Parallel()
	st, _ := webkit.CQL3Stores(t)
	if st.Progress == nil {
		st.Progress = memteach.NewProgress()
	}
	// The method lesson's designs make a table each in the query lab: more than the cluster's
	// budget of a minute (the lab's own tests hold it to that budget).
	st.QueryLab.(interface{ SetLabBudget(int) }).SetLabBudget(20)
	gradeEveryExercise(t, st)
}

func gradeEveryExercise(t *testing.T, st webkit.Stores) {
	app := teachkit.NewApp(t, st)
	c := app.Client(t)
	var course struct{ Lessons []web.CourseLesson }
	if r := apiCall(t, c, http.MethodGet, "/api/v1/course", "", "", &course); r.Status != http.StatusOK {
		t.Fatalf("GET /api/v1/course: %d %s", r.Status, r.Body)
	}
	if len(course.Lessons) < 14 || course.Lessons[0].Slug != "primer" || course.Lessons[0].Number != 1 || course.Lessons[0].URL != "/learn/primer" {
		t.Fatalf("lessons: %+v", course.Lessons)
	}
	if st.Backend == "cql3" { // on a node, the model after 2014: each topic a lesson's, with practice
		for _, topic := range []string{"secondary-index", "materialized-view", "sai", "collections", "udt", "counter", "ttl", "write-path", "read-path"} {
			i := slices.IndexFunc(course.Lessons, func(l web.CourseLesson) bool { return slices.Contains(l.Topics, topic) })
			if i < 0 || len(course.Lessons[i].Exercises) == 0 {
				t.Errorf("topic %s: no lesson names it with an exercise on the node", topic)
			}
		}
	}
	var session struct{ Token string }
	if _, err := app.Social.SignUp(webkit.BG(), "learner", "password1"); err != nil {
		t.Fatal(err)
	}
	if r := apiCall(t, c, http.MethodPost, "/api/v1/sessions", "", `{"username":"learner","password":"password1"}`, &session); r.Status != http.StatusOK {
		t.Fatalf("log in: %d %s", r.Status, r.Body)
	}
	teachkit.PostMany(t, app, "author", 2, 1) // the fan-out question's newest tweet
	var ids []string
	for _, l := range course.Lessons {
		for _, ex := range l.Exercises {
			ids = append(ids, ex.ID)
			path := "/api/v1/exercises/" + ex.ID + "/answers"
			var g web.CourseGrade
			r := apiCall(t, c, http.MethodPost, path, session.Token, `{"answer":"junk, not an answer"}`, &g)
			if r.Status != http.StatusBadRequest && (r.Status != http.StatusOK || g.Verdict != "incorrect") {
				t.Errorf("%s: junk answered %d %s", ex.ID, r.Status, r.Body)
			}
			if r.Status == http.StatusBadRequest && !strings.Contains(r.Body, `"message"`) {
				t.Errorf("%s: a 400 without a message: %s", ex.ID, r.Body)
			}
			if r := apiCall(t, c, http.MethodPost, path, session.Token, `{"answer":["junk"]}`, &g); r.Status != http.StatusBadRequest && g.Verdict != "incorrect" {
				t.Errorf("%s: a junk list answered %d %s", ex.ID, r.Status, r.Body)
			}
			if g.ModelAnswer == "" { // junk was a 400: a well-formed answer, right or wrong, says the model
				well := "0"
				if len(ex.Choices) > 0 {
					well = ex.Choices[0]
				}
				if ex.Kind == string(frame.Design) {
					well = wrongDesign(t, ex.ID, st.Backend == "cql3" || st.CompareBackend == "cql3") // compare mode grades a design on its node
				}
				b, _ := json.Marshal(map[string]string{"answer": well})
				r = apiCall(t, c, http.MethodPost, path, "", string(b), &g)
			}
			if g.ModelAnswer == "" {
				t.Fatalf("%s: no model answer: %d %s", ex.ID, r.Status, r.Body)
			}
			model, _ := json.Marshal(map[string]string{"answer": g.ModelAnswer})
			var again web.CourseGrade
			r = apiCall(t, c, http.MethodPost, path, session.Token, string(model), &again)
			if r.Status != http.StatusOK || again.Verdict != "correct" || again.Explanation == "" {
				t.Errorf("%s: the model answer %q answered %d %s", ex.ID, g.ModelAnswer, r.Status, r.Body)
			}
			if r.Header.Get("Storage-Ops") == "" || r.Header.Get("Storage-Ops") == "none" {
				t.Errorf("%s: grading cost the store nothing: %q", ex.ID, r.Header.Get("Storage-Ops"))
			}
			sendCheck(t, app, ex)
		}
	}
	if len(ids) < 10 {
		t.Fatalf("only %d exercises listed: %v", len(ids), ids)
	}
	if ring := slices.Contains(ids, "tokens-1"); ring != (st.Backend == "widerow") {
		t.Errorf("%s: the simulated ring's exercise listed: %v", st.Backend, ring)
	}
	var p web.CourseProgress
	if r := apiCall(t, c, http.MethodGet, "/api/v1/course/progress", session.Token, "", &p); r.Status != http.StatusOK {
		t.Fatalf("progress: %d %s", r.Status, r.Body)
	}
	for _, id := range ids {
		if !slices.Contains(p.Passed, id) {
			t.Errorf("progress lacks %s: %+v", id, p)
		}
	}
	if r := apiCall(t, c, http.MethodGet, "/api/v1/course/progress", "", "", nil); r.Status != http.StatusUnauthorized {
		t.Errorf("progress without a token: %d", r.Status)
	}
	for body, want := range map[string]int{`{}`: 400, `{"answer":{"a":1}}`: 400, `{"answer":""}`: 400, `not json`: 400} {
		if r := apiCall(t, c, http.MethodPost, "/api/v1/exercises/"+ids[0]+"/answers", "", body, nil); r.Status != want {
			t.Errorf("%s: %d %s", body, r.Status, r.Body)
		}
	}
	if r := apiCall(t, c, http.MethodPost, "/api/v1/exercises/no-such/answers", "", `{"answer":"1"}`, nil); r.Status != http.StatusNotFound {
		t.Errorf("an unknown exercise: %d %s", r.Status, r.Body)
	}
}

// sendCheck sends ex's check, when the course lists one, as the page's browser does: the page
// with its query, or its form posted (which goes back to the page); either answers. Each check
// is another browser's, so that the gates' bound on one browser, which the gradings spend, is
// not what is tested.
func sendCheck(t *testing.T, app *webkit.App, ex web.CourseExercise) {
	t.Helper()
	ch := ex.Check
	if ch == nil {
		return
	}
	c := app.Client(t)
	switch ch.Method {
	case http.MethodGet:
		if r := c.Get(ch.URL); r.Status != http.StatusOK {
			t.Errorf("%s: its check GET %s answered %d", ex.ID, ch.URL, r.Status)
		}
	case http.MethodPost:
		form := url.Values{}
		for k, v := range ch.Form {
			form.Set(k, v)
		}
		if r := c.Post(ch.URL, form); r.Status != http.StatusSeeOther {
			t.Errorf("%s: its check POST %s answered %d: %s", ex.ID, ch.URL, r.Status, r.Body)
		}
	default:
		t.Errorf("%s: a check of method %q", ex.ID, ch.Method)
	}
}
