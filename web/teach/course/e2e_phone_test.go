package course_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// minText is the smallest text, in CSS pixels on the screen, a figure may show at 390 px. At
// 1280 px the figures are drawn as they always were, the same or larger, save the consistency
// lesson's step chart, 480 px wide in a column of 478 (its 10 px text at 9.96): there the test
// allows wideSlack less.
const minText, wideSlack = 10, 0.1

// maxHeader is the most height the sticky header may take at 390 px: one line of links under
// the brand, no more (it took 124 px when its links wrapped onto three lines).
const maxHeader = 64

// At 390 px (a phone) every figure and table of the pages that have them can be read and
// compared: each SVG text element shows at no less than minText px on the screen (its computed
// font size times the scale its SVG is drawn at), an SVG drawn by an img (lesson 12's plot) its
// smallest stated font size times its drawn scale, each table cell's text too; no table header
// breaks inside a word; the celebrity lesson's comparison stays a table (one row per line, its
// columns side by side); nothing makes the page wider than the viewport; and the sticky header
// takes at most maxHeader px. The same pages at 1280 px keep their figures at full size.
// Screenshots: artifacts/screenshots/phone-*-390.png and phone-*-1280.png.
func TestFiguresReadableAt390px(t *testing.T) {
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	// each page, what shows it is ready, the button (if any) whose answer shows its figure, and
	// its figure or table (a screenshot of its own)
	pages := []struct{ name, path, wait, click, figure string }{
		{"home", "/", "header.top", "", "header.top"},
		{"tokens", "/learn/tokens", "svg.ring-diagram", "", "figure.ring-figure"},
		{"query-first", "/learn/query-first", "svg.diagram", "", ".diagram-wrap:has(#chebotko-diagram)"},
		{"method", "/learn/method", "svg.er-diagram", "", "figure.er-figure"},
		{"generations", "/models/generations", "#chebotko-diagram", "", ".diagram-wrap:has(#workflow-diagram)"},
		{"slices", "/learn/slices", "#lab-submit", "#lab-submit", ".table-wrap:has(#lab-order)"},
		{"lab", "/models/lab", "#lab-submit", "#lab-submit", ".table-wrap:has(#lab-order)"},
		{"lww", "/models/lab", "#lww-submit", "#lww-submit", "figure.lww-figure"},
		{"celebrity", "/learn/celebrity#cl-sim", "article.lesson", "", ".table-wrap:has(#cl-sim)"},
		{"step", "/learn/consistency", "#consistency-submit", "#consistency-submit", "#step-chart"},
		{"trials", "/learn/consistency", "#trials-submit", "#trials-submit", "#trials-chart"},
		{"celebrity-plot", "/learn/celebrity#cl-sim-plot", "#cl-sim-plot", "", ".diagram-wrap:has(#cl-sim-plot)"},
		{"celebrity-models", "/models/celebrity", "#celebrity-plot", "", ".diagram-wrap:has(#celebrity-plot)"},
	}
	// the smallest font size an SVG picture (an img's) states, in its own pixels
	fontSize := regexp.MustCompile(`font-size(?:="|:\s*)([0-9.]+)`)
	smallestFont := func(src string) float64 {
		body := app.Client(t).Get(src).Body
		least := 0.0
		for _, m := range fontSize.FindAllStringSubmatch(body, -1) {
			if px, err := strconv.ParseFloat(m[1], 64); err == nil && (least == 0 || px < least) {
				least = px
			}
		}
		if least == 0 {
			t.Fatalf("%s states no font size", src)
		}
		return least
	}
	type reading struct {
		Texts, Cells       int
		MinText, MinCell   float64
		Smallest, Cell     string
		Broken             []string
		Header             float64
		Stacked            []string
		Viewport, PageWide float64
		Pictures           []struct {
			Src   string
			Scale float64
		}
	}
	for _, width := range []int64{390, 1280} {
		least := minText - 0.01 // 0.01: a scale of 1 computed as 0.9999
		if width > 390 {
			least = minText - wideSlack
		}
		b := webkit.NewTab(t, int(width), 900, 3*time.Minute)
		b.Do("csp", webkit.CSPWatch())
		for _, p := range pages {
			b.Do(p.path, chromedp.EmulateViewport(width, 900), chromedp.Navigate(app.Srv.URL+p.path), chromedp.WaitVisible(chromedp.CSS(p.wait)))
			if p.click != "" {
				// the page reloads: wait for the new document's figure, not the old one's
				b.Do(p.click, chromedp.Evaluate[chromedp.Void](`window.__before = true`), chromedp.Click(chromedp.CSS(p.click)))
				b.WaitFor(`!window.__before && document.readyState === "complete" && !!document.querySelector(` + fmt.Sprintf("%q", p.figure) + `)`)
			}
			b.Health()
			got, err := chromedp.Run(b.Ctx, chromedp.Evaluate[reading](`(() => {
				const r = {Texts: 0, Cells: 0, MinText: 1e9, MinCell: 1e9, Smallest: "", Cell: "", Broken: [], Stacked: [], Pictures: [],
					Header: document.querySelector("header.top").getBoundingClientRect().height,
					Viewport: document.documentElement.clientWidth, PageWide: document.documentElement.scrollWidth};
				const shown = e => { const b = e.getBoundingClientRect(); return b.width > 0 && b.height > 0; };
				for (const t of document.querySelectorAll("main svg text")) {
					if (!shown(t) || !t.textContent.trim()) continue;
					const m = t.getScreenCTM();
					const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
					r.Texts++;
					if (px < r.MinText) { r.MinText = px; r.Smallest = t.textContent.trim().slice(0, 40); }
				}
				for (const c of document.querySelectorAll("main table th, main table td, main table th *, main table td *")) {
					if (!shown(c) || !c.textContent.trim()) continue;
					const px = parseFloat(getComputedStyle(c).fontSize);
					r.Cells++;
					if (px < r.MinCell) { r.MinCell = px; r.Cell = c.textContent.trim().slice(0, 40); }
				}
				// an SVG drawn by an img: the scale it is drawn at
				for (const i of document.querySelectorAll('main img[src$=".svg"]'))
					if (shown(i)) r.Pictures.push({Src: i.getAttribute("src"), Scale: i.getBoundingClientRect().width / i.naturalWidth});
				// a header broken inside a word: one of its words lies on more than one line
				for (const th of document.querySelectorAll("main table th")) {
					if (!shown(th)) continue;
					const w = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
					for (let n = w.nextNode(); n; n = w.nextNode()) {
						for (const m of n.data.matchAll(/\S+/g)) {
							const rg = document.createRange();
							rg.setStart(n, m.index); rg.setEnd(n, m.index + m[0].length);
							const tops = new Set([...rg.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top)));
							if (tops.size > 1) r.Broken.push(m[0]);
						}
					}
				}
				// a table shown as cards: its rows no longer lay their cells side by side
				for (const tb of document.querySelectorAll("main table")) {
					if (!shown(tb)) continue;
					const row = [...tb.querySelectorAll("tbody tr")].find(tr => tr.cells.length > 1);
					if (row && row.cells[0].getBoundingClientRect().top !== row.cells[1].getBoundingClientRect().top)
						r.Stacked.push((tb.id || tb.className) + " (" + tb.querySelectorAll("tbody tr").length + " rows)");
				}
				return r;
			})()`))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s at %d px: %d SVG texts, smallest %.1f px (%q); %d table texts, smallest %.1f px (%q); header %.0f px",
				p.path, width, got.Texts, got.MinText, got.Smallest, got.Cells, got.MinCell, got.Cell, got.Header)
			if got.Texts > 0 && got.MinText < least {
				t.Errorf("%s at %d px: SVG text %q shows at %.2f px, under %d px", p.path, width, got.Smallest, got.MinText, minText)
			}
			for _, pic := range got.Pictures {
				if px := smallestFont(pic.Src) * pic.Scale; px < least {
					t.Errorf("%s at %d px: the picture %s is drawn at %.2f of its size, its smallest text at %.1f px, under %d px", p.path, width, pic.Src, pic.Scale, px, minText)
				} else {
					t.Logf("%s at %d px: the picture %s's smallest text shows at %.1f px", p.path, width, pic.Src, px)
				}
			}
			if got.Cells > 0 && got.MinCell < least {
				t.Errorf("%s at %d px: table text %q shows at %.1f px, under %d px", p.path, width, got.Cell, got.MinCell, minText)
			}
			if len(got.Broken) > 0 {
				t.Errorf("%s at %d px: table headers broken inside a word: %s", p.path, width, strings.Join(got.Broken, ", "))
			}
			if p.name == "celebrity" && len(got.Stacked) > 0 {
				t.Errorf("%s at %d px: tables shown as cards, their rows not comparable: %s", p.path, width, strings.Join(got.Stacked, "; "))
			}
			if got.Header > maxHeader {
				t.Errorf("%s at %d px: the sticky header is %.0f px high, over %d", p.path, width, got.Header, maxHeader)
			}
			if got.PageWide > got.Viewport {
				t.Errorf("%s at %d px: the page is %.0f px wide in a viewport of %.0f", p.path, width, got.PageWide, got.Viewport)
			}
			for name, shot := range map[string]chromedp.Action[[]byte]{
				fmt.Sprintf("phone-%s-%d", p.name, width):        chromedp.FullScreenshot(100), // 100: a PNG
				fmt.Sprintf("phone-%s-figure-%d", p.name, width): chromedp.Screenshot(chromedp.CSS(p.figure)),
			} {
				png, err := chromedp.Run(b.Ctx, shot)
				if err != nil {
					t.Fatalf("screenshot %s: %v", name, err)
				}
				if err := os.WriteFile(filepath.Join(webkit.ScreenshotDir(t), name+".png"), png, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
