package bench

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
)

// The fan-out rules beyond a fixed threshold, by simulation: a follower graph shaped like
// Twitter's as Kwak et al. measured it (WWW 2010: 41.7M users, 1.47B follows, follower counts
// on a power law of exponent 2.276), scaled down, with a post rate and a read rate per user;
// one stream of posts and home-page reads, priced under each rule with the cost model measured
// on the real code (CostModel). Every rule serves the same pages.
//
// The rules:
//   - push: every post to every follower (the seeds);
//   - pull: no post to any follower, every page merges every followee's userline;
//   - threshold T: an author with more than T followers pulled, the rest pushed (this server);
//   - per pair k (Feeding Frenzy, Silberstein et al., SIGMOD 2010): push an author's posts to a
//     follower who reads at least k times as often as the author posts, pull them otherwise
//     (KStar, the factor the cost model makes best, is always tried);
//   - + skip dormant (Mastodon): a follower who has read nothing for Dormant days is skipped by
//     the pushes, and their timeline rebuilt when they return (a backfill of every followee
//     pushed to them, CostModel.Rebuild each).

// Kwak et al.'s figures, and the scale the simulation defaults to.
const (
	TwitterUsers    = 41_700_000
	TwitterFollows  = 1_470_000_000
	TwitterExponent = 2.276
)

// SimConfig says what SimulateFanout simulates.
type SimConfig struct {
	Users int `json:"users"` // users of the scaled graph
	// MeanFollows is the follows per user (Kwak: 1.47B / 41.7M = 35.3), Exponent the power
	// law of the follower counts (Kwak: 2.276): counts are drawn from it, from the lower cut
	// that gives the mean, to the scaled graph's size.
	MeanFollows float64 `json:"mean_follows"`
	Exponent    float64 `json:"exponent"`
	// PostRate and ReadRate are the median posts and home pages a user makes a day; each user's
	// rates are the median times a lognormal factor of sigma Spread, drawn apart.
	PostRate float64 `json:"post_rate"`
	ReadRate float64 `json:"read_rate"`
	Spread   float64 `json:"spread"`
	Days     float64 `json:"days"`    // the days of actions simulated
	Dormant  float64 `json:"dormant"` // days without a read after which a follower is skipped
	// Thresholds are the fixed thresholds tried (followers of the scaled graph), Ks the per
	// pair rule's factors.
	Thresholds []int     `json:"thresholds"`
	Ks         []float64 `json:"ks"`
	Seed       uint64    `json:"seed"`
	Cost       CostModel `json:"cost"`
}

// DefaultSimConfig is Twitter's graph at 1/scale of its users, the rest the defaults the
// figures on the celebrity lesson use; Cost is to be measured.
func DefaultSimConfig(scale int) SimConfig {
	return SimConfig{
		Users: TwitterUsers / max(1, scale), MeanFollows: float64(TwitterFollows) / TwitterUsers, Exponent: TwitterExponent,
		PostRate: 0.2, ReadRate: 1, Spread: 1.5, Days: 14, Dormant: 7,
		Thresholds: []int{10, 100, 1000, 3000, 10000, 30000}, Ks: []float64{0.25, 4}, Seed: 1,
	}
}

func (c SimConfig) check() error {
	if len(c.Cost.Pages) < 2 {
		return errors.New("simulate: no cost model: measure one (MeasureFanoutCost)")
	}
	return c.CheckShape()
}

// CheckShape checks all of c but its cost model: a command checks it before it measures one.
func (c SimConfig) CheckShape() error {
	switch {
	case c.Users < 10 || c.Users > 10_000_000:
		return fmt.Errorf("simulate: %d users: want 10 to 10,000,000", c.Users)
	case !(c.MeanFollows >= 1) || c.MeanFollows > float64(c.Users-1)/4:
		return fmt.Errorf("simulate: %g follows per user: want 1 to a quarter of the users", c.MeanFollows)
	case !(c.Exponent > 2 && c.Exponent < 4):
		return fmt.Errorf("simulate: exponent %g: want more than 2 and less than 4", c.Exponent)
	case !(c.PostRate > 0 && c.ReadRate > 0 && c.Spread >= 0 && c.Spread <= 4):
		return errors.New("simulate: the rates must be above 0, their spread 0 to 4")
	case !(c.Days > 0 && c.Days <= 365) || !(c.Dormant > 0):
		return errors.New("simulate: want 0 to 365 days simulated, and a dormancy above 0 days")
	case (c.PostRate+c.ReadRate)*float64(c.Users)*c.Days*math.Exp(c.Spread*c.Spread/2) > 50_000_000:
		return errors.New("simulate: more than 50 million actions expected: fewer users, days or lower rates")
	}
	for _, t := range c.Thresholds {
		if t < 1 {
			return fmt.Errorf("simulate: threshold %d: want 1 or more", t)
		}
	}
	for _, k := range c.Ks {
		if !(k > 0) || math.IsInf(k, 0) {
			return fmt.Errorf("simulate: k %g: want above 0", k)
		}
	}
	return nil
}

