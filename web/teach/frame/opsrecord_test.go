package frame_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"twissandra/adapters/widerow/engine"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/ports/oplog"
	"twissandra/web"
)

// A post on widerow, with the JSON record asked for: each operation carries its model, kind,
// call, column family, keys and time; the fan-out is one batch_mutate of 4 row keys (the
// author's, holding its Userline and Timeline rows, !PUBLIC!, and two followers'), and the note
// says 5 lines. The page
// after the redirect shows the same operations with their kinds and times.
func TestStructuredOpsOfAPost(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	for _, fan := range []string{"fan1", "fan2"} {
		if _, err := app.Social.SignUp(webkit.BG(), fan, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	c := app.Client(t)
	c.SignUp("star")
	for _, fan := range []string{"fan1", "fan2"} {
		if err := app.Social.Follow(webkit.BG(), fan, "star"); err != nil {
			t.Fatal(err)
		}
	}
	form := url.Values{"body": {"structured"}, "csrf_token": {c.CSRF()}}
	req, _ := http.NewRequest(http.MethodPost, app.Srv.URL+"/tweets", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set(web.StorageOpsDetailHeader, "json")
	r := c.Do(req)
	if r.Status != http.StatusSeeOther {
		t.Fatalf("post: %d", r.Status)
	}
	var rec web.OpsRecord
	if err := json.Unmarshal([]byte(r.Header.Get(web.StorageOpsDetailHeader)), &rec); err != nil {
		t.Fatalf("record %q: %v", r.Header.Get(web.StorageOpsDetailHeader), err)
	}
	var batch, note *oplog.Op
	for i, op := range rec.Ops {
		switch {
		case op.Call == "batch_mutate" && strings.Contains(op.Family, "Timeline"):
			batch = &rec.Ops[i]
		case op.Call == "fan-out":
			note = &rec.Ops[i]
		}
		if op.Kind == "" || op.Text == "" {
			t.Errorf("operation without kind or text: %+v", op)
		}
	}
	if batch == nil || note == nil {
		t.Fatalf("no fan-out batch or note in %+v", rec.Ops)
	}
	if batch.Model != "widerow" || batch.Kind != oplog.Write || batch.KeyCount != 4 || len(batch.Keys) != 4 || batch.Took <= 0 ||
		batch.Family != "Twissandra (Timeline: 3 rows, Userline: 2 rows)" || batch.Consistency != "QUORUM" || batch.Coordinator != "" {
		t.Errorf("the fan-out's batch: %+v", *batch)
	}
	for i, k := range batch.Keys {
		if raw := strings.TrimSuffix(strings.TrimPrefix(k, "['"), "']"); len(batch.Tokens) != len(batch.Keys) || batch.Tokens[i] != engine.RandomPartitioner.Token(raw) {
			t.Errorf("the batch's keys %q, tokens %q: want each key's RandomPartitioner token", batch.Keys, batch.Tokens)
			break
		}
	}
	if note.Kind != oplog.Note || note.Touched != "5 lines" || note.Consistency != "" {
		t.Errorf("the fan-out's note: %+v", *note)
	}
	page := c.Get("/").Body
	webkit.MustContain(t, page, `What your post cost`, `<li class="op op-write"><code>batch_mutate Twissandra 4 keys, 5 rows (Timeline: 3 rows, Userline: 2 rows)`,
		`<span class="op-meta">write · <span class="op-cl">CL QUORUM</span> · `, " µs</span>",
		// a call of one row names its key's token
		`<span class="op-cl">CL QUORUM</span> · <span class="op-token">token `)
}
