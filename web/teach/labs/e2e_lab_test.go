package labs_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// labColumnJS reads one comparator's column of the order table, top to bottom.
func labColumnJS(col int) string {
	return fmt.Sprintf(`[...document.querySelectorAll("#lab-order tr")].slice(1).map(r => r.cells[%d] && r.cells[%d].querySelector("code")).filter(c => c).map(c => c.innerText).join(" ")`, col, col)
}

// In Chromium: the learner types the seeds' names, sees them under the six comparators side by
// side (numbers under LongType, text under UTF8Type), slices them reversed under LongType, then
// writes one column twice and deletes it, and sees which write wins in both orders.
// Screenshots lab.png and lab-lww.png.
func TestBrowserComparatorLab(t *testing.T) {
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	b := webkit.NewTab(t, 1280, 900, 60*time.Second)
	b.Do("open", chromedp.Navigate(app.Srv.URL+"/models"), chromedp.Click(chromedp.CSS("#link-lab")), chromedp.WaitVisible(chromedp.CSS("#lab-form")))
	b.Do("insert", chromedp.SetValue(chromedp.CSS("#lab-names"), "976, 3, 832416, 123"),
		chromedp.Click(chromedp.CSS("#lab-submit")), chromedp.WaitVisible(chromedp.CSS("#lab-order")))
	if got := b.Text("#lab-inserted"); !strings.HasPrefix(got, "Inserted 4 names: 976, 3, 832416, 123") {
		t.Errorf("inserted: %q", got)
	}
	heads, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`[...document.querySelectorAll("#lab-order th")].map(c => c.innerText.split("\n")[0]).join("|")`))
	if err != nil || heads != "BytesType|AsciiType|UTF8Type|LongType|LexicalUUIDType|TimeUUIDType" {
		t.Fatalf("the order table's heads: %q, %v", heads, err)
	}
	for col, want := range map[int]string{2: `"123" "3" "832416" "976"`, 3: "3 123 976 832416", 4: ""} {
		got, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](labColumnJS(col)))
		if err != nil || got != want {
			t.Errorf("column %d: %q, %v; want %q", col, got, err, want)
		}
	}
	if got := b.Text("#lab-order"); !strings.Contains(got, "0x00000000000cb3a0") {
		t.Errorf("the order table lacks LongType's bytes:\n%s", got)
	}
	if got := b.Text("#lab-rejected"); !strings.Contains(got, `"3" is not a TimeUUIDType name`) {
		t.Errorf("the refusals lack TimeUUIDType's:\n%s", got)
	}
	if loc, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`location.pathname + location.hash`)); err != nil || loc != "/models/lab#lab-rows" {
		t.Errorf("after the insert the browser is at %q (%v), want the lab's page after its redirect", loc, err)
	}

	b.Do("slice", chromedp.SetValue(chromedp.CSS("#lab-cmp"), "LongType"),
		chromedp.SetValue(chromedp.CSS("#lab-start"), "1000"), chromedp.SetValue(chromedp.CSS("#lab-count"), "3"),
		chromedp.Click(chromedp.CSS("#lab-reversed")), chromedp.Click(chromedp.CSS("#slice-submit")),
		chromedp.WaitVisible(chromedp.CSS("#lab-slice")))
	if got := b.Text("#lab-slice"); got != "Returned 3: 976, 123, 3" {
		t.Errorf("reversed LongType slice from 1000: %q", got)
	}
	if got := b.Text("#lab-call"); !strings.Contains(got, "SliceRange(start=struct.pack('>q', 1000), finish='', reversed=True, count=3)") {
		t.Errorf("the call: %q", got)
	}
	b.Shot("lab")

	b.Do("lww", chromedp.SetValue(chromedp.CSS("#lww-t1"), "200"), chromedp.SetValue(chromedp.CSS("#lww-t2"), "100"),
		chromedp.Click(chromedp.CSS("#lww-submit")), chromedp.WaitVisible(chromedp.CSS("#lww-verdict")))
	// The diagram's accessible name is its title; each timestamp field has a label of its own.
	names, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`(() => {
		const svg = document.querySelector("#lww-diagram");
		const name = svg && document.getElementById(svg.getAttribute("aria-labelledby")).textContent;
		const labels = ["#lww-t1", "#lww-t2", "#lww-tdel"].map(s => document.querySelector(s).labels[0].innerText.trim());
		return [name, ...labels].join("|");
	})()`))
	if err != nil || names != "Last write wins: the writes on a line of timestamps|Write 1: timestamp (µs)|Write 2: timestamp (µs)|The delete: timestamp (µs)" {
		t.Errorf("the diagram's name and the timestamps' labels: %q, %v", names, err)
	}
	if v := b.Text("#lww-verdict"); !strings.HasPrefix(v, `Both replicas read "first": the write with the highest timestamp (200) wins`) {
		t.Errorf("verdict: %q", v)
	}
	b.Do("delete", chromedp.Click(chromedp.CSS("#lww-del")), chromedp.SetValue(chromedp.CSS("#lww-tdel"), "300"), chromedp.Click(chromedp.CSS("#lww-submit")),
		chromedp.WaitVisible(chromedp.Search(`//p[@id="lww-verdict" and contains(., "read nothing")]`)))
	res := b.Text("#lww-results")
	for _, want := range []string{"tombstone", "deleted at 300", "NotFoundException", "remove(key='lab-"} {
		if !strings.Contains(res, want) {
			t.Errorf("after the delete the results lack %q:\n%s", want, res)
		}
	}
	b.Shot("lab-lww")
}