// RuleCost is one rule's cost over the simulation.
type RuleCost struct {
	Rule string `json:"rule"` // "push", "pull", "threshold 100", "per pair k=1", each maybe "+ skip dormant"
	// Per1000 is the rows read and written per 1,000 actions (posts and pages).
	Per1000 Rows `json:"per_1000_actions"`
	// PostRows and PageRows are the rows, read and written, of the posts and of the pages.
	PostRows float64 `json:"post_rows"`
	PageRows float64 `json:"page_rows"`
	// Rebuilds counts the timelines rebuilt for returning readers; Pulled is the share of
	// follows whose posts the rule pulls.
	Rebuilds int     `json:"rebuilds"`
	Pulled   float64 `json:"pulled_share"`
}

// SimResult is the simulation's outcome.
type SimResult struct {
	Config       SimConfig  `json:"config"`
	Follows      int        `json:"follows"`       // edges of the graph made
	MaxFollowers int        `json:"max_followers"` // the largest follower count
	Posts        int        `json:"posts"`
	Pages        int        `json:"pages"` // every rule's, the same
	Returns      int        `json:"returns"`
	Rules        []RuleCost `json:"rules"`
}

// SimRuns are simulations of one graph and cost model at several read rates, as `twissandra
// celebrity --simulate --json` writes them: the first is the one plotted.
type SimRuns struct {
	Runs []SimResult `json:"runs"`
}

// Gain is what the cheapest rule saves against the best fixed threshold, as a share of the
// latter's rows (0.2: 20% fewer rows), with both rules.
func (r SimResult) Gain() (gain float64, best, fixed RuleCost) {
	best, _ = r.Best()
	fixed, ok := r.BestThreshold()
	if !ok || fixed.Per1000.Total() == 0 {
		return 0, best, fixed
	}
	return 1 - best.Per1000.Total()/fixed.Per1000.Total(), best, fixed
}

// graph is the follower graph: followers and followees by user, as indexes.
type graph struct {
	followers, followees [][]int32
	post, read           []float64 // per day
}

