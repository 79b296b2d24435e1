package models_test

import (
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	memteach "twissandra/adapters/memory/teach"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// widestRow is a row of the page's table of the widest rows: its container, key (as linked),
// link and size cell.
type widestRow struct{ container, key, link, size string }

var widestRowRE = regexp.MustCompile(`(?s)<td data-label="Container">([^<]*)</td>\s*<td data-label="Key">(?:<a href="([^"]*)">)?([^<]*)(?:</a>)?.*?</td>\s*<td data-label="Size">([^<]*)`)

func widestRows(t *testing.T, body string) []widestRow {
	t.Helper()
	_, table, ok := strings.Cut(body, `id="widest-rows"`)
	if !ok {
		t.Fatalf("no table of the widest rows:\n%s", body)
	}
	table, _, _ = strings.Cut(table, "</table>")
	var out []widestRow
	for _, m := range widestRowRE.FindAllStringSubmatch(table, -1) {
		out = append(out, widestRow{container: m[1], link: html.UnescapeString(m[2]), key: html.UnescapeString(m[3]), size: strings.TrimSpace(m[4])})
	}
	return out
}

// The partition lessons on widerow and memory: the public line is one row holding every post,
// the widest of the store, and the widest rows are listed widest first, linked to the
// inspector on widerow.
func TestPartitionsPage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		st     func(t *testing.T) webkit.Stores
		public widestRow
		wants  []string
	}{
		{"widerow", func(t *testing.T) webkit.Stores { return webkit.WiderowStores(t) },
			widestRow{"Twissandra.Userline", "!PUBLIC!", "/models/inspect?cf_path=Twissandra.Userline&key=%21PUBLIC%21", "15"}, []string{
				`the public line is one row, <code>Twissandra.Userline[!PUBLIC!]</code>, holding <strong id="public-count">15</strong> columns`,
				"Every post writes one more", `the <a href="/learn/glossary#hot-partition">hot partition</a>`, "(@star)", "The widest rows", "at most 10000 of each column family"}},
		{"memory", func(t *testing.T) webkit.Stores { return webkit.MemoryStores() },
			widestRow{"lines", "public", "", "15"}, []string{
				`<strong id="public-count">15</strong> entries`, "The widest rows", "at most 10000 of each map"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			app := teachkit.NewApp(t, tc.st(t))
			teachkit.PostMany(t, app, "star", 3, 12)
			if _, err := app.Social.SignUp(webkit.BG(), "quiet", "password1"); err != nil {
				t.Fatal(err)
			}
			for i := range 3 {
				if _, err := app.Social.Post(webkit.BG(), "quiet", fmt.Sprintf("a quiet post %d", i)); err != nil {
					t.Fatal(err)
				}
			}
			c := app.Client(t)
			r := c.Get("/models/partitions")
			if r.Status != http.StatusOK {
				t.Fatalf("partitions: %d\n%s", r.Status, r.Body)
			}
			webkit.MustContain(t, r.Body, tc.wants...)
			if strings.Contains(r.Body, `id="widest-capped"`) {
				t.Error("a scan of a small store says it was capped")
			}
			rows := widestRows(t, r.Body)
			if len(rows) < 5 || rows[0] != tc.public {
				t.Fatalf("widest rows %+v, want the public line first: %+v", rows, tc.public)
			}
			// Then the 12-post lines: star's userline and timeline, and the fans' timelines.
			for i, row := range rows[1:6] {
				if row.size != "12" {
					t.Errorf("row %d: %+v, want 12 entries", i+1, row)
				}
			}
			if tc.public.link != "" {
				for _, row := range rows {
					if row.link == "" {
						t.Errorf("no link to the inspector: %+v", row)
					}
				}
				in := c.Get(tc.public.link)
				if in.Status != http.StatusOK || !strings.Contains(in.Body, "&#34;!PUBLIC!&#34;") || strings.Count(in.Body, `href="/models/where?tweet=`) != 15 {
					t.Errorf("the inspector on %s: %d\n%s", tc.public.link, in.Status, in.Body)
				}
			}
			r = c.Get("/models/partitions?limit=2")
			if rows := widestRows(t, r.Body); r.Status != http.StatusOK || len(rows) != 2 || rows[0] != tc.public {
				t.Errorf("limit=2: %d, %+v", r.Status, rows)
			}
		})
	}
}

