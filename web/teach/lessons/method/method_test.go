package method_test

import (
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"twissandra/adapters/cql3"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
)

// measuredRow is a row of the lesson's table of the formula against the store: the formula's
// values, and the cells the store counted ("" when it counted none).
var measuredRow = regexp.MustCompile(`(?s)<tr id="m-(\w+)-([\w.]+)">.*?data-formula="(\d+)".*?</td>\s*<td data-label="Counted">(.*?)</td>`)

var countedCells = regexp.MustCompile(`data-counted="(\d+)"`)

// measured reads the lesson's table for backend: each container's formula and counted cells.
func measured(t *testing.T, body, backend string) map[string][2]int {
	t.Helper()
	out := map[string][2]int{}
	for _, m := range measuredRow.FindAllStringSubmatch(body, -1) {
		if m[1] != backend {
			continue
		}
		f, _ := strconv.Atoi(m[3])
		c := -1
		if cm := countedCells.FindStringSubmatch(m[4]); cm != nil {
			c, _ = strconv.Atoi(cm[1])
		}
		out[m[2]] = [2]int{f, c}
	}
	return out
}

// get is the lesson at path, which must answer 200.
func get(t *testing.T, c *webkit.Client, path string) string {
	t.Helper()
	r := c.Get(path)
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d\n%s", path, r.Status, r.Body)
	}
	return html.UnescapeString(r.Body)
}

// The lesson on widerow: the conceptual model's entities and the follows relationship read from
// the tables, seed 003's thirteen actions, each table derived, and the public line's departure;
// then the formula fed with each column family's widest row equals the cells the engine counts,
// star's Followers row one cell per fan.
func TestMethodLessonWiderow(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	teachkit.PostMany(t, app, "star", 3, 12)
	body := get(t, app.Client(t), "/learn/method")
	webkit.MustContain(t, body, `id="method-er"`, `id="workflow-diagram"`, ">username</text>", ">tweet_id</text>", "○ since", `id="method-actions"`,
		"Get a tweet from a tweet ID", "Remove friends from a user", `id="departs-public_line"`, `id="added-public_days"`,
		`id="added-pulled_authors"`, `id="matches-userline"`, `id="matches-followers"`)
	// Every table derived is one the migrations create, and the rules give its key but for the
	// public line's.
	derivedTables := regexp.MustCompile(`id="rules-key-(\w+)"`).FindAllStringSubmatch(body, -1)
	if len(derivedTables) < 9 {
		t.Errorf("%d tables derived, want Twissandra's nine", len(derivedTables))
	}
	for _, m := range derivedTables {
		if !strings.Contains(body, `id="running-key-`+m[1]+`"`) {
			t.Errorf("%s: derived, but the migrations have no such table", m[1])
		}
		if m[1] != "public_line" && !strings.Contains(body, `id="matches-`+m[1]+`"`) {
			t.Errorf("%s: the rules' key is not the running table's", m[1])
		}
	}
	if n := strings.Count(body, `<td data-label="Action">`); n != 13 {
		t.Errorf("the seed's actions: %d rows, want seed 003's thirteen", n)
	}
	got := measured(t, body, "widerow")
	if len(got) < 5 {
		t.Fatalf("the formula held against %d column families, want Twissandra's:\n%v", len(got), got)
	}
	for cf, fc := range got {
		if fc[1] < 0 || fc[0] != fc[1] {
			t.Errorf("%s: the formula's %d values, counted %d", cf, fc[0], fc[1])
		}
	}
	if got["Twissandra.Followers"][0] != 3 {
		t.Errorf("star's Followers row: the formula gives %d, want a cell per fan, 3", got["Twissandra.Followers"][0])
	}
	// An unfollow leaves a tombstone: the engine counts it, the formula does not, and the page
	// says which is which.
	if err := app.Social.Unfollow(webkit.BG(), "fan0", "star"); err != nil {
		t.Fatal(err)
	}
	body = get(t, app.Client(t), "/learn/method")
	if fc := measured(t, body, "widerow")["Twissandra.Followers"]; fc[0] != 2 || fc[1] != 3 {
		t.Errorf("after an unfollow: the formula %d, counted %d; want 2 values and 3 cells", fc[0], fc[1])
	}
	webkit.MustContain(t, body, "1 of them a tombstone, which the formula does not count")
}

// On cql3, on the node: each table's widest partition, its rows in the formula, gives the
// values the lesson counts in the partition the node returns; star's followers partition is a
// row per fan and the static count once.
func TestMethodLessonCQL3(t *testing.T) {
	t.Parallel()
	st, _ := webkit.CQL3Stores(t)
	app := teachkit.NewApp(t, st)
	teachkit.PostMany(t, app, "star", 3, 12)
	body := get(t, app.Client(t), "/learn/method")
	got := measured(t, body, "cql3")
	for _, table := range []string{"users", "tweets", "followers", "friends", "userline", "timeline", "public_line", "public_days"} {
		fc, ok := got[table]
		if !ok {
			t.Errorf("no partition of %s held against the formula:\n%v", table, got)
			continue
		}
		if fc[1] < 0 || fc[0] != fc[1] {
			t.Errorf("%s: the formula's %d values, counted %d", table, fc[0], fc[1])
		}
	}
	followers, _ := frame.SchemaTable(cql3.SchemaText(), "followers")
	if want := 3*len(followers.Regular) + len(followers.Static); got["followers"][0] != want {
		t.Errorf("star's followers partition: %d values, want 3 rows of %d values and %d static", got["followers"][0], len(followers.Regular), len(followers.Static))
	}
}