// powerLawMin is the lower cut of a power law of exponent a on [xmin, xmax] whose mean is mean.
func powerLawMin(a, mean, xmax float64) float64 {
	m := func(xmin float64) float64 {
		r := xmax / xmin
		return (a - 1) / (a - 2) * xmin * (1 - math.Pow(r, 2-a)) / (1 - math.Pow(r, 1-a))
	}
	lo, hi := 1e-9, mean
	for range 200 {
		mid := (lo + hi) / 2
		if m(mid) < mean {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

func makeGraph(c SimConfig, rng *rand.Rand) graph {
	n := c.Users
	g := graph{followers: make([][]int32, n), followees: make([][]int32, n), post: make([]float64, n), read: make([]float64, n)}
	xmax := float64(n - 1)
	// Counts are floored: the cut is set for the mean plus the half they lose.
	xmin := powerLawMin(c.Exponent, c.MeanFollows+0.5, xmax)
	mark := make([]int32, n)
	for a := range n {
		var d int
		for {
			x := xmin * math.Pow(1-rng.Float64(), -1/(c.Exponent-1))
			if x <= xmax {
				d = int(x)
				break
			}
		}
		fs := make([]int32, 0, d)
		for len(fs) < d {
			u := rng.IntN(n)
			if u == a || mark[u] == int32(a+1) {
				continue
			}
			mark[u] = int32(a + 1)
			fs = append(fs, int32(u))
		}
		g.followers[a] = fs
	}
	counts := make([]int, n)
	for _, fs := range g.followers {
		for _, u := range fs {
			counts[u]++
		}
	}
	for u := range n {
		g.followees[u] = make([]int32, 0, counts[u])
	}
	for a, fs := range g.followers {
		for _, u := range fs {
			g.followees[u] = append(g.followees[u], int32(a))
		}
	}
	for u := range n {
		g.post[u] = c.PostRate * math.Exp(c.Spread*rng.NormFloat64())
		g.read[u] = c.ReadRate * math.Exp(c.Spread*rng.NormFloat64())
	}
	return g
}

// rule is one rule of the simulation: whether a's posts are pushed to follower u.
type rule struct {
	name    string
	dormant bool
	push    func(a, u int32) bool
	// pushAll, when not nil, says the same of every follower of a: the per-post count needs
	// no look at each follower.
	pushAll func(a int32) bool
	// pushed[a]: followers of a pushed to; pulled[u]: followees of u pulled.
	pushed, pulled []int32
	cost           RuleCost
}

// SimulateFanout runs the simulation c describes: deterministic for one Seed.
func SimulateFanout(c SimConfig) (SimResult, error) {
	if err := c.check(); err != nil {
		return SimResult{}, err
	}
	rng := rand.New(rand.NewPCG(c.Seed, c.Seed^0x9e3779b97f4a7c15))
	g := makeGraph(c, rng)
	res := SimResult{Config: c}
	for _, fs := range g.followers {
		res.Follows += len(fs)
		res.MaxFollowers = max(res.MaxFollowers, len(fs))
	}
	rules := makeRules(c, g)
	for _, r := range rules {
		r.pushed = make([]int32, len(g.followers))
		r.pulled = make([]int32, len(g.followers))
		pulledEdges := 0
		for a, fs := range g.followers {
			for _, u := range fs {
				if r.push(int32(a), u) {
					r.pushed[a]++
				} else {
					r.pulled[u]++
					pulledEdges++
				}
			}
		}
		if res.Follows > 0 {
			r.cost.Pulled = float64(pulledEdges) / float64(res.Follows)
		}
	}

	// One stream of actions for every rule: a Poisson process per user and kind, merged.
	n := len(g.followers)
	cum := make([]float64, 2*n) // posts of 0..n-1, then reads of 0..n-1
	total := 0.0
	for i := range 2 * n {
		if i < n {
			total += g.post[i]
		} else {
			total += g.read[i-n]
		}
		cum[i] = total
	}
	// At the start each reader last read an exponential time ago (a Poisson process's past).
	last := make([]float64, n)
	for u := range n {
		last[u] = -rng.ExpFloat64() / g.read[u]
	}
	cm := c.Cost
	pagesBy := make([]Rows, 0, 64) // Page(p) for small p, memoised
	page := func(p int32) Rows {
		for int(p) >= len(pagesBy) && len(pagesBy) < cap(pagesBy) {
			pagesBy = append(pagesBy, cm.Page(len(pagesBy)))
		}
		if int(p) < len(pagesBy) {
			return pagesBy[p]
		}
		return cm.Page(int(p))
	}
	// Each rule's sums of the posts' and the pages' rows, reads and writes apart.
	posts, pages := make([]Rows, len(rules)), make([]Rows, len(rules))
	for t := rng.ExpFloat64() / total; t < c.Days; t += rng.ExpFloat64() / total {
		i := sort.SearchFloat64s(cum, rng.Float64()*total)
		if i >= 2*n {
			i = 2*n - 1
		}
		if i < n { // a post by a
			a := int32(i)
			res.Posts++
			fs := g.followers[a]
			active := -1 // followers who read within the dormancy, counted once if asked
			for k, r := range rules {
				pushedTo := r.pushed[a]
				if r.dormant && pushedTo > 0 {
					if r.pushAll != nil {
						if active < 0 {
							active = 0
							for _, u := range fs {
								if t-last[u] <= c.Dormant {
									active++
								}
							}
						}
						pushedTo = int32(active)
					} else {
						pushedTo = 0
						for _, u := range fs {
							if t-last[u] <= c.Dormant && r.push(a, u) {
								pushedTo++
							}
						}
					}
				}
				base := cm.PostBase
				if r.pushed[a] == 0 && len(fs) > 0 {
					base = cm.PostPulled
				}
				posts[k] = posts[k].add(base.add(cm.PostPerFollower.times(float64(pushedTo))))
			}
			continue
		}
		u := int32(i - n) // a home page of u
		res.Pages++
		returned := t-last[u] > c.Dormant
		if returned {
			res.Returns++
		}
		for k, r := range rules {
			cost := page(r.pulled[u])
			if r.dormant && returned {
				if pushedIn := int32(len(g.followees[u])) - r.pulled[u]; pushedIn > 0 {
					cost = cost.add(cm.Rebuild.times(float64(pushedIn)))
					r.cost.Rebuilds++
				}
			}
			pages[k] = pages[k].add(cost)
		}
		last[u] = t
	}
	actions := float64(res.Posts + res.Pages)
	for k, r := range rules {
		all := posts[k].add(pages[k])
		if actions > 0 {
			r.cost.Per1000 = all.times(1000 / actions)
		}
		r.cost.PostRows, r.cost.PageRows = posts[k].Total(), pages[k].Total()
		r.cost.Rule = r.name
		res.Rules = append(res.Rules, r.cost)
	}
	return res, nil
}

func makeRules(c SimConfig, g graph) []*rule {
	var rules []*rule
	add := func(name string, push func(a, u int32) bool, all func(a int32) bool) {
		rules = append(rules, &rule{name: name, push: push, pushAll: all})
		rules = append(rules, &rule{name: name + " + skip dormant", dormant: true, push: push, pushAll: all})
	}
	rules = append(rules, &rule{name: "pull", push: func(int32, int32) bool { return false }, pushAll: func(int32) bool { return false }})
	for _, t := range c.Thresholds {
		below := func(a int32) bool { return len(g.followers[a]) <= t }
		add(fmt.Sprintf("threshold %d", t), func(a, _ int32) bool { return below(a) }, below)
	}
	add("push", func(int32, int32) bool { return true }, func(int32) bool { return true })
	for _, k := range c.ks() {
		add(ruleK(k), func(a, u int32) bool { return g.read[u] >= k*g.post[a] }, nil)
	}
	return rules
}

// ruleK is the name of the per pair rule of factor k.
func ruleK(k float64) string { return fmt.Sprintf("per pair k=%.3g", k) }

// KStar is the per pair rule's factor the cost model makes best: a follow pushed costs the
// author's posts PostPerFollower each, pulled it costs the follower's pages PerPulled each, so
// pushing is the cheaper exactly when the follower reads at least KStar times as often as the
// author posts.
func (c SimConfig) KStar() float64 {
	pull := c.Cost.PerPulled().Total()
	if pull <= 0 {
		return math.Inf(1)
	}
	return c.Cost.PostPerFollower.Total() / pull
}

// ks are the factors tried: Ks, and KStar when it is not among them.
func (c SimConfig) ks() []float64 {
	ks := slices.Clone(c.Ks)
	if k := c.KStar(); !math.IsInf(k, 0) && !slices.Contains(ks, k) {
		ks = append(ks, k)
		slices.Sort(ks)
	}
	return ks
}

// Rule returns the named rule's cost, and whether there is one.
func (r SimResult) Rule(name string) (RuleCost, bool) {
	i := slices.IndexFunc(r.Rules, func(c RuleCost) bool { return c.Rule == name })
	if i < 0 {
		return RuleCost{}, false
	}
	return r.Rules[i], true
}

// BestThreshold is the fixed threshold of the fewest rows, dormant followers pushed: one of
// Thresholds, or pushing to everyone (a threshold above every count), or pulling from
// everyone (a threshold of 0).
func (r SimResult) BestThreshold() (RuleCost, bool) {
	return r.best(func(c RuleCost) bool {
		return c.Rule == "push" || c.Rule == "pull" || strings.HasPrefix(c.Rule, "threshold ") && !strings.HasSuffix(c.Rule, "dormant")
	})
}

// Best is the rule of the fewest rows.
func (r SimResult) Best() (RuleCost, bool) { return r.best(func(RuleCost) bool { return true }) }

func (r SimResult) best(keep func(RuleCost) bool) (RuleCost, bool) {
	var best RuleCost
	found := false
	for _, c := range r.Rules {
		if keep(c) && (!found || c.Per1000.Total() < best.Per1000.Total()) {
			best, found = c, true
		}
	}
	return best, found
}

// Table is the simulation's figures as text.
func (r SimResult) Table() string {
	var b strings.Builder
	c := r.Config
	fmt.Fprintf(&b, "simulated: %d users (Twitter's %d at 1/%d), %d follows (%.1f a user; Twitter %.1f), largest follower count %d; %g days: %d posts, %d pages, %d returns after %g dormant days\n",
		c.Users, TwitterUsers, TwitterUsers/max(1, c.Users), r.Follows, float64(r.Follows)/float64(max(1, c.Users)), float64(TwitterFollows)/TwitterUsers, r.MaxFollowers, c.Days, r.Posts, r.Pages, r.Returns, c.Dormant)
	fmt.Fprintf(&b, "cost model (%s, rows): post %v + %v a follower pushed to, pulled post %v, page %v + %v a pulled author, rebuild %v a followee\n",
		c.Cost.Backend, c.Cost.PostBase.Total(), c.Cost.PostPerFollower.Total(), c.Cost.PostPulled.Total(), c.Cost.Page(0).Total(), c.Cost.PerPulled().Total(), c.Cost.Rebuild.Total())
	best, _ := r.BestThreshold()
	gain, bestRule, _ := r.Gain()
	fmt.Fprintf(&b, "read rate %g a day against post rate %g: the best fixed threshold is %s; the cheapest rule, %s, costs %.1f%% less\n",
		c.ReadRate, c.PostRate, best.Rule, bestRule.Rule, 100*gain)
	fmt.Fprintf(&b, "%-36s %10s %10s %10s %8s %9s\n", "rule", "read/1000", "write/1000", "total", "pulled", "vs best T")
	for _, rc := range r.Rules {
		fmt.Fprintf(&b, "%-36s %10.0f %10.0f %10.0f %7.1f%% %9.3f\n", rc.Rule, rc.Per1000.Read, rc.Per1000.Written, rc.Per1000.Total(), 100*rc.Pulled, rc.Per1000.Total()/best.Per1000.Total())
	}
	return b.String()
}