// A limit the page cannot use is a readable 400; a store that cannot measure, or a scan that
// hits its bound, says so.
func TestPartitionsPageBadInputAndBounds(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	teachkit.PostMany(t, app, "star", 2, 4)
	c := app.Client(t)
	for _, bad := range []string{"0", "-3", "201", "ten", "1e3", ""} {
		r := c.Get("/models/partitions?limit=" + bad)
		if r.Status != http.StatusBadRequest {
			t.Errorf("limit=%q: %d, want 400", bad, r.Status)
		}
		webkit.MustContain(t, html.UnescapeString(r.Body), `id="partitions-error"`, fmt.Sprintf("limit %q: list from 1 to 200", bad))
	}

	st := webkit.MemoryStores()
	st.Sizes = nil
	r := teachkit.NewApp(t, st).Client(t).Get("/models/partitions")
	if r.Status != http.StatusOK {
		t.Errorf("no sizer: %d", r.Status)
	}
	webkit.MustContain(t, r.Body, `id="partitions-unavailable"`, "unavailable")

	st = webkit.MemoryStores()
	st.Sizes = st.Locator.(memteach.Locator).ScanCapped(3)
	app = teachkit.NewApp(t, st)
	teachkit.PostMany(t, app, "star", 2, 4)
	r = app.Client(t).Get("/models/partitions")
	webkit.MustContain(t, r.Body, `id="widest-capped"`, "Scanned the first 3 entries of lines only", "at most 3 of each map")
	for _, row := range widestRows(t, r.Body) {
		if n, err := strconv.Atoi(row.size); err != nil || n > 3 {
			t.Errorf("%+v holds more than the bound", row)
		}
	}
}

// The partition lessons on a real node: today's public_line bucket counts every post and
// links to the CQL inspector on that partition, the widest partitions come widest first with
// their keys linked, and a bad limit is a 400 here too.
func TestPartitionsPageOnNode(t *testing.T) {
	st, store := webkit.CQL3Stores(t)
	app := teachkit.NewApp(t, st)
	teachkit.PostMany(t, app, "star", 4, 6)
	c := app.Client(t)
	r := c.Get("/models/partitions")
	if r.Status != http.StatusOK {
		t.Fatalf("partitions: %d\n%s", r.Status, r.Body)
	}
	today := time.Now().UTC().Format(time.DateOnly)
	bucket := "/models/inspect?key=" + today + "&table=public_line"
	webkit.MustContain(t, html.UnescapeString(r.Body), "one partition of <code>public_line</code> per day", "6 posts in the last 1 day",
		`<a href="`+bucket+`">`+today+`</a></td><td>6</td>`, `<meter min="0" max="6" value="6"`, "at most 10000 of each table")
	// The footer lists each page of each table's SELECT, with the rows it read: they add up to
	// the figure of the pass.
	pass := regexp.MustCompile(`One bounded pass read (\d+) `).FindStringSubmatch(r.Body)
	read, selects := 0, regexp.MustCompile(`<code>SELECT \* FROM [^ ]+ -&gt; (\d+) rows?`).FindAllStringSubmatch(r.Body, -1)
	for _, s := range selects {
		n, _ := strconv.Atoi(s[1])
		read += n
	}
	if pass == nil || len(selects) < 8 || strconv.Itoa(read) != pass[1] {
		t.Errorf("the footer's SELECTs read %d rows in %d pages; the page says %v", read, len(selects), pass)
	}
	rows := widestRows(t, r.Body)
	if len(rows) < 8 {
		t.Fatalf("widest partitions: %+v", rows)
	}
	// The six-post partitions: today's bucket, star's userline and timeline, and 4 fans' timelines.
	sixes := 0
	for i, row := range rows {
		if !strings.HasPrefix(row.container, store.Keyspace()+".") || row.link == "" {
			t.Errorf("row %d: %+v, want a table of %s linked to the inspector", i, row, store.Keyspace())
		}
		if row.size == "6" {
			sixes++
		}
	}
	if sixes != 7 || rows[0].size != "6" || rows[7].size != "4" { // then star's 4 followers
		t.Errorf("widest partitions %+v, want seven of 6 rows then 4", rows)
	}
	in := c.Get(bucket)
	if in.Status != http.StatusOK || strings.Count(in.Body, "post ") < 6 {
		t.Errorf("the inspector on today's bucket: %d\n%s", in.Status, in.Body)
	}
	if r := c.Get("/models/partitions?limit=1000"); r.Status != http.StatusBadRequest {
		t.Errorf("limit=1000: %d, want 400", r.Status)
	}
}

