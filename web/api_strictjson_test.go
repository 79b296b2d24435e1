package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A JSON body is one object sent as application/json, each key once, nothing after it: anything
// else is refused with a clear 4xx, and nothing is stored.
func TestJSONBodiesAreStrict(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		name, contentType, body string
		status                  int
		slug, says              string
	}{
		{"two username keys", "application/json", `{"username":"mallory","username":"trudy","password":"password1"}`, 400, SlugInvalid, "username: appears twice"},
		{"a key twice, in another case", "application/json", `{"username":"mallory","Username":"trudy","password":"password1"}`, 400, SlugInvalid, "Username: appears twice"},
		{"a key twice, deeper", "application/json", `{"username":"u1","password":"password1","x":{"a":1,"a":2}}`, 400, SlugInvalid, "a: appears twice"},
		{"trailing data", "application/json", `{"username":"mallory","password":"password1"}{"username":"trudy"}`, 400, SlugInvalid, "nothing after it"},
		{"trailing garbage", "application/json", `{"username":"mallory","password":"password1"} x`, 400, SlugInvalid, "nothing after it"},
		{"text/plain", "text/plain", `{"username":"mallory","password":"password1"}`, 415, SlugUnsupportedType, "application/json"},
		{"a form", "application/x-www-form-urlencoded", `{"username":"mallory","password":"password1"}`, 415, SlugUnsupportedType, "application/json"},
		{"no content type", "", `{"username":"mallory","password":"password1"}`, 415, SlugUnsupportedType, "application/json"},
		{"empty", "application/json", ``, 400, SlugInvalid, "must be a JSON object"},
		{"an array", "application/json", `[1,2]`, 400, SlugInvalid, "must be a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/api/v1/users", strings.NewReader(tc.body))
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			rec := httptest.NewRecorder()
			e.srv.Engine.ServeHTTP(rec, req)
			var body ErrorBody
			_ = json.Unmarshal(rec.Body.Bytes(), &body)
			if rec.Code != tc.status || body.Error != tc.slug || !strings.Contains(body.Message, tc.says) {
				t.Fatalf("%d %s", rec.Code, rec.Body)
			}
		})
	}
	for _, name := range []string{"mallory", "trudy"} {
		if rec := e.do(http.MethodGet, "/api/v1/users/"+name, "", ""); rec.Code != http.StatusNotFound {
			t.Errorf("%s was created by a refused body: %d", name, rec.Code)
		}
	}
	// With its parameters the content type is still JSON.
	req := httptest.NewRequest(http.MethodPost, "/api/v1/users", strings.NewReader(`{"username":"grace","password":"password1"}`))
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	rec := httptest.NewRecorder()
	e.srv.Engine.ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated {
		t.Fatalf("application/json; charset=utf-8: %d %s", rec.Code, rec.Body)
	}
}

// strictJSON accepts exactly the single JSON values without a key twice in an object: what it
// accepts is valid JSON, and every valid value it refuses has a key twice.
func FuzzStrictJSON(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"a":1,"a":2}`, `{"a":{"b":[1,{"c":2,"c":3}]}}`, `[]`, `1 2`, `{"a":1}x`, `"s"`, ``, `{"a":[{"a":1},{"a":2}]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := strictJSON([]byte(s))
		if err == nil && !json.Valid([]byte(s)) {
			t.Fatalf("accepted invalid JSON %q", s)
		}
		if err != nil && json.Valid([]byte(s)) && strings.TrimSpace(s) != "" && !strings.Contains(err.Error(), "appears twice") {
			t.Fatalf("refused valid JSON %q: %v", s, err)
		}
	})
}
