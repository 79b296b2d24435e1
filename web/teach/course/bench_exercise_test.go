package course_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web"
	"twissandra/web/teach/frame"
)

// BenchmarkExerciseAgainstItsPage grades each exercise of the course (its model answer, through
// the API) and reads the lesson page it sits on, in turns, and reports per exercise the time
// of a grading over the time of its page (grade/page): at most 1, a grading costs no more than
// the page. Run: go test -run '^$' -bench ExerciseAgainstItsPage ./web/teach/course/
func BenchmarkExerciseAgainstItsPage(b *testing.B) {
	// Each grading is another learner's (an address of its own, through a trusted proxy), so that
	// the gates' bound on one learner is not what the benchmark measures.
	app := teachkit.NewAppWith(b, webkit.WiderowStores(b), web.Config{TrustedProxies: []string{"127.0.0.1"}})
	learner := 0
	c := app.Client(b)
	for _, u := range []string{"author", "fan"} {
		if _, err := app.Social.SignUp(webkit.BG(), u, "password1"); err != nil {
			b.Fatal(err)
		}
	}
	if err := app.Social.Follow(webkit.BG(), "fan", "author"); err != nil {
		b.Fatal(err)
	}
	if _, err := app.Social.Post(webkit.BG(), "author", "the fan-out question's tweet"); err != nil {
		b.Fatal(err)
	}
	var course struct{ Lessons []web.CourseLesson }
	req, _ := http.NewRequest(http.MethodGet, app.Srv.URL+"/api/v1/course", nil)
	if err := json.Unmarshal([]byte(c.Do(req).Body), &course); err != nil {
		b.Fatal(err)
	}
	for _, l := range course.Lessons {
		for _, ex := range l.Exercises {
			answer := func(a string) web.CourseGrade {
				body, _ := json.Marshal(map[string]string{"answer": a})
				req, _ := http.NewRequest(http.MethodPost, app.Srv.URL+"/api/v1/exercises/"+ex.ID+"/answers", strings.NewReader(string(body)))
				req.Header.Set("Content-Type", "application/json")
				learner++
				req.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", learner>>16&255, learner>>8&255, learner&255))
				r := c.Do(req)
				var g web.CourseGrade
				if r.Status != http.StatusOK || json.Unmarshal([]byte(r.Body), &g) != nil {
					b.Fatalf("%s: %d %s", ex.ID, r.Status, r.Body)
				}
				return g
			}
			first := "0"
			if len(ex.Choices) > 0 {
				first = ex.Choices[0]
			}
			if ex.Kind == string(frame.Design) { // "0" is no design: a wrong one says the model
				first = wrongDesign(b, ex.ID, false)
			}
			model := answer(first).ModelAnswer
			b.Run(ex.ID, func(b *testing.B) {
				var paged, graded time.Duration
				for b.Loop() {
					t0 := time.Now()
					learner++
					page, _ := http.NewRequest(http.MethodGet, app.Srv.URL+l.URL, nil)
					page.Header.Set("X-Forwarded-For", fmt.Sprintf("10.%d.%d.%d", learner>>16&255, learner>>8&255, learner&255))
					if r := c.Do(page); r.Status != http.StatusOK {
						b.Fatalf("%s: %d", l.URL, r.Status)
					}
					t1 := time.Now()
					if g := answer(model); g.Verdict != "correct" {
						b.Fatalf("%s: %+v", ex.ID, g)
					}
					paged, graded = paged+t1.Sub(t0), graded+time.Since(t1)
				}
				b.ReportMetric(float64(graded)/float64(paged), "grade/page")
			})
		}
	}
}
