package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"twissandra/ports/oplog"
)

// On request, a response carries its whole record of storage operations as JSON: a post's
// record states its fan-out size.
func TestOpsDetailOnRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alice := e.user("alice")
	for _, fan := range []string{"bob", "carol"} {
		tok := e.user(fan)
		if rec := e.do(http.MethodPut, "/api/v1/users/"+fan+"/friends/alice", "", tok); rec.Code != http.StatusNoContent {
			t.Fatalf("follow: %d", rec.Code)
		}
	}
	post := func(detail bool) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/api/v1/tweets", strings.NewReader(`{"body":"hello"}`))
		req.Header.Set("Authorization", "Bearer "+alice)
		req.Header.Set("Content-Type", "application/json")
		if detail {
			req.Header.Set(StorageOpsDetailHeader, "json")
		}
		rec := httptest.NewRecorder()
		e.srv.Engine.ServeHTTP(rec, req)
		if rec.Code != http.StatusCreated {
			t.Fatalf("post: %d", rec.Code)
		}
		return rec
	}
	if h := post(false).Header().Get(StorageOpsDetailHeader); h != "" {
		t.Fatalf("a record nobody asked for: %s", h)
	}
	rec := post(true)
	var r OpsRecord
	if err := json.Unmarshal([]byte(rec.Header().Get(StorageOpsDetailHeader)), &r); err != nil {
		t.Fatal(err)
	}
	// The memory store's own calls (the tweet, the followers' slice, the Append: a store lists
	// the followers as it fans out), then the use case's note of the fan-out; the record is the
	// header's summary in full.
	counts, total := opCounts(t, r.Summary), 0
	for _, n := range counts {
		total += n
	}
	if r.Summary != rec.Header().Get(StorageOpsHeader) || r.Dropped != 0 || len(r.Ops) != total {
		t.Fatalf("record %+v for Storage-Ops %q", r, rec.Header().Get(StorageOpsHeader))
	}
	at := map[string]int{}
	for i, op := range r.Ops {
		at[op.Verb()] = i
	}
	for verb, model := range map[string]string{"save": "memory", "slice": "memory", "append": "memory", "fan-out": ""} {
		if counts[verb] != 1 {
			t.Fatalf("record %q: %s=%d, want 1", r.Summary, verb, counts[verb])
		}
		if op := r.Ops[at[verb]]; op.Model != model {
			t.Errorf("%s (%s) of model %q, want %q", verb, op.Text, op.Model, model)
		}
	}
	if a := r.Ops[at["append"]]; a.Kind != oplog.Write || !strings.Contains(a.Text, "to 5 lines") {
		t.Errorf("the Append: %+v", a)
	}
	if at["fan-out"] < at["append"] {
		t.Errorf("the fan-out note before the Append: %+v", r.Ops)
	}
	if n := r.Ops[at["fan-out"]]; !strings.Contains(n.Text, "the tweet went to 5 lines") || !strings.Contains(n.Text, "2 followers' timelines") ||
		n.Kind != oplog.Note || n.Touched != "5 lines" {
		t.Errorf("the fan-out note: %+v", n)
	}
}

// A record too large for a header keeps its first operations and counts the rest.
func TestOpsDetailIsBounded(t *testing.T) {
	t.Parallel()
	l := oplog.NewLog(false)
	for range oplog.MaxRecordedOps {
		l.Record(oplog.Op{Kind: oplog.Write, Text: "INSERT INTO timeline (username,time,tweet_id) VALUES (?,?,?) -> 0 rows " + strings.Repeat("x", 300)})
	}
	s := l.Shadow("cql3").(*oplog.Log)
	s.Record(oplog.Op{Kind: oplog.Read, Text: "SELECT 1"})
	var r OpsRecord
	line := detailJSON(detailOf(l))
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		t.Fatal(err)
	}
	if len(line) > maxDetailBytes || len(r.Ops) == 0 || len(r.Ops)+r.Dropped != oplog.MaxRecordedOps || r.Secondary == nil || r.Secondary.Model != "cql3" || len(r.Secondary.Ops) != 1 {
		t.Fatalf("%d bytes, %d ops + %d dropped, secondary %+v", len(line), len(r.Ops), r.Dropped, r.Secondary)
	}
}
