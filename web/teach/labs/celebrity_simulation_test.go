package labs_test

import (
	"encoding/json"
	"html"
	"net/http"
	"strings"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/labs"
	"twissandra/web/teach/static"
)

// Lesson 12 shows the simulation of the rules beyond a fixed threshold: the plot, a row for
// every rule of static/celebrity-simulation.json with its figures, the graph's scale, the cost
// model it was priced with, and the verdict on the 20% that would put a rule in the server.
func TestCelebrityLessonSimulation(t *testing.T) {
	t.Parallel()
	c := teachkit.NewApp(t, webkit.MemoryStores()).Client(t)
	body := html.UnescapeString(c.Get("/learn/celebrity").Body)
	webkit.MustContain(t, body, `id="beyond"`, `id="cl-sim-plot"`, `src="/static/celebrity-simulation.svg"`, `id="cl-sim-cost"`, `id="cl-sim-verdict"`,
		"Kwak et al.", "Feeding Frenzy", "Mastodon", labs.Simulation.Scale, labs.Simulation.Rates, "The best fixed threshold is <strong>"+labs.Simulation.BestFixed+"</strong>")
	var runs struct {
		Runs []struct {
			Config struct {
				ReadRate float64 `json:"read_rate"`
			} `json:"config"`
			Rules []struct {
				Rule string `json:"rule"`
			} `json:"rules"`
		} `json:"runs"`
	}
	b, err := static.FS.ReadFile("celebrity-simulation.json")
	if err != nil || json.Unmarshal(b, &runs) != nil || len(runs.Runs) == 0 || len(runs.Runs[0].Rules) < 5 {
		t.Fatalf("static/celebrity-simulation.json: %v", err)
	}
	saved := runs.Runs[0]
	_, table, _ := strings.Cut(body, `id="cl-sim"`)
	table, _, _ = strings.Cut(table, "</table>")
	if got := strings.Count(table, `<td data-label="Rule">`); got != len(saved.Rules) {
		t.Errorf("%d rules in the table, %d in the simulation", got, len(saved.Rules))
	}
	for _, r := range saved.Rules {
		webkit.MustContain(t, table, `<td data-label="Rule">`+r.Rule+`</td>`)
	}
	if strings.Count(table, `class="best"`) != 1 {
		t.Error("the best fixed threshold is not marked once")
	}
	// One verdict a run, the plotted run's first.
	_, verdicts, _ := strings.Cut(body, `id="cl-sim-verdicts"`)
	verdicts, _, _ = strings.Cut(verdicts, "</table>")
	if len(runs.Runs) > 1 && strings.Count(verdicts, `<td data-label="Pages a day">`) != len(runs.Runs) {
		t.Errorf("%d verdicts for %d runs", strings.Count(verdicts, `<td data-label="Pages a day">`), len(runs.Runs))
	}
	for _, v := range labs.Simulation.Verdicts {
		webkit.MustContain(t, verdicts, `<td data-label="Pages a day">`+v.ReadRate+`</td>`, `<td data-label="Cheapest">`+v.BestRule+`</td>`)
	}
	if svg := c.Get("/static/celebrity-simulation.svg"); svg.Status != http.StatusOK || !strings.Contains(svg.Body, "best fixed threshold") {
		t.Fatalf("the plot: %d", svg.Status)
	}
}
