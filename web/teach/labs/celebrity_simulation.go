package labs

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"twissandra/web/teach/frame"
	"twissandra/web/teach/static"
)

// The simulation of the fan-out rules beyond a fixed threshold, as `twissandra celebrity
// --simulate --json` wrote it beside static/celebrity-simulation.svg (tools/bench's SimResult;
// a test there holds both to what the simulation and the measured cost model give now).

type simRows struct {
	Read    float64 `json:"read"`
	Written float64 `json:"written"`
}

func (r simRows) total() float64 { return r.Read + r.Written }

// simRuns is the JSON's layout (tools/bench.SimRuns): the first run is the one plotted.
type simRuns struct {
	Runs []simReport `json:"runs"`
}

type simReport struct {
	Config struct {
		Users       int     `json:"users"`
		MeanFollows float64 `json:"mean_follows"`
		Exponent    float64 `json:"exponent"`
		PostRate    float64 `json:"post_rate"`
		ReadRate    float64 `json:"read_rate"`
		Spread      float64 `json:"spread"`
		Days        float64 `json:"days"`
		Dormant     float64 `json:"dormant"`
		Seed        uint64  `json:"seed"`
		Cost        struct {
			Backend         string  `json:"backend"`
			PostBase        simRows `json:"post_base"`
			PostPerFollower simRows `json:"post_per_follower"`
			PostPulled      simRows `json:"post_pulled"`
			Pages           []struct {
				Pulled int     `json:"pulled"`
				Rows   simRows `json:"rows"`
			} `json:"pages"`
			Rebuild simRows `json:"rebuild_per_followee"`
		} `json:"cost"`
	} `json:"config"`
	Follows      int `json:"follows"`
	MaxFollowers int `json:"max_followers"`
	Posts        int `json:"posts"`
	Pages        int `json:"pages"`
	Returns      int `json:"returns"`
	Rules        []struct {
		Rule    string  `json:"rule"`
		Per1000 simRows `json:"per_1000_actions"`
		Pulled  float64 `json:"pulled_share"`
	} `json:"rules"`
}

// simRule is a row of the lesson's table.
type simRule struct {
	Rule, Read, Written, Total, Pulled, Ratio string
	Best                                      bool // the best fixed threshold
}

// SimFigures is what the lesson says of the simulation.
type SimFigures struct {
	Scale                                 string // the graph and the stream
	Rates                                 string
	PostBase, PerFollower, PostPulled     string // the cost model, in rows
	PageBase, PerPulled, Rebuild, Backend string
	Rules                                 []simRule
	BestFixed, BestRule                   string
	// Gain is the best rule's saving over the best fixed threshold, in percent; Enough that it
	// reaches the 20% that would put the rule in the server.
	Gain   string
	Enough bool
	// ReadShare is the share of the best fixed threshold's rows that are reads; Height the
	// plot's, from its file.
	ReadShare string
	Height    string
	// Verdicts is each run's, one per read rate, the plotted run first.
	Verdicts []simVerdict
}

// simVerdict is one run's outcome: at a median read rate, the best fixed threshold and the
// cheapest rule, and what the latter saves.
type simVerdict struct {
	ReadRate, PostRate, BestFixed, BestRule, Gain string
	Enough                                        bool
}

var Simulation = loadSimulation()