// On widerow an unfollow leaves tombstones: the row stays as wide until a compaction, and the
// page says how many of its columns are tombstones.
func TestPartitionsPageTombstones(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	teachkit.PostMany(t, app, "star", 2, 4)
	if err := app.Social.Unfollow(webkit.BG(), "fan0", "star"); err != nil {
		t.Fatal(err)
	}
	r := app.Client(t).Get("/models/partitions")
	body := html.UnescapeString(r.Body)
	// fan0's timeline: the 4 entries removed by the unfollow, now 4 tombstones.
	row := regexp.MustCompile(`(?s)<td data-label="Container">Twissandra.Timeline</td>\s*<td data-label="Key"><a[^>]*>[^<]*</a> <span class="muted">\(@fan0\)</span></td>\s*<td data-label="Size">([^<]*)<span class="muted">\(([^)]*)\)`).FindStringSubmatch(body)
	if r.Status != http.StatusOK || row == nil || strings.TrimSpace(row[1]) != "4" || row[2] != "4 tombstones" {
		t.Fatalf("fan0's timeline after the unfollow: %q\n%s", row, body)
	}
	// star's Followers row: fan1, and fan0's tombstone.
	if !regexp.MustCompile(`\(@star\)</span></td>\s*<td data-label="Size">2 <span class="muted">\(1 tombstone\)</span>`).MatchString(body) {
		t.Fatalf("star's Followers row after the unfollow:\n%s", body)
	}
}

// The page's footer counts what measuring the store read: a scan line per column family or
// map, with its rows and cells, whose cells add up to the figure the page states (not "2 ops"
// for a pass over every stored cell).
func TestPartitionsFooterCountsTheScan(t *testing.T) {
	t.Parallel()
	scanLine := regexp.MustCompile(`<code>scan ([^ ]+) [^<]*-&gt; (\d+) rows, (\d+) (?:cells|entries)`)
	for _, tc := range []struct {
		name  string
		st    func(t *testing.T) webkit.Stores
		scans int
	}{
		{"widerow", func(t *testing.T) webkit.Stores { return webkit.WiderowStores(t) }, 11}, // sizedCFs: Twissandra's seven, BloggyAppy's four
		{"memory", func(t *testing.T) webkit.Stores { return webkit.MemoryStores() }, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			app := teachkit.NewApp(t, tc.st(t))
			teachkit.PostMany(t, app, "star", 3, 12)
			r := app.Client(t).Get("/models/partitions")
			if h := r.Header.Get("Storage-Ops"); !strings.Contains(h, fmt.Sprintf(" scan=%d", tc.scans)) {
				t.Fatalf("Storage-Ops: %q", h)
			}
			m := regexp.MustCompile(`One bounded pass read (\d+) `).FindStringSubmatch(r.Body)
			if m == nil {
				t.Fatalf("no figure of the pass:\n%s", r.Body)
			}
			sum, lines := 0, scanLine.FindAllStringSubmatch(r.Body, -1)
			for _, l := range lines {
				n, _ := strconv.Atoi(l[3])
				sum += n
			}
			if len(lines) != tc.scans || strconv.Itoa(sum) != m[1] || sum == 0 {
				t.Fatalf("%d scan lines reading %d cells in all; the page says %s", len(lines), sum, m[1])
			}
		})
	}
}
