package bench

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// smallSim is a seeded simulation small enough for every run of the tests, priced by the cost
// model measured on widerow.
func smallSim(cost CostModel, mean float64, seed uint64) SimConfig {
	c := DefaultSimConfig(1)
	c.Users, c.MeanFollows, c.Days, c.Seed, c.Cost = 3000, mean, 7, seed, cost
	c.Thresholds = []int{5, 20, 100, 400}
	return c
}

func mustSimulate(t *testing.T, c SimConfig) SimResult {
	t.Helper()
	r, err := SimulateFanout(c)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustRule(t *testing.T, r SimResult, name string) RuleCost {
	t.Helper()
	c, ok := r.Rule(name)
	if !ok {
		t.Fatalf("no rule %q in %v", name, r.Rules)
	}
	return c
}

// What holds of the rules, on seeded graphs: pushing writes more as authors have more
// followers, pulling reads more as readers follow more; a pushed post's and a plain page's cost
// are the cost model's; the per pair rule at the factor the cost model makes best never costs
// more than a fixed threshold (each follow takes the cheaper of its push and its pull, so in
// expectation by construction); skipping dormant followers writes less and rebuilds.
func TestSimulateFanoutProperties(t *testing.T) {
	t.Parallel()
	cost := widerowCost(t)
	var pushWrites, pullReads []float64
	for _, mean := range []float64{5, 10, 20} {
		r := mustSimulate(t, smallSim(cost, mean, 7))
		if r.Posts == 0 || r.Pages == 0 {
			t.Fatalf("mean %g: %d posts, %d pages", mean, r.Posts, r.Pages)
		}
		push, pull := mustRule(t, r, "push"), mustRule(t, r, "pull")
		pushWrites = append(pushWrites, push.PostRows/float64(r.Posts))
		pullReads = append(pullReads, pull.PageRows/float64(r.Pages))
		if want := float64(r.Pages) * cost.Page(0).Total(); push.PageRows != want {
			t.Errorf("mean %g: push's pages cost %v rows, want %v (a plain page each)", mean, push.PageRows, want)
		}
		if want := float64(r.Posts) * cost.PostPulled.Total(); pull.PostRows != want {
			t.Errorf("mean %g: pull's posts cost %v rows, want %v (a pulled post each)", mean, pull.PostRows, want)
		}
		if push.Pulled != 0 || pull.Pulled != 1 {
			t.Errorf("mean %g: push pulls %v of the follows, pull %v", mean, push.Pulled, pull.Pulled)
		}
		kstar := mustRule(t, r, ruleK(r.Config.KStar()))
		for _, c := range r.Rules {
			fixed := c.Rule == "push" || c.Rule == "pull" || strings.HasPrefix(c.Rule, "threshold ") && !strings.HasSuffix(c.Rule, "dormant")
			if fixed && kstar.Per1000.Total() > c.Per1000.Total() {
				t.Errorf("mean %g: %s costs %v rows per 1,000 actions, more than %s's %v", mean, kstar.Rule, kstar.Per1000.Total(), c.Rule, c.Per1000.Total())
			}
		}
		var lastShare float64 = 2
		for _, c := range r.Rules {
			if strings.HasPrefix(c.Rule, "threshold ") && !strings.HasSuffix(c.Rule, "dormant") {
				if c.Pulled >= lastShare {
					t.Errorf("mean %g: %s pulls %v of the follows, no fewer than a lower threshold", mean, c.Rule, c.Pulled)
				}
				lastShare = c.Pulled
			}
		}
		dormant := mustRule(t, r, "push + skip dormant")
		if r.Returns == 0 || dormant.Rebuilds == 0 || dormant.Rebuilds > r.Returns {
			t.Errorf("mean %g: %d returns, %d rebuilds", mean, r.Returns, dormant.Rebuilds)
		}
		if dormant.Per1000.Written >= push.Per1000.Written || dormant.Per1000.Read <= push.Per1000.Read {
			t.Errorf("mean %g: skipping dormant followers %+v against pushing to all %+v: want fewer writes and the rebuilds' reads", mean, dormant.Per1000, push.Per1000)
		}
	}
	for i := 1; i < len(pushWrites); i++ { // the follows grow, and with them what each rule moves
		if pushWrites[i] <= pushWrites[i-1] || pullReads[i] <= pullReads[i-1] {
			t.Errorf("rows a post pushed %v, a page pulled %v: want both growing with the follows", pushWrites, pullReads)
		}
	}
}

// One seed, one outcome; another seed, another graph and stream.
func TestSimulateFanoutIsSeeded(t *testing.T) {
	t.Parallel()
	cost := widerowCost(t)
	a, b := mustSimulate(t, smallSim(cost, 10, 3)), mustSimulate(t, smallSim(cost, 10, 3))
	if !reflect.DeepEqual(a, b) {
		t.Fatal("one seed gave two outcomes")
	}
	if c := mustSimulate(t, smallSim(cost, 10, 4)); c.Follows == a.Follows && c.Posts == a.Posts {
		t.Fatal("another seed gave the same graph and stream")
	}
}

func TestSimulateFanoutRefuses(t *testing.T) {
	t.Parallel()
	good := smallSim(CostModel{Pages: []PageCost{{0, Rows{Read: 3}}, {1, Rows{Read: 4}}}}, 10, 1)
	if _, err := SimulateFanout(good); err != nil {
		t.Fatal(err)
	}
	for name, bad := range map[string]func(*SimConfig){
		"few users":     func(c *SimConfig) { c.Users = 5 },
		"no cost model": func(c *SimConfig) { c.Cost = CostModel{} },
		"k of 0":        func(c *SimConfig) { c.Ks = []float64{0} },
		"threshold 0":   func(c *SimConfig) { c.Thresholds = []int{0} },
		"exponent 2":    func(c *SimConfig) { c.Exponent = 2 },
		"no days":       func(c *SimConfig) { c.Days = 0 },
		"too many":      func(c *SimConfig) { c.Users, c.MeanFollows, c.ReadRate = 10_000_000, 10, 100 },
		"dense":         func(c *SimConfig) { c.MeanFollows = 2000 },
	} {
		c := good
		bad(&c)
		if _, err := SimulateFanout(c); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// The figure on the celebrity lesson (web/teach/static/celebrity-simulation.*) is what the
// simulation makes of its recorded configuration now, and its cost model is widerow's, as
// measured now: a change to the code that moves either fails here until the figure is made
// again (docs/celebrity.md, "Beyond a threshold, by simulation").
func TestSimulationFigureIsCurrent(t *testing.T) {
	t.Parallel()
	js, err := os.ReadFile("../../web/teach/static/celebrity-simulation.json")
	if err != nil {
		t.Fatal(err)
	}
	var saved SimRuns
	if err := json.Unmarshal(js, &saved); err != nil || len(saved.Runs) == 0 {
		t.Fatalf("the figure's JSON: %v", err)
	}
	if now := widerowCost(t); !reflect.DeepEqual(now, saved.Runs[0].Config.Cost) {
		t.Errorf("the figure's cost model %+v is not widerow's now %+v", saved.Runs[0].Config.Cost, now)
	}
	for i, run := range saved.Runs {
		if !reflect.DeepEqual(run.Config.Cost, saved.Runs[0].Config.Cost) {
			t.Errorf("run %d was priced with another cost model", i)
		}
		r := mustSimulate(t, run.Config)
		if !reflect.DeepEqual(r, run) {
			t.Errorf("run %d: the simulation now gives\n%s\nthe figure says\n%s", i, r.Table(), run.Table())
		}
	}
	var svg bytes.Buffer
	if err := WriteSimulationSVG(&svg, saved.Runs[0]); err != nil {
		t.Fatal(err)
	}
	if want, err := os.ReadFile("../../web/teach/static/celebrity-simulation.svg"); err != nil || !bytes.Equal(svg.Bytes(), want) {
		t.Errorf("the plot is not the first run's (%v)", err)
	}
}

func BenchmarkSimulateFanout(b *testing.B) {
	cost := CostModel{Pages: []PageCost{{0, Rows{Read: 43}}, {1, Rows{Read: 44}}}, PostBase: Rows{3, 3}, PostPerFollower: Rows{Written: 1}, PostPulled: Rows{1, 3}, Rebuild: Rows{1, 1}}
	c := smallSim(cost, 35, 1)
	for b.Loop() {
		if _, err := SimulateFanout(c); err != nil {
			b.Fatal(err)
		}
	}
}
