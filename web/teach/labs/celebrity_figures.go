package labs

import (
	"encoding/json"
	"fmt"
	"time"

	"twissandra/web/teach/static"
)

// The figures of static/celebrity.json, as `twissandra celebrity --json` wrote them beside
// static/celebrity.svg (docs/celebrity.md says how to make both again).

type CelebrityFigure struct {
	Backend                        string
	Followers                      string
	Push, Hybrid                   string
	Pulled                         bool
	PushTimelines, HybridTimelines int
	PushRSS, HybridRSS             string
}

type CelebrityPageFigure struct {
	Backend, Page, Rate string
	Pulled              int
}

// celebrityReport is the JSON's layout (tools/bench.CelebrityResult).
type celebrityReport struct {
	Note    string `json:"note"`
	Results []struct {
		Backend   string `json:"backend"`
		Threshold int64  `json:"threshold"`
		Posts     []struct {
			Followers int           `json:"followers"`
			Mode      string        `json:"mode"`
			Pulled    bool          `json:"pulled"`
			Median    time.Duration `json:"median_ns"`
			Timelines int           `json:"timelines"`
			PeakRSS   int64         `json:"peak_rss_bytes"`
		} `json:"posts"`
		Pages []struct {
			Pulled int           `json:"pulled"`
			Median time.Duration `json:"median_ns"`
		} `json:"pages"`
	} `json:"results"`
}

// CelebrityNote says where and how the figures were taken.
var CelebrityNote, CelebrityFigures, CelebrityPageFigures = loadCelebrityFigures()

func loadCelebrityFigures() (string, []CelebrityFigure, []CelebrityPageFigure) {
	b, err := static.FS.ReadFile("celebrity.json")
	if err != nil {
		panic(err) // embedded: it is there
	}
	var r celebrityReport
	if err := json.Unmarshal(b, &r); err != nil {
		panic(fmt.Sprintf("static/celebrity.json: %v", err)) // a test reads it too
	}
	var figs []CelebrityFigure
	var pages []CelebrityPageFigure
	for _, res := range r.Results {
		byCount := map[int]*CelebrityFigure{}
		var order []int
		for _, p := range res.Posts {
			f := byCount[p.Followers]
			if f == nil {
				f = &CelebrityFigure{Backend: fmt.Sprintf("%s (threshold %d)", res.Backend, res.Threshold), Followers: fmt.Sprintf("%d", p.Followers)}
				byCount[p.Followers] = f
				order = append(order, p.Followers)
			}
			d, rss := p.Median.Round(time.Microsecond).String(), "-"
			if p.PeakRSS >= 0 {
				rss = fmt.Sprintf("%.1f MiB", float64(p.PeakRSS)/(1<<20))
			}
			if p.Mode == "push" {
				f.Push, f.PushTimelines, f.PushRSS = d, p.Timelines, rss
			} else {
				f.Hybrid, f.HybridTimelines, f.HybridRSS, f.Pulled = d, p.Timelines, rss, p.Pulled
			}
		}
		for _, n := range order {
			figs = append(figs, *byCount[n])
		}
		for _, p := range res.Pages {
			rate := "-"
			if len(res.Pages) > 0 && p.Median > 0 {
				rate = fmt.Sprintf("%.2f", float64(res.Pages[0].Median)/float64(p.Median))
			}
			pages = append(pages, CelebrityPageFigure{Backend: res.Backend, Pulled: p.Pulled, Page: p.Median.Round(time.Microsecond).String(), Rate: rate})
		}
	}
	return r.Note, figs, pages
}
