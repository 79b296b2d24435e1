package course_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web"
)

// listedCourse is the course as GET /api/v1/course lists it.
func listedCourse(t *testing.T, c *webkit.Client) []web.CourseLesson {
	t.Helper()
	var course struct{ Lessons []web.CourseLesson }
	if r := apiCall(t, c, http.MethodGet, "/api/v1/course", "", "", &course); r.Status != http.StatusOK || len(course.Lessons) == 0 {
		t.Fatalf("GET /api/v1/course: %d %s", r.Status, r.Body)
	}
	return course.Lessons
}

// answerAPI posts answer to ex through the API, anonymously, and returns its status and grade.
func answerAPI(t *testing.T, c *webkit.Client, id, answer string) (int, web.CourseGrade) {
	t.Helper()
	b, _ := json.Marshal(map[string]string{"answer": answer})
	var g web.CourseGrade
	r := apiCall(t, c, http.MethodPost, "/api/v1/exercises/"+id+"/answers", "", string(b), &g)
	return r.Status, g
}

// modelAndWrong are the model answer of ex, as the API returns it for a junk answer (or, where
// junk is a 400, for a well-formed one), and a wrong answer derived from it: another choice, or
// the model altered (a number plus one, names reversed or one fewer, a suffix), one the API grades
// "incorrect".
func modelAndWrong(t *testing.T, c *webkit.Client, ex web.CourseExercise) (model, wrong string) {
	t.Helper()
	_, g := answerAPI(t, c, ex.ID, "junk, not an answer")
	if g.ModelAnswer == "" {
		well := "0"
		if len(ex.Choices) > 0 {
			well = ex.Choices[0]
		}
		_, g = answerAPI(t, c, ex.ID, well)
	}
	if model = g.ModelAnswer; model == "" {
		t.Fatalf("%s: no model answer", ex.ID)
	}
	var candidates []string
	for _, ch := range ex.Choices {
		if !strings.EqualFold(ch, model) {
			candidates = append(candidates, ch)
		}
	}
	if n, err := strconv.Atoi(model); err == nil {
		candidates = append(candidates, strconv.Itoa(n+1))
	}
	if names := strings.Split(model, ", "); len(names) > 1 {
		back := slices.Clone(names)
		slices.Reverse(back)
		candidates = append(candidates, strings.Join(back, ", "), strings.Join(names[:len(names)-1], ", "))
	}
	candidates = append(candidates, model+"-altered")
	for _, w := range candidates {
		if status, g := answerAPI(t, c, ex.ID, w); status == http.StatusOK && g.Verdict == "incorrect" {
			return model, w
		}
	}
	t.Fatalf("%s: no wrong answer derived from the model %q among %q", ex.ID, model, candidates)
	return "", ""
}

// The last lesson's recap holds the learner's results: each lesson visited or not and its
// exercises passed, the totals, and, under where to go next, the lessons left to finish. A
// learner passes the first exercise of the first lesson that has one (through its form), and
// the recap counts that lesson visited with one pass, the last lesson visited, every other not.
func TestCourseEndRecapsTheLearnersResults(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	c := app.Client(t)
	ls := listedCourse(t, c)
	last := ls[len(ls)-1]
	first := ls[slices.IndexFunc(ls, func(l web.CourseLesson) bool { return len(l.Exercises) > 0 })]
	exercises := 0
	for _, l := range ls {
		exercises += len(l.Exercises)
	}

	end := c.LessonPage(last.URL)
	webkit.MustContain(t, end, fmt.Sprintf("1 of %d lessons visited, 0 of %d exercises passed", len(ls), exercises),
		`id="recap-left"`, fmt.Sprintf(`href="%s">%d. %s</a>`, first.URL, first.Number, first.Title))

	ex := first.Exercises[0]
	model, _ := modelAndWrong(t, c, ex)
	page := c.Submit("/learn/exercises/"+ex.ID, url.Values{"answer": {model}}, first.URL+"#ex-"+ex.ID).Body
	webkit.MustContain(t, page, `id="ex-`+ex.ID+`-passed"`)

	end = c.LessonPage(last.URL)
	webkit.MustContain(t, end, fmt.Sprintf("2 of %d lessons visited, 1 of %d exercises passed", len(ls), exercises))
	_, recap, _ := strings.Cut(end, `id="course-recap"`)
	for _, l := range ls {
		_, item, _ := strings.Cut(recap, `id="recap-`+l.Slug+`"`)
		item, _, _ = strings.Cut(item, "</li>")
		visited := l.Slug == first.Slug || l.Slug == last.Slug
		if got := strings.Contains(item, "✓ visited"); got != visited || (!visited && !strings.Contains(item, "not visited")) {
			t.Errorf("%s: visited %v in the recap, want %v:\n%s", l.Slug, got, visited, item)
		}
		passed := 0
		if l.Slug == first.Slug {
			passed = 1
		}
		if len(l.Exercises) > 0 && !strings.Contains(item, fmt.Sprintf("%d/%d exercises passed", passed, len(l.Exercises))) {
			t.Errorf("%s: the recap's passes, want %d/%d:\n%s", l.Slug, passed, len(l.Exercises), item)
		}
	}
	_, left, _ := strings.Cut(end, `id="recap-left"`)
	left, _, _ = strings.Cut(left, "</li>")
	for _, l := range ls {
		finished := l.Slug == last.Slug && len(l.Exercises) == 0 || l.Slug == first.Slug && len(l.Exercises) == 1
		if got := strings.Contains(left, `href="`+l.URL+`"`); got == finished {
			t.Errorf("%s: listed among the lessons left %v, finished %v:\n%s", l.Slug, got, finished, left)
		}
	}
}
