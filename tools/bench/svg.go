package bench

import (
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"}

// WriteSVG draws two charts of the phases, one above the other: p50 and p99 latency per second
// (p99 dashed), and successful requests per second.
func WriteSVG(w io.Writer, title string, phases []Stats) error {
	const width, height, left, right, top, panel, gap = 900, 640, 70, 200, 40, 250, 50
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="22" font-size="15" font-weight="bold">%s</text>`+"\n", left, html.EscapeString(title))

	maxSec := 1
	var maxLat, maxRate float64
	for _, p := range phases {
		maxSec = max(maxSec, len(p.PerSecond))
		for _, s := range p.PerSecond {
			maxLat = math.Max(maxLat, ms(s.P99))
			maxRate = math.Max(maxRate, float64(s.Requests))
		}
	}
	plotW := float64(width - left - right)
	x := func(sec int) float64 { return left + plotW*(float64(sec)+0.5)/float64(maxSec) }

	axes := func(y0 int, label string, maxV float64) func(float64) float64 {
		maxV = niceCeil(maxV)
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-weight="bold">%s</text>`+"\n", left, y0-8, html.EscapeString(label))
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.0f" height="%d" fill="none" stroke="#999"/>`+"\n", left, y0, plotW, panel)
		for i := 0; i <= 4; i++ {
			v := maxV * float64(i) / 4
			y := float64(y0+panel) - float64(panel)*float64(i)/4
			fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#eee"/>`, left, y, left+plotW, y)
			fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, y+4, fmtNum(v))
		}
		for s := 0; s < maxSec; s += max(1, maxSec/10) {
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%ds</text>`, x(s), y0+panel+16, s)
		}
		b.WriteString("\n")
		return func(v float64) float64 { return float64(y0+panel) - float64(panel)*v/maxV }
	}
	line := func(pts []string, color, dash string) {
		if len(pts) == 0 {
			return
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>`+"\n", color, dash, strings.Join(pts, " "))
	}

	yLat := axes(top+20, "latency per second (ms): p50 solid, p99 dashed", maxLat)
	for i, p := range phases {
		var p50, p99 []string
		for s, sec := range p.PerSecond {
			if sec.Requests == 0 {
				continue
			}
			p50 = append(p50, fmt.Sprintf("%.1f,%.1f", x(s), yLat(ms(sec.P50))))
			p99 = append(p99, fmt.Sprintf("%.1f,%.1f", x(s), yLat(ms(sec.P99))))
		}
		c := palette[i%len(palette)]
		line(p50, c, "")
		line(p99, c, ` stroke-dasharray="6,4"`)
	}
	yRate := axes(top+20+panel+gap, "throughput (successful requests per second)", maxRate)
	for i, p := range phases {
		var pts []string
		for s, sec := range p.PerSecond {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(s), yRate(float64(sec.Requests))))
		}
		line(pts, palette[i%len(palette)], "")
	}
	for i, p := range phases {
		y := top + 40 + i*54
		lx := width - right + 15
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="12" height="12" fill="%s"/>`, lx, y-10, palette[i%len(palette)])
		fmt.Fprintf(&b, `<text x="%d" y="%d">%s</text>`, lx+18, y, html.EscapeString(p.Name))
		fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#555">%.0f req/s</text>`, lx+18, y+15, p.Throughput)
		fmt.Fprintf(&b, `<text x="%d" y="%d" fill="#555">p50 %s p99 %s</text>`+"\n", lx+18, y+30, fmtDur(p.P50), fmtDur(p.P99))
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func fmtNum(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2g", v)
}

func fmtDur(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.0fµs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.2fms", ms(d))
	}
	return d.Round(time.Millisecond).String()
}

