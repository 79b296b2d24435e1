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
	var r OpsRecord
	if err := json.Unmarshal([]byte(post(true).Header().Get(StorageOpsDetailHeader)), &r); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Summary, "1 ops: fan-out:=1") || len(r.Ops) != 1 ||
		!strings.Contains(r.Ops[0].Text, "the tweet went to 5 lines") || !strings.Contains(r.Ops[0].Text, "2 followers' timelines") ||
		r.Ops[0].Kind != oplog.Note || r.Ops[0].Touched != "5 lines" {
		t.Fatalf("record: %+v", r)
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
