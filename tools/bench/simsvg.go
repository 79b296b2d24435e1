package bench

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"
)

// WriteSimulationSVG draws SimulateFanout's outcome: a bar per rule, the rows it read and wrote
// per 1,000 actions stacked, and a dashed line at the best fixed threshold's total.
func WriteSimulationSVG(w io.Writer, r SimResult) error {
	const left, right, top, bar, gap, width = 230, 90, 64, 18, 6, 940
	height := top + len(r.Rules)*(bar+gap) + 50
	plotW := float64(width - left - right)
	maxV := 0.0
	for _, c := range r.Rules {
		maxV = max(maxV, c.Per1000.Total())
	}
	// Up to the next multiple of a tenth of the power of ten below (65,350: 70,000).
	step := niceCeil(maxV) / 10
	maxV = max(step, math.Ceil(maxV/step)*step)
	x := func(v float64) float64 { return left + plotW*v/maxV }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	c := r.Config
	fmt.Fprintf(&b, `<text x="10" y="20" font-size="15" font-weight="bold">%s</text>`+"\n",
		html.EscapeString(fmt.Sprintf("Storage rows per 1,000 actions, by fan-out rule (%s cost model)", c.Cost.Backend)))
	fmt.Fprintf(&b, `<text x="10" y="38">%s</text>`+"\n", html.EscapeString(fmt.Sprintf(
		"%d users, %d follows (Twitter's graph at 1/%d), %g days: %d posts, %d pages, the same pages for every rule",
		c.Users, r.Follows, TwitterUsers/max(1, c.Users), c.Days, r.Posts, r.Pages)))
	fmt.Fprintf(&b, `<rect x="%d" y="46" width="12" height="10" fill="%s"/><text x="%d" y="55">rows read</text>`, left, palette[0], left+16)
	fmt.Fprintf(&b, `<rect x="%d" y="46" width="12" height="10" fill="%s"/><text x="%d" y="55">rows written</text>`, left+100, palette[1], left+116)
	fmt.Fprintf(&b, `<line x1="%d" y1="51" x2="%d" y2="51" stroke="#333" stroke-dasharray="4,3"/><text x="%d" y="55">best fixed threshold</text>`+"\n", left+220, left+240, left+246)
	for i := 0; i <= 4; i++ {
		v := maxV * float64(i) / 4
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>`, x(v), top-4, x(v), height-44)
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", x(v), height-30, fmtNum(v))
	}
	for i, rc := range r.Rules {
		y := top + i*(bar+gap)
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end">%s</text>`, left-8, y+bar-4, html.EscapeString(rc.Rule))
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>`, left, y, x(rc.Per1000.Read)-left, bar, palette[0])
		fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"/>`, x(rc.Per1000.Read), y, x(rc.Per1000.Total())-x(rc.Per1000.Read), bar, palette[1])
		fmt.Fprintf(&b, `<text x="%.1f" y="%d">%.0f</text>`+"\n", x(rc.Per1000.Total())+4, y+bar-4, rc.Per1000.Total())
	}
	if best, ok := r.BestThreshold(); ok {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#333" stroke-dasharray="4,3"/>`+"\n", x(best.Per1000.Total()), top-4, x(best.Per1000.Total()), height-44)
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">rows read and written per 1,000 actions (posts and home pages)</text>`+"\n", left+int(plotW/2), height-12)
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
