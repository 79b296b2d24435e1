package teach

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// The simulation of the fan-out rules beyond a fixed threshold, as `twissandra celebrity
// --simulate --json` wrote it beside static/celebrity-simulation.svg (tools/bench's SimResult;
// a test there holds both to what the simulation and the measured cost model give now).

type simRows struct {
	Read    float64 `json:"read"`
	Written float64 `json:"written"`
}

func (r simRows) total() float64 { return r.Read + r.Written }

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

// simFigures is what the lesson says of the simulation.
type simFigures struct {
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
}

var simulation = loadSimulation()

func loadSimulation() simFigures {
	b, err := staticFS.ReadFile("static/celebrity-simulation.json")
	if err != nil {
		panic(err) // embedded: it is there
	}
	var r simReport
	if err := json.Unmarshal(b, &r); err != nil || len(r.Rules) == 0 || len(r.Config.Cost.Pages) < 2 {
		panic(fmt.Sprintf("static/celebrity-simulation.json: %v", err)) // a test reads it too
	}
	c := r.Config
	cm := c.Cost
	p0, p1 := cm.Pages[0], cm.Pages[1]
	f := simFigures{
		Scale: fmt.Sprintf("%s users and %s follows (%.1f a user), Twitter's 41.7 million users at 1/%d; the largest follower count %s. %g days of actions: %s posts and %s home pages, the same pages under every rule.",
			thousands(int64(c.Users)), thousands(int64(r.Follows)), float64(r.Follows)/float64(c.Users), 41_700_000/c.Users, thousands(int64(r.MaxFollowers)), c.Days, thousands(int64(r.Posts)), thousands(int64(r.Pages))),
		Rates: fmt.Sprintf("A user posts %g times a day and reads %g home pages a day at the median, each rate times a lognormal factor of sigma %g drawn for each user apart (seed %d); a follower who has read nothing for %g days is dormant (%s returned in the window).",
			c.PostRate, c.ReadRate, c.Spread, c.Seed, c.Dormant, thousands(int64(r.Returns))),
		Backend:     cm.Backend,
		PostBase:    rowsText(cm.PostBase.total()),
		PerFollower: rowsText(cm.PostPerFollower.total()),
		PostPulled:  rowsText(cm.PostPulled.total()),
		PageBase:    rowsText(p0.Rows.total()),
		PerPulled:   rowsText((p1.Rows.total() - p0.Rows.total()) / float64(p1.Pulled-p0.Pulled)),
		Rebuild:     rowsText(cm.Rebuild.total()),
	}
	fixed := func(name string) bool {
		return name == "push" || name == "pull" || strings.HasPrefix(name, "threshold ") && !strings.HasSuffix(name, "dormant")
	}
	bestFixed, best := -1, 0
	for i, rc := range r.Rules {
		if fixed(rc.Rule) && (bestFixed < 0 || rc.Per1000.total() < r.Rules[bestFixed].Per1000.total()) {
			bestFixed = i
		}
		if rc.Per1000.total() < r.Rules[best].Per1000.total() {
			best = i
		}
	}
	if bestFixed < 0 {
		panic("static/celebrity-simulation.json: no fixed threshold")
	}
	base := r.Rules[bestFixed].Per1000.total()
	for i, rc := range r.Rules {
		f.Rules = append(f.Rules, simRule{Rule: rc.Rule, Read: thousands(int64(rc.Per1000.Read + 0.5)), Written: thousands(int64(rc.Per1000.Written + 0.5)),
			Total: thousands(int64(rc.Per1000.total() + 0.5)), Pulled: fmt.Sprintf("%.1f%%", 100*rc.Pulled), Ratio: fmt.Sprintf("%.3f", rc.Per1000.total()/base), Best: i == bestFixed})
	}
	f.BestFixed, f.BestRule = r.Rules[bestFixed].Rule, r.Rules[best].Rule
	gain := 100 * (1 - r.Rules[best].Per1000.total()/base)
	f.Gain, f.Enough = fmt.Sprintf("%.1f%%", gain), gain >= 20
	f.ReadShare = fmt.Sprintf("%.0f%%", 100*r.Rules[bestFixed].Per1000.Read/base)
	svg, err := staticFS.ReadFile("static/celebrity-simulation.svg")
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
