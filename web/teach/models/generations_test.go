package models_test

import (
	"html"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"twissandra/adapters/cql3"
	cqlteach "twissandra/adapters/cql3/teach"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/web/teach/frame"
)

// The Chebotko diagram is parsed from the migrations; on a real node it must say what the live
// schema says: every table, its partition key, its clustering columns and their order, and
// every other column.
func TestChebotkoMatchesTheLiveSchema(t *testing.T) {
	_, store := webkit.CQL3Stores(t)
	live, err := cqlteach.New(store).InspectTables(webkit.BG())
	if err != nil {
		t.Fatal(err)
	}
	parsed := frame.ParseSchema(cql3.SchemaText())
	// the migrations' own record and their lease (cql3's migrate.go)
	live = slices.DeleteFunc(live, func(t frame.CQLTable) bool { return t.Name == "gocqlx_migrate" || t.Name == "schema_lease" })
	if len(parsed) != len(live) {
		t.Fatalf("%d tables parsed, %d live", len(parsed), len(live))
	}
	for _, lt := range live {
		i := slices.IndexFunc(parsed, func(p frame.ChebTable) bool { return p.Name == lt.Name })
		if i < 0 {
			t.Errorf("table %s is not in the diagram", lt.Name)
			continue
		}
		var want []string
		for _, c := range lt.PartitionKey {
			want = append(want, c.Name+" K")
		}
		for _, c := range lt.Clustering {
			mark := "C↑"
			if c.Desc {
				mark = "C↓"
			}
			want = append(want, c.Name+" "+mark)
		}
		var rest []string
		for _, c := range lt.Static {
			rest = append(rest, c.Name+" S")
		}
		for _, c := range lt.Regular {
			rest = append(rest, c.Name+" ")
		}
		var got, gotRest []string
		for j, c := range parsed[i].Cols {
			if j < len(want) {
				got = append(got, c.Name+" "+c.Mark)
			} else {
				gotRest = append(gotRest, c.Name+" "+c.Mark)
			}
		}
		slices.Sort(rest)
		slices.Sort(gotRest)
		if !slices.Equal(got, want) || !slices.Equal(gotRest, rest) {
			t.Errorf("%s: diagram %v %v, live %v %v", lt.Name, got, gotRest, want, rest)
		}
	}
}

// The generations page: three generations, what this server measured for the last home page
// and post, and the diagram with an arrow from Q3 to timeline.
func TestGenerationsPage(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	c := app.Client(t)
	r := c.Get("/models/generations")
	if r.Status != http.StatusOK {
		t.Fatalf("generations: %d", r.Status)
	}
	webkit.MustContain(t, r.Body, `id="generations"`, "Column families (0.6)", "Query-first CQL3 tables", "No home timeline page has been read",
		`<g class="cheb-table" data-table="timeline">`, `data-query="Q3"`, "C↓", "created_at_us")
	c.SignUp("rita")
	if r := c.Post("/tweets", url.Values{"body": {"measured"}}); r.Status != http.StatusSeeOther {
		t.Fatalf("post: %d", r.Status)
	}
	c.Get("/")
	body := html.UnescapeString(c.Get("/models/generations").Body)
	for _, want := range []string{`The last home timeline page on this server (<span class="whose">yours</span>): <strong>`, "get_slice=", `The last post on this server (<span class="whose">yours</span>): <strong>`, "batch_mutate="} {
		if !strings.Contains(body, want) {
			t.Errorf("the measured costs lack %q", want)
		}
	}
}
