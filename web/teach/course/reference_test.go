package course_test

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"twissandra/domain/social"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/course"
	"twissandra/web/teach/frame"
)

// The glossary has an entry, with its anchor, for every word the course's pages agree to link
// (the ids are fixed so that pages written apart agree), in alphabetical order.
func TestGlossaryTerms(t *testing.T) {
	t.Parallel()
	ids := map[string]bool{}
	for i, g := range course.Glossary {
		if ids[g.ID] {
			t.Errorf("%s twice", g.ID)
		}
		ids[g.ID] = true
		if !regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`).MatchString(g.ID) || g.Def == "" {
			t.Errorf("entry %q: an id of lower-case words joined by hyphens, and a definition", g.ID)
		}
		if i > 0 && strings.ToLower(course.Glossary[i-1].Term) > strings.ToLower(g.Term) {
			t.Errorf("%q after %q: not in alphabetical order", g.Term, course.Glossary[i-1].Term)
		}
	}
	for _, id := range []string{"pebble-batch", "append", "paxos", "token-aware", "gcgraceseconds", "reversedtype", "compact-storage",
		"row-marker", "keyspace", "column-family", "super-column", "tombstone", "comparator", "timeuuid", "lightweight-transaction",
		"partition-key", "clustering-column", "static-column", "fan-out", "row-cache", "consistency-level"} {
		if !ids[id] {
			t.Errorf("the glossary has no entry %q", id)
		}
	}
}

// /learn links the glossary, the timeline and the departures; each page is there, the
// timeline with every release the course names, the departures with the code's figures.
func TestReferencePages(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	learn := c.Get("/learn")
	webkit.MustContain(t, learn.Body, `<a href="/learn/glossary" id="link-glossary">`, `<a href="/learn/timeline" id="link-timeline">`,
		`<a href="/learn/departures" id="link-departures">`)
	g := c.Get("/learn/glossary")
	if g.Status != http.StatusOK {
		t.Fatalf("glossary: %d", g.Status)
	}
	for _, term := range course.Glossary {
		webkit.MustContain(t, g.Body, `<dt id="`+term.ID+`">`)
	}
	tl := c.Get("/learn/timeline")
	for _, v := range []string{"0.6", "0.7", "0.8", "1.2", "2.0", "3.0", "5.0"} {
		webkit.MustContain(t, tl.Body, `<li id="v`+strings.ReplaceAll(v, ".", "-")+`"><h2>Cassandra `+v+` `)
	}
	webkit.MustContain(t, html.UnescapeString(tl.Body), "TTL", "Secondary indexes", "Counter columns", "CQL", "composite cells",
		"Lightweight transactions", "A new storage engine", "Storage-attached indexes")
	d := c.Get("/learn/departures")
	webkit.MustContain(t, d.Body, `<strong id="backfill-size">`+strconv.Itoa(social.BackfillSize)+`</strong>`,
		`<strong id="bcrypt-cost">`+strconv.Itoa(bcrypt.MinCost)+`</strong>`, // the test app's hasher
		`<strong id="pull-threshold">0</strong>`, `id="unfollow"`, `id="insert-if-absent"`, `id="followers-count"`, `id="bcrypt"`,
		"the widerow emulation follows <strong>0.6.6</strong>", "0.6.0 to 0.6.3 ordered UTF8Type names by their UTF-16 code units")
}

var hrefRE = regexp.MustCompile(`href="(/[^"]*)"`)

// Every link to the glossary, from any page a learner can reach from /learn (the lessons, the
// teaching views, the product's pages), lands on an entry that exists.
func TestGlossaryLinksLand(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	c.SignUp("rita")
	if _, err := app.Social.Post(webkit.BG(), "rita", "a tweet to link from"); err != nil {
		t.Fatal(err)
	}
	entries := map[string]bool{}
	for _, m := range regexp.MustCompile(`<dt id="([^"]+)">`).FindAllStringSubmatch(c.Get("/learn/glossary").Body, -1) {
		entries[m[1]] = true
	}
	seen := map[string]bool{"/learn": true}
	queue := []string{"/learn", "/models", "/models/generations", "/models/celebrity", "/models/partitions", "/models/inspect",
		"/models/lab", "/models/race", "/"}
	links := map[string][]string{} // glossary id -> pages linking it
	for len(queue) > 0 && len(seen) < 400 {
		path := queue[0]
		queue = queue[1:]
		r := c.Get(path)
		if r.Status >= 500 {
			t.Errorf("%s: %d", path, r.Status)
			continue
		}
		for _, m := range hrefRE.FindAllStringSubmatch(r.Body, -1) {
			href := html.UnescapeString(m[1])
			u, err := url.Parse(href)
			if err != nil {
				continue
			}
			if u.Path == "/learn/glossary" && u.Fragment != "" {
				links[u.Fragment] = append(links[u.Fragment], path)
			}
			p := u.Path
			if u.RawQuery != "" {
				p += "?" + u.RawQuery
			}
			// Follow the course and the teaching views, not every tweet and user.
			if !seen[p] && (strings.HasPrefix(p, "/learn") || strings.HasPrefix(p, "/models")) && !strings.Contains(p, "/static/") {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	if len(links) < 10 {
		t.Errorf("only %d glossary entries are linked from the pages: %v", len(links), links)
	}
	for id, from := range links {
		if !entries[id] {
			slices.Sort(from)
			t.Errorf("glossary#%s is linked from %v, but the glossary has no such entry", id, slices.Compact(from))
		}
	}
}

// A lesson a reference links to is named by its place in the course, read from the course: every
// such link's words hold that lesson's number and no placeholder, and lead to the lesson.
func TestReferenceLinksNumberLessonsFromTheCourse(t *testing.T) {
	teachkit.NewApp(t, webkit.MemoryStores()) // publishes the course, whose numbers the links read
	n := 0
	check := func(where string, links []course.SeeAlso) {
		for _, l := range links {
			if l.Lesson == "" {
				continue
			}
			n++
			text := l.Text()
			if want := strconv.Itoa(frame.LessonNumber(l.Lesson)); !strings.Contains(text, want) || strings.ContainsAny(text, "{}") {
				t.Errorf("%s: link to %s reads %q, want its number %s and no placeholder", where, l.Lesson, text, want)
			}
			if l.URL != frame.LessonURL(l.Lesson) {
				t.Errorf("%s: link to %s leads to %s", where, l.Lesson, l.URL)
			}
		}
	}
	for _, g := range course.Glossary {
		check(g.ID, g.See)
	}
	for _, v := range course.Versions {
		check(v.ID, v.Here)
	}
	if n == 0 {
		t.Fatal("no reference links to a lesson")
	}
	if got := course.LessonSee("time", "TTL: lesson {time}, and {primer}").Text(); got != "TTL: lesson "+strconv.Itoa(frame.LessonNumber("time"))+", and "+strconv.Itoa(frame.LessonNumber("primer")) {
		t.Errorf("a label naming two lessons reads %q", got)
	}
}
