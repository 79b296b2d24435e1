package frame

import (
	"fmt"
	"html"
	"slices"
	"strings"
	"testing"

	"twissandra/adapters/cql3"
	"twissandra/internal/testkit/webkit"
)

// The Chebotko diagram says every access pattern whole (wrapped, never cut), gives each a lane
// and a colour of its own so that no two patterns' arrows run together, draws an arrow to every
// table a pattern reads (pulled_authors from Q3 included), lands the arrows into one table
// apart, and names every pattern and table in a title a reader without the picture gets.
func TestChebotkoDiagramLayout(t *testing.T) {
	t.Parallel()
	d := Chebotko(cql3.SchemaText())
	lanes := map[string]string{}
	for _, q := range d.Queries {
		var words []string
		for _, l := range q.Lines {
			words = append(words, l.Text)
			if len([]rune(l.Text)) > ChebQChars {
				t.Errorf("%s: a line of %d characters: %q", q.ID, len([]rune(l.Text)), l.Text)
			}
		}
		if got := strings.Join(words, " "); got != q.ID+" "+strings.Join(strings.Fields(q.What), " ") || strings.Contains(got, "…") {
			t.Errorf("%s reads %q, want its whole words", q.ID, got)
		}
		if q.Y+q.H > d.Height {
			t.Errorf("%s ends below the diagram", q.ID)
		}
	}
	ends := map[string]bool{}
	for _, a := range d.Arrows {
		var x1, y1, lane, y2, x2 int
		if _, err := fmt.Sscanf(a.Path, "M %d %d H %d V %d H %d", &x1, &y1, &lane, &y2, &x2); err != nil {
			t.Fatalf("%s -> %s: path %q: %v", a.Query, a.Table, a.Path, err)
		}
		key := fmt.Sprint(lane)
		if q, ok := lanes[key]; ok && q != a.Query {
			t.Errorf("%s and %s share the lane at x=%d", q, a.Query, lane)
		}
		lanes[key] = a.Query
		end := fmt.Sprint(x2, ",", y2)
		if ends[end] {
			t.Errorf("two arrows end at %s", end)
		}
		ends[end] = true
		tb := d.Table(a.Table)
		if tb == nil || y2 <= tb.Y || y2 >= tb.Y+tb.H || x2 != d.TX-2 {
			t.Errorf("%s -> %s ends at %d,%d, outside the table's left side", a.Query, a.Table, x2, y2)
		}
	}
	if len(lanes) != len(AccessPatterns) {
		t.Errorf("%d lanes for %d access patterns", len(lanes), len(AccessPatterns))
	}
	colours := map[string]bool{}
	for _, q := range d.Queries {
		colours[q.Color] = true
	}
	if len(colours) != len(AccessPatterns) {
		t.Errorf("%d colours for %d access patterns", len(colours), len(AccessPatterns))
	}
	for _, want := range []string{"timeline", "pulled_authors", "friends", "userline"} {
		if !slices.ContainsFunc(d.Arrows, func(a chebArrow) bool { return a.Query == "Q3" && a.Table == want }) {
			t.Errorf("no arrow from Q3 to %s", want)
		}
	}
	// Every table an access pattern names exists in the migrations.
	for _, q := range AccessPatterns {
		for _, name := range q.Tables {
			if d.Table(name) == nil {
				t.Errorf("%s reads %s, which no migration creates", q.ID, name)
			}
		}
	}
	// The tables no pattern reads are the ones the page explains, each with its reason.
	var unread []string
	for _, u := range d.Unread {
		unread = append(unread, u.Name)
		if u.Why != unreadWhy[u.Name] || u.Why == "" {
			t.Errorf("table %s, which no access pattern reads, is not explained", u.Name)
		}
	}
	if len(unread) != len(unreadWhy) {
		t.Errorf("unread tables %v; explained %d", unread, len(unreadWhy))
	}

	var b strings.Builder
	if err := ChebotkoFigure(&d).Render(webkit.BG(), &b); err != nil {
		t.Fatal(err)
	}
	page := html.UnescapeString(b.String())
	webkit.MustContain(t, page, `<svg id="chebotko-diagram" class="diagram" role="img" aria-labelledby="chebotko-title chebotko-desc"`,
		"<title>Q1: a user by username (sign-up, log-in, every user page); reads users</title>",
		"<title>pulled_authors: K line, C↑ username; read by Q3</title>",
		`<ul id="chebotko-text">`, "<code>public_line</code> (K day, C↓ time)")
	for _, q := range AccessPatterns {
		webkit.MustContain(t, page, `<a href="/models#`+q.ID+`">`+q.ID+`</a>, `+q.What+`, reads`)
	}
}

// The application workflow: every access pattern is run by some screen, every move joins two
// screens of the workflow, and a user can start somewhere.
func TestApplicationWorkflow(t *testing.T) {
	t.Parallel()
	steps := map[string]flowStep{}
	run := map[string]bool{}
	for _, s := range appWorkflow {
		steps[s.ID] = s
		for _, q := range s.Queries {
			if !slices.ContainsFunc(AccessPatterns, func(p AccessPattern) bool { return p.ID == q }) {
				t.Errorf("%s runs %s, which is no access pattern", s.ID, q)
			}
			run[q] = true
		}
	}
	for _, q := range AccessPatterns {
		if !run[q.ID] {
			t.Errorf("no screen runs %s", q.ID)
		}
	}
	for _, m := range appMoves {
		if _, ok := steps[m.From]; !ok {
			t.Errorf("move from %s: no such screen", m.From)
		}
		if _, ok := steps[m.To]; !ok {
			t.Errorf("move to %s: no such screen", m.To)
		}
	}
	d := workflow()
	if len(d.Entries) != 3 || len(d.Arrows) != len(appMoves) || len(d.Steps) != len(appWorkflow) {
		t.Errorf("workflow: %d entries, %d moves, %d screens", len(d.Entries), len(d.Arrows), len(d.Steps))
	}
	// Two moves there and back run apart.
	paths := map[string]bool{}
	for _, a := range d.Arrows {
		if paths[a.Path] {
			t.Errorf("two moves on one path %q", a.Path)
		}
		paths[a.Path] = true
	}
}
