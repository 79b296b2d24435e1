package models_test

import (
	"slices"
	"strings"
	"testing"

	"twissandra/adapters/widerow/engine"
	"twissandra/domain/blog"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/models"
)

// The column family side of the models page's mapping is the running schema and the rows the
// widerow store writes: each comparator is the storage-conf.xml's, and each static column
// family's columns (a super column's subcolumns for Comments) are the ones its rows hold.
func TestMappingIsTheRowsWiderowWrites(t *testing.T) {
	t.Parallel()
	st := webkit.WiderowStores(t)
	app := teachkit.NewApp(t, st)
	c := app.Client(t)
	c.SignUp("rita")
	c.SignUp("sam")
	if err := app.Social.Follow(webkit.BG(), "sam", "rita"); err != nil {
		t.Fatal(err)
	}
	tw, err := app.Social.Post(webkit.BG(), "rita", "hello")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.Blog.Publish(webkit.BG(), blog.Draft{Slug: "scream", Title: "Scream", Body: "b", Author: "arin", Tags: []string{"movies"}, NewAuthor: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Blog.Comment(webkit.BG(), "scream", blog.CommentDraft{Name: "Joe", Text: "no email given"}); err != nil {
		t.Fatal(err)
	}
	if err := st.Claims.Write(webkit.BG(), "racer", "owner-1"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Claims.Release(webkit.BG(), "racer") })
	rita, err := st.Wide.UserRowKey(webkit.BG(), "rita")
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{"Twissandra.User": rita, "Twissandra.Username": "rita", "Twissandra.Tweet": tw.ID.String(),
		"BloggyAppy.BlogEntries": "scream", "BloggyAppy.Comments": "scream", "Scratch.UTF8s": "race:racer"}

	cfs := frame.StorageConfCFs(engine.DefaultSchemaXML)
	for _, m := range models.MappingRows(engine.DefaultSchemaXML, "") {
		cf, ok := cfs[m.Keyspace+"."+m.CF]
		if !ok || m.Comparator == "" || !strings.Contains(m.Comparator, cf.CompareWith) {
			t.Errorf("%s.%s: comparator %q, storage-conf %+v", m.Keyspace, m.CF, m.Comparator, cf)
		}
		if m.Names == nil {
			continue
		}
		key, ok := keys[m.Keyspace+"."+m.CF]
		if !ok {
			t.Errorf("%s.%s: no row to hold its columns to", m.Keyspace, m.CF)
			continue
		}
		cols, err := st.Wide.ReadRow(webkit.BG(), m.Keyspace, m.CF, key, teaching.Slice{Count: 100})
		if err != nil || len(cols) == 0 {
			t.Errorf("%s.%s[%q]: %d columns, %v", m.Keyspace, m.CF, key, len(cols), err)
			continue
		}
		var rows [][]teaching.WideColumn
		if cols[0].Columns != nil { // a super column family: each super column's subcolumns
			for _, sc := range cols {
				rows = append(rows, sc.Columns)
			}
		} else {
			rows = [][]teaching.WideColumn{cols}
		}
		want := slices.Sorted(slices.Values(m.Names))
		for _, row := range rows {
			var got []string
			for _, col := range row {
				got = append(got, strings.Trim(col.Name, `"`))
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("%s.%s[%q] holds the columns %v, the page says %v", m.Keyspace, m.CF, key, got, want)
			}
		}
	}
}
