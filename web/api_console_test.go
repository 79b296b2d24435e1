package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/ports/oplog"
)

// fakeConsole offers "cli": "set x" writes x in the caller's sandbox, "get" reads it back,
// "busy" is past a bound, anything else is refused. An anonymous caller's sandbox is its
// cookie "fake_browser", made on its first call.
type fakeConsole struct{ sandboxes map[string]string }

func (f *fakeConsole) Session(c *gin.Context) { c.Next() }

func (f *fakeConsole) Learner(c *gin.Context, user string) (string, error) {
	if user != "" {
		return "user:" + user, nil
	}
	id, err := c.Cookie("fake_browser")
	if err != nil {
		id = "b" + string(rune('0'+len(f.sandboxes)))
		c.SetCookie("fake_browser", id, 0, "/", "", false, true)
	}
	return "browser:" + id, nil
}

func (f *fakeConsole) Languages() []string { return []string{"cli"} }

func (f *fakeConsole) Info(_ *gin.Context, learner string) ([]any, error) {
	return []any{map[string]any{"language": "cli", "keyspace": "Sandbox", "allowed": []string{"set", "get"},
		"column_families": []map[string]string{{"name": "Standard1", "type": "Standard", "comparator": "BytesType"}},
		"bounds":          map[string]int{"statements_per_minute": 60, "cluster_statements_per_minute": 6000, "rows": 100, "rows_shown": 100, "statement_bytes": 2048, "idle_ns": 1}}}, nil
}

func (f *fakeConsole) Run(c *gin.Context, learner, lang, stmt string) (ConsoleRun, error) {
	oplog.LogFrom(c.Request.Context()).Record(oplog.Op{Model: "widerow", Kind: oplog.Read, Call: "get_slice", Text: "get_slice Sandbox.Standard1"})
	switch {
	case strings.HasPrefix(stmt, "set "):
		f.sandboxes[learner] = strings.TrimPrefix(stmt, "set ")
		return ConsoleRun{Output: "Value inserted."}, nil
	case stmt == "get":
		return ConsoleRun{Output: "=> " + f.sandboxes[learner]}, nil
	case stmt == "busy":
		return ConsoleRun{}, &domain.RetryError{After: 7_000_000_000, Message: "60 statements a minute: try again in 7 seconds"}
	}
	return ConsoleRun{}, domain.Invalid("", "unknown statement: the console takes set, get")
}

// The console's routes: 404 until the teaching room serves one; GET lists the languages and
// each Info; POST runs a statement in the caller's sandbox (a token's user's, else its cookie's)
// with its operations in Storage-Ops; a refusal is a 400 with the console's message, an unknown
// language a 400 naming the languages offered, a bound a 429 with Retry-After.
func TestConsoleRoutes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if rec := e.do(http.MethodGet, "/api/v1/console", "", ""); rec.Code != http.StatusNotFound {
		t.Fatalf("no console: %d %s", rec.Code, rec.Body)
	}
	f := &fakeConsole{sandboxes: map[string]string{}}
	e.srv.ServeConsole(f)
	rec := e.do(http.MethodGet, "/api/v1/console", "", "")
	var list struct {
		Languages []string
		Consoles  []struct{ Language, Keyspace string }
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &list); rec.Code != http.StatusOK || err != nil || len(list.Languages) != 1 || list.Consoles[0].Keyspace != "Sandbox" {
		t.Fatalf("GET: %d %s", rec.Code, rec.Body)
	}
	tok := e.user("jericevans")
	rec = e.do(http.MethodPost, "/api/v1/console", `{"language":"cli","statement":"set mine"}`, tok)
	if rec.Code != http.StatusOK || rec.Header().Get(StorageOpsHeader) == "" {
		t.Fatalf("set: %d %s, ops %q", rec.Code, rec.Body, rec.Header().Get(StorageOpsHeader))
	}
	if f.sandboxes["user:jericevans"] != "mine" {
		t.Fatalf("the token's sandbox is not the user's: %v", f.sandboxes)
	}
	var out ConsoleRun
	rec = e.do(http.MethodPost, "/api/v1/console", `{"language":"cli","statement":"get"}`, tok)
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil || out.Output != "=> mine" || out.Language != "cli" || out.Sent == nil {
		t.Fatalf("get: %d %s", rec.Code, rec.Body)
	}
	for body, want := range map[string]struct {
		code int
		msg  string
	}{
		`{"language":"cli","statement":"drop"}`:    {400, "unknown statement: the console takes set, get"},
		`{"language":"cql","statement":"SELECT"}`:  {400, `"cql" is not a console language of this server; it offers "cli"`},
		`{"language":"cli","statement":"busy"}`:    {429, "60 statements a minute"},
		`{"language":"cli"}`:                       {400, "statement: is required"},
		`{"language":"cli","statement":"get"} {}`:  {400, ""},
		`{"language":"cli","statement":"get","x"}`: {400, ""},
	} {
		rec := e.do(http.MethodPost, "/api/v1/console", body, "")
		var eb ErrorBody
		_ = json.Unmarshal(rec.Body.Bytes(), &eb)
		if rec.Code != want.code || !strings.Contains(eb.Message, want.msg) {
			t.Errorf("%s: %d %s, want %d %q", body, rec.Code, rec.Body, want.code, want.msg)
		}
		if want.code == 429 && rec.Header().Get("Retry-After") != "7" {
			t.Errorf("%s: Retry-After %q", body, rec.Header().Get("Retry-After"))
		}
	}
	if rec := e.do(http.MethodPost, "/api/v1/console", `{"language":"cli","statement":"get"}`, "not-a-token"); rec.Code != http.StatusUnauthorized {
		t.Errorf("a bad token: %d", rec.Code)
	}
}
