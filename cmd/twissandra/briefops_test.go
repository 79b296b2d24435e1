package main

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"twissandra/web"
)

// An API response counts its storage operations in the Storage-Ops header without describing
// them (the storages record brief operations), and describes them all when asked with
// Storage-Ops-Detail: json. The counts are the same either way, on every embedded backend.
func TestAPIOpsCountedBrieflyDescribedOnRequest(t *testing.T) {
	for _, backend := range []string{"widerow", "memory"} {
		t.Run(backend, func(t *testing.T) {
			env := newAPIPageEnv(t, backend)
			calls := []struct{ method, path, body string }{
				{"GET", "/api/v1/timeline?limit=40", ""},
				{"GET", "/api/v1/public?limit=40&start=" + env.next, ""},
				{"GET", "/api/v1/users/author1/tweets?limit=5", ""},
				{"POST", "/api/v1/tweets", `{"body":"counted, then described"}`},
				{"PUT", "/api/v1/users/reader/friends/author1", ""},
			}
			for _, c := range calls {
				serve := func(detail bool) *httptest.ResponseRecorder {
					req := httptest.NewRequest(c.method, c.path, strings.NewReader(c.body))
					req.Header.Set("Authorization", "Bearer "+env.token)
					req.Header.Set("Content-Type", "application/json")
					if detail {
						req.Header.Set(web.StorageOpsDetailHeader, "json")
					}
					rec := httptest.NewRecorder()
					env.h.ServeHTTP(rec, req)
					if rec.Code/100 != 2 {
						t.Fatalf("%s %s: %d %s", c.method, c.path, rec.Code, rec.Body)
					}
					return rec
				}
				// A post makes a new tweet each time: the two posts cost the same, once the first
				// has warmed what the store remembers (widerow counts an author's followers once).
				serve(false)
				brief, full := serve(false), serve(true)
				assertSameCounts(t, c.path, brief, full)
			}
		})
	}
}

func assertSameCounts(t *testing.T, path string, brief, full *httptest.ResponseRecorder) {
	t.Helper()
	b, f := brief.Header().Get(web.StorageOpsHeader), full.Header().Get(web.StorageOpsHeader)
	if b == "" || b != f {
		t.Fatalf("%s: Storage-Ops %q without detail, %q with", path, b, f)
	}
	if brief.Header().Get(web.StorageOpsDetailHeader) != "" {
		t.Fatalf("%s: a record sent unasked", path)
	}
	var rec web.OpsRecord
	if err := json.Unmarshal([]byte(full.Header().Get(web.StorageOpsDetailHeader)), &rec); err != nil {
		t.Fatalf("%s: detail: %v", path, err)
	}
	if rec.Summary != f || len(rec.Ops) == 0 {
		t.Fatalf("%s: detail %+v for %q", path, rec, f)
	}
	for _, op := range rec.Ops {
		if op.Text == "" || op.Call == "" {
			t.Fatalf("%s: an operation asked for in full came brief: %+v", path, op)
		}
	}
}