// WriteCelebritySVG draws the celebrity figures of one or more backends: post latency against
// the follower count (both axes logarithmic), pushed and hybrid, and the home-timeline page's
// rate against the pulled authors its reader follows, as a share of a plain page's (the first
// page figure), so that backends of very different speeds share the axis.
func WriteCelebritySVG(w io.Writer, title string, results []CelebrityResult) error {
	const width, height, left, right, top, panel, gap = 940, 700, 80, 270, 40, 260, 70
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="22" font-size="15" font-weight="bold">%s</text>`+"\n", left, html.EscapeString(title))
	plotW := float64(width - left - right)

	type series struct {
		name   string
		color  string
		dash   string
		xs, ys []float64
	}
	var posts, pages []series
	for i, r := range results {
		color := palette[i%len(palette)]
		for _, mode := range []string{"push", "hybrid"} {
			s := series{name: fmt.Sprintf("%s, %s", r.Backend, mode), color: color}
			if mode == "hybrid" {
				s.dash = ` stroke-dasharray="6 4"`
				s.name += fmt.Sprintf(" (threshold %d)", r.Threshold)
			}
			for _, p := range r.Posts {
				if p.Mode == mode {
					s.xs, s.ys = append(s.xs, float64(max(p.Followers, 1))), append(s.ys, ms(p.Median))
				}
			}
			posts = append(posts, s)
		}
		s := series{name: r.Backend, color: color}
		for _, p := range r.Pages {
			if p.Median > 0 && r.Pages[0].Median > 0 {
				s.xs, s.ys = append(s.xs, float64(p.Pulled)), append(s.ys, float64(r.Pages[0].Median)/float64(p.Median))
			}
		}
		pages = append(pages, s)
	}
	bounds := func(ss []series, log bool) (lo, hi float64, xlo, xhi float64) {
		lo, hi, xlo, xhi = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
		for _, s := range ss {
			for i := range s.xs {
				lo, hi = math.Min(lo, s.ys[i]), math.Max(hi, s.ys[i])
				xlo, xhi = math.Min(xlo, s.xs[i]), math.Max(xhi, s.xs[i])
			}
		}
		if math.IsInf(lo, 1) {
			return 0.001, 1, 0, 1
		}
		if log {
			lo, hi = math.Pow(10, math.Floor(math.Log10(math.Max(lo, 1e-3)))), math.Pow(10, math.Ceil(math.Log10(math.Max(hi, 1e-3))))
			if hi <= lo {
				hi = lo * 10
			}
			xlo, xhi = math.Pow(10, math.Floor(math.Log10(xlo))), math.Pow(10, math.Ceil(math.Log10(xhi)))
			if xhi <= xlo {
				xhi = xlo * 10
			}
			return lo, hi, xlo, xhi
		}
		return 0, niceCeil(hi), xlo, math.Max(xhi, xlo+1)
	}
	draw := func(y0 int, label, xlabel string, ss []series, log bool) {
		lo, hi, xlo, xhi := bounds(ss, log)
		fx := func(v float64) float64 {
			if log {
				return left + plotW*(math.Log10(v)-math.Log10(xlo))/(math.Log10(xhi)-math.Log10(xlo))
			}
			return left + plotW*(v-xlo)/(xhi-xlo)
		}
		fy := func(v float64) float64 {
			if log {
				return float64(y0+panel) - float64(panel)*(math.Log10(math.Max(v, lo))-math.Log10(lo))/(math.Log10(hi)-math.Log10(lo))
			}
			return float64(y0+panel) - float64(panel)*v/hi
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-weight="bold">%s</text>`+"\n", left, y0-8, html.EscapeString(label))
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.0f" height="%d" fill="none" stroke="#999"/>`+"\n", left, y0, plotW, panel)
		var yticks, xticks []float64
		if log {
			for v := lo; v <= hi*1.0001; v *= 10 {
				yticks = append(yticks, v)
			}
			for v := xlo; v <= xhi*1.0001; v *= 10 {
				xticks = append(xticks, v)
			}
		} else {
			for i := 0; i <= 4; i++ {
				yticks = append(yticks, hi*float64(i)/4)
			}
			for _, s := range ss {
				for _, x := range s.xs {
					if !slices.Contains(xticks, x) {
						xticks = append(xticks, x)
					}
				}
			}
		}
		for _, v := range yticks {
			y := fy(v)
			fmt.Fprintf(&b, `<line x1="%d" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#eee"/>`, left, y, left+plotW, y)
			fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, y+4, fmtNum(v))
		}
		for _, v := range xticks {
			fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`, fx(v), y0+panel+16, fmtNum(v))
		}
		fmt.Fprintf(&b, `<text x="%.0f" y="%d" text-anchor="middle">%s</text>`+"\n", left+plotW/2, y0+panel+34, html.EscapeString(xlabel))
		for i, s := range ss {
			var pts []string
			for j := range s.xs {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", fx(s.xs[j]), fy(s.ys[j])))
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`, fx(s.xs[j]), fy(s.ys[j]), s.color)
			}
			if len(pts) > 0 {
				fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>`+"\n", s.color, s.dash, strings.Join(pts, " "))
			}
			ly := y0 + 14 + 18*i
			fmt.Fprintf(&b, `<line x1="%.0f" y1="%d" x2="%.0f" y2="%d" stroke="%s" stroke-width="2"%s/>`, left+plotW+12, ly-4, left+plotW+36, ly-4, s.color, s.dash)
			fmt.Fprintf(&b, `<text x="%.0f" y="%d">%s</text>`+"\n", left+plotW+42, ly, html.EscapeString(s.name))
		}
	}
	draw(top+20, "post latency (ms, median) against the author's followers", "followers", posts, true)
	draw(top+20+panel+gap, "home-timeline pages of 40 per second, against a plain page's (1 = as fast), by pulled authors followed", "pulled authors followed", pages, false)
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