func loadSimulation() SimFigures {
	b, err := static.FS.ReadFile("celebrity-simulation.json")
	if err != nil {
		panic(err) // embedded: it is there
	}
	var runs simRuns
	if err := json.Unmarshal(b, &runs); err != nil || len(runs.Runs) == 0 || len(runs.Runs[0].Rules) == 0 || len(runs.Runs[0].Config.Cost.Pages) < 2 {
		panic(fmt.Sprintf("static/celebrity-simulation.json: %v", err)) // a test reads it too
	}
	r := runs.Runs[0]
	c := r.Config
	cm := c.Cost
	p0, p1 := cm.Pages[0], cm.Pages[1]
	f := SimFigures{
		Scale: fmt.Sprintf("%s users and %s follows (%.1f a user), Twitter's 41.7 million users at 1/%d; the largest follower count %s. %g days of actions: %s posts and %s home pages, the same pages under every rule.",
			frame.Thousands(int64(c.Users)), frame.Thousands(int64(r.Follows)), float64(r.Follows)/float64(c.Users), 41_700_000/c.Users, frame.Thousands(int64(r.MaxFollowers)), c.Days, frame.Thousands(int64(r.Posts)), frame.Thousands(int64(r.Pages))),
		Rates: fmt.Sprintf("A user posts %g times a day and reads %g home pages a day at the median, each rate times a lognormal factor of sigma %g drawn for each user apart (seed %d); a follower who has read nothing for %g days is dormant (%s returned in the window).",
			c.PostRate, c.ReadRate, c.Spread, c.Seed, c.Dormant, frame.Thousands(int64(r.Returns))),
		Backend:     cm.Backend,
		PostBase:    rowsText(cm.PostBase.total()),
		PerFollower: rowsText(cm.PostPerFollower.total()),
		PostPulled:  rowsText(cm.PostPulled.total()),
		PageBase:    rowsText(p0.Rows.total()),
		PerPulled:   rowsText((p1.Rows.total() - p0.Rows.total()) / float64(p1.Pulled-p0.Pulled)),
		Rebuild:     rowsText(cm.Rebuild.total()),
	}
	bestFixed, _ := r.best()
	base := r.Rules[bestFixed].Per1000.total()
	for i, rc := range r.Rules {
		f.Rules = append(f.Rules, simRule{Rule: rc.Rule, Read: frame.Thousands(int64(rc.Per1000.Read + 0.5)), Written: frame.Thousands(int64(rc.Per1000.Written + 0.5)),
			Total: frame.Thousands(int64(rc.Per1000.total() + 0.5)), Pulled: fmt.Sprintf("%.1f%%", 100*rc.Pulled), Ratio: fmt.Sprintf("%.3f", rc.Per1000.total()/base), Best: i == bestFixed})
	}
	v := verdictOf(r)
	f.BestFixed, f.BestRule, f.Gain, f.Enough = v.BestFixed, v.BestRule, v.Gain, v.Enough
	for _, run := range runs.Runs {
		f.Verdicts = append(f.Verdicts, verdictOf(run))
	}
	f.ReadShare = fmt.Sprintf("%.0f%%", 100*r.Rules[bestFixed].Per1000.Read/base)
	svg, err := static.FS.ReadFile("celebrity-simulation.svg")
	if err != nil {
		panic(err)
	}
	m := regexp.MustCompile(`^<svg [^>]*height="(\d+)"`).FindSubmatch(svg)
	if m == nil {
		panic("static/celebrity-simulation.svg: no height")
	}
	f.Height = string(m[1])
	return f
}

func rowsText(v float64) string {
	if v == float64(int(v)) {
		return fmt.Sprintf("%d", int(v))
	}
	return fmt.Sprintf("%.2f", v)
}

// best returns the indexes of the best fixed threshold (pushing to everyone and pulling from
// everyone among them) and of the cheapest rule.
func (r simReport) best() (fixed, best int) {
	isFixed := func(name string) bool {
		return name == "push" || name == "pull" || strings.HasPrefix(name, "threshold ") && !strings.HasSuffix(name, "dormant")
	}
	fixed = -1
	for i, rc := range r.Rules {
		if isFixed(rc.Rule) && (fixed < 0 || rc.Per1000.total() < r.Rules[fixed].Per1000.total()) {
			fixed = i
		}
		if rc.Per1000.total() < r.Rules[best].Per1000.total() {
			best = i
		}
	}
	if fixed < 0 {
		panic("static/celebrity-simulation.json: no fixed threshold")
	}
	return fixed, best
}

// verdictOf is what run says of the rules beyond a fixed threshold.
func verdictOf(run simReport) simVerdict {
	fixed, best := run.best()
	gain := 100 * (1 - run.Rules[best].Per1000.total()/run.Rules[fixed].Per1000.total())
	return simVerdict{ReadRate: fmt.Sprintf("%g", run.Config.ReadRate), PostRate: fmt.Sprintf("%g", run.Config.PostRate),
		BestFixed: run.Rules[fixed].Rule, BestRule: run.Rules[best].Rule, Gain: fmt.Sprintf("%.1f%%", gain), Enough: gain >= 20}
}