// The form: the figures change the estimates as the formula says (followers: a row per follower,
// its values a row's regular columns each), and a post's rows grow by one per follower; a bad
// figure is a message on the page, never an error page.
func TestMethodLessonForm(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	c := app.Client(t)
	followers, _ := frame.SchemaTable(cql3.SchemaText(), "followers")
	nv := regexp.MustCompile(`<td data-label="Values" id="nv-followers">\s*([\d,]+)`)
	rows := regexp.MustCompile(`<strong id="post-rows">([\d,]+)</strong>`)
	atoi := func(s string) int { n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", "")); return n }
	read := func(f int) (int, int) {
		body := get(t, c, fmt.Sprintf("/learn/method?followers=%d&users=1000", f))
		a, b := nv.FindStringSubmatch(body), rows.FindStringSubmatch(body)
		if a == nil || b == nil {
			t.Fatalf("followers=%d: no estimate of followers or no post rows:\n%s", f, body)
		}
		webkit.MustNotContain(t, body, `id="method-error"`)
		return atoi(a[1]), atoi(b[1])
	}
	nv10, rows10 := read(10)
	nv20, rows20 := read(20)
	if want := 10*len(followers.Regular) + len(followers.Static); nv10 != want {
		t.Errorf("followers at 10 followers: %d values, want %d", nv10, want)
	}
	if nv20-nv10 != 10*len(followers.Regular) {
		t.Errorf("ten more followers add %d values, want %d", nv20-nv10, 10*len(followers.Regular))
	}
	if rows20-rows10 != 10 {
		t.Errorf("a post of an author with ten more followers writes %d more rows, want 10", rows20-rows10)
	}
	// St: a row of followers is its follower's name, since (a timestamp, 8 bytes) and since_us
	// (an int, 4), and each of its two values carries 8 bytes of metadata.
	st := regexp.MustCompile(`id="st-followers" data-bytes="(\d+)"`)
	size := func(f int) int {
		m := st.FindStringSubmatch(get(t, c, fmt.Sprintf("/learn/method?followers=%d&users=1000&name=10", f)))
		if m == nil {
			t.Fatalf("followers=%d: no size of followers", f)
		}
		return atoi(m[1])
	}
	if got, want := size(20)-size(10), 10*(10+8+4+2*8); got != want {
		t.Errorf("ten more followers add %d bytes to a followers partition, want %d", got, want)
	}
	// Above the pull threshold a post writes no follower's timeline: its rows no longer grow
	// with the followers.
	if err := app.Social.SetPullThreshold(5); err != nil {
		t.Fatal(err)
	}
	_, pulled10 := read(10)
	_, pulled20 := read(20)
	if pulled10 != pulled20 || pulled10 >= rows10 {
		t.Errorf("a pulled author's post writes %d rows at 10 followers, %d at 20; pushed, %d at 10", pulled10, pulled20, rows10)
	}
	webkit.MustContain(t, get(t, c, "/learn/method?followers=10"), "every author is pulled")
	for q, want := range map[string]string{
		"followers=abc":                   "Followers per user: “abc” is not a whole number from 0 to 10,000,000",
		"days=0":                          "Days kept: “0” is not a whole number from 1 to 36,500",
		"users=10&followers=10":           "Followers per user: 10 is not fewer than the 10 users",
		"body=" + strings.Repeat("9", 40): "Bytes of a tweet's body: “" + strings.Repeat("9", 19) + "…” is not a whole number",
	} {
		body := get(t, c, "/learn/method?"+q)
		webkit.MustContain(t, body, `id="method-error"`, want, `id="est-followers"`)
	}
}

// Memory holds maps, not cells: the lesson says so rather than hold the formula against them.
func TestMethodLessonMemory(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	teachkit.PostMany(t, app, "star", 2, 3)
	body := get(t, app.Client(t), "/learn/method")
	webkit.MustContain(t, body, `id="measured-why-memory"`, "memory keeps Go maps", "nothing on disk")
	webkit.MustNotContain(t, body, `id="measured-table-memory"`)
}

// Compare mode: widerow's rows counted by the lesson, cql3's partitions put in the formula from
// its scan, and the page says why they are not counted there.
func TestMethodLessonCompare(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.CompareStores(t))
	teachkit.PostMany(t, app, "star", 2, 4)
	body := get(t, app.Client(t), "/learn/method")
	webkit.MustContain(t, body, `id="measured-table-widerow"`, `id="measured-table-cql3"`, `id="measured-why-cql3"`, "--backend cql3")
	if fc := measured(t, body, "cql3")["followers"]; fc[0] == 0 || fc[1] != -1 {
		t.Errorf("cql3's followers in compare mode: the formula %d, counted %d; want a formula and no count", fc[0], fc[1])
	}
	for cf, fc := range measured(t, body, "widerow") {
		if fc[0] != fc[1] {
			t.Errorf("widerow %s: the formula's %d values, counted %d", cf, fc[0], fc[1])
		}
	}
}
