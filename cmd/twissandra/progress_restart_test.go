package main

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// On widerow, a learner's progress lives in the store (the ProgressStore), so a restart on the
// same data directory keeps it: an exercise passed through the API and a lesson visited on its
// page before the restart are in GET /api/v1/course/progress after it, and ticked on /learn.
func TestProgressSurvivesARestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := []string{"--backend", "widerow", "--data-dir", dir}
	first := startServer(t, args...)
	base := "http://" + first.addr
	cred := `{"username":"learner","password":"password1"}`
	if c := callAPI(t, "POST", base+"/api/v1/users", "", cred); c.status != http.StatusCreated {
		t.Fatalf("sign up: %d %v", c.status, c.body)
	}
	login := func(base string) string {
		t.Helper()
		c := callAPI(t, "POST", base+"/api/v1/sessions", "", cred)
		token, _ := c.body["token"].(string)
		if c.status != http.StatusOK || token == "" {
			t.Fatalf("log in: %d %v", c.status, c.body)
		}
		return token
	}
	token := login(base)

	// The first exercise of the course, and the lesson it sits in, from the course's list.
	course := callAPI(t, "GET", base+"/api/v1/course", "", "")
	lessons, _ := course.body["lessons"].([]any)
	var slug, id string
	var count int
	for _, l := range lessons {
		l, _ := l.(map[string]any)
		if exs, _ := l["exercises"].([]any); len(exs) > 0 && id == "" {
			slug, _ = l["slug"].(string)
			ex, _ := exs[0].(map[string]any)
			id, _ = ex["id"].(string)
			count = len(exs)
		}
	}
	if id == "" {
		t.Fatalf("no exercise in the course: %v", course.body)
	}
	answers := base + "/api/v1/exercises/" + id + "/answers"
	junk := callAPI(t, "POST", answers, "", `{"answer":"junk, not an answer"}`)
	model, _ := junk.body["model_answer"].(string)
	if model == "" {
		t.Fatalf("%s: junk answered %d %v, with no model answer", id, junk.status, junk.body)
	}
	if c := callAPI(t, "POST", answers, token, `{"answer":`+strconv.Quote(model)+`}`); c.status != http.StatusOK || c.body["verdict"] != "correct" {
		t.Fatalf("%s: the model answer %q: %d %v", id, model, c.status, c.body)
	}
	page := newFormClient(t, base)
	if r := page.post("/login", url.Values{"username": {"learner"}, "password": {"password1"}}); r.status != http.StatusSeeOther {
		t.Fatalf("log in on the pages: %d", r.status)
	}
	if r := page.get("/learn/" + slug); r.status != http.StatusOK {
		t.Fatalf("/learn/%s: %d", slug, r.status)
	}
	first.stop()

	second := startServer(t, args...)
	base = "http://" + second.addr
	p := callAPI(t, "GET", base+"/api/v1/course/progress", login(base), "")
	visited, _ := p.body["visited"].([]any)
	passed, _ := p.body["passed"].([]any)
	if p.status != http.StatusOK || !slices.Contains(visited, any(slug)) || !slices.Contains(passed, any(id)) {
		t.Fatalf("the progress after a restart: %d %v, want %s visited and %s passed", p.status, p.body, slug, id)
	}
	page = newFormClient(t, base)
	if r := page.post("/login", url.Values{"username": {"learner"}, "password": {"password1"}}); r.status != http.StatusSeeOther {
		t.Fatalf("log in on the pages: %d", r.status)
	}
	learn := page.get("/learn").body
	for _, want := range []string{`id="visited-` + slug + `"`, `id="passed-` + slug + `"`, "1/" + strconv.Itoa(count) + " exercises passed"} {
		if !strings.Contains(learn, want) {
			t.Errorf("/learn after a restart lacks %q", want)
		}
	}
}
