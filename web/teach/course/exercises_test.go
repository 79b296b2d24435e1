package course_test

import (
	"html"
	"net/url"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// A lesson asks before it answers: the question and its form, no verdict; a wrong answer comes
// back with the store's answer, why, and what the grading cost in the footer, and the form to
// try again; a malformed one with a readable message; a right one as passed, and /learn ticks
// the lesson visited and the exercise passed (anonymous: in the session; signed in: in the
// store, which the learner's next session reads).
func TestExerciseFormPredictThenCheck(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	c := app.Client(t)
	body := c.LessonPage("/learn/time")
	webkit.MustContain(t, body, `id="ex-time-1"`, `action="/learn/exercises/time-1"`, "Which value does a read return?")
	webkit.MustNotContain(t, body, `id="ex-time-1-verdict"`, `id="ex-time-1-model"`)
	body = html.UnescapeString(c.Submit("/learn/exercises/time-1", url.Values{"answer": {"second"}}, "/learn/time#ex-time-1").Body)
	webkit.MustContain(t, body, `data-verdict="incorrect"`, `<code id="ex-time-1-model">first</code>`, "the greatest timestamp",
		"What your answer cost", "insert Scratch.Bytes[", "Try again")
	body = html.UnescapeString(c.Submit("/learn/exercises/time-2", url.Values{"answer": {"perhaps"}}, "/learn/time#ex-time-2").Body)
	webkit.MustContain(t, body, `id="ex-time-2-error"`, "Your answer could not be graded", `"perhaps" is not one of the choices`)
	body = html.UnescapeString(c.Submit("/learn/exercises/time-1", url.Values{"answer": {"first"}}, "/learn/time#ex-time-1").Body)
	webkit.MustContain(t, body, `data-verdict="correct"`, `id="ex-time-1-passed"`)
	// The longest answer, and the longest explanation, still fit the session's cookie.
	long := strings.Repeat("9, ", 333)
	body = html.UnescapeString(c.Submit("/learn/exercises/slices-1", url.Values{"answer": {long}}, "/learn/slices#ex-slices-1").Body)
	webkit.MustContain(t, body, `id="ex-slices-1-verdict"`, "…")
	// Shown once: the page read again asks again.
	webkit.MustNotContain(t, c.LessonPage("/learn/time"), `id="ex-time-1-verdict"`)
	learn := c.LessonPage("/learn")
	webkit.MustContain(t, learn, `id="visited-time"`, `1/2 exercises passed`)
	webkit.MustNotContain(t, learn, `id="visited-primer"`)

	// Signed in: the store keeps it, and another browser of the same learner sees it.
	c.SignUp("learner")
	webkit.MustNotContain(t, c.LessonPage("/learn"), `id="visited-time"`)
	c.LessonPage("/learn/slices")
	c.Submit("/learn/exercises/slices-2", url.Values{"answer": {"832416, 976"}}, "/learn/slices#ex-slices-2")
	other := app.Client(t)
	if r := other.Post("/login", url.Values{"username": {"learner"}, "password": {"password1"}}); r.Status != 303 {
		t.Fatalf("log in: %d", r.Status)
	}
	learn = other.LessonPage("/learn")
	webkit.MustContain(t, learn, `id="visited-slices"`, `id="passed-slices"`, "1/3 exercises passed")
	webkit.MustNotContain(t, learn, `id="visited-time"`)
}
