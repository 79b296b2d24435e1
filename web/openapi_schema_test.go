package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"twissandra/web/openapi"
)

// apiDoc is the OpenAPI document as a validator of OpenAPI 3 (kin-openapi) reads it: each
// response of the API is held to the schema the document declares for its path, method and
// status.
//
// The document names every field of every object it describes and says additionalProperties
// only of the free-form maps (an author's profile), so the check reads the fields of an object
// that says nothing as closed: a field the server sends that the document lacks fails, as a
// required one missing does.
type apiDoc struct {
	doc    *openapi3.T
	router routers.Router
	opts   *openapi3filter.Options
	errs   *openapi3.Schema // the Error schema, for the answers to what no operation is

	mu   sync.Mutex
	seen map[string]map[string]bool // "METHOD /path/{param}" -> the statuses it answered, "default" for an error
}

var (
	apiDocOnce sync.Once
	apiDocErr  error
	apiDocT    *openapi3.T
)

func loadAPIDoc(t testing.TB) *apiDoc {
	t.Helper()
	return loadAPIDocFrom(t, openapi.Document)
}

// loadAPIDocFrom reads, validates and closes a document (openapi.Document, or a changed copy).
func loadAPIDocFrom(t testing.TB, data []byte) *apiDoc {
	t.Helper()
	var doc *openapi3.T
	if bytes.Equal(data, openapi.Document) {
		// Read once: the router and the schemas are only read after this.
		apiDocOnce.Do(func() { apiDocT, apiDocErr = readAPIDoc(data) })
		doc = apiDocT
		if apiDocErr != nil {
			t.Fatal(apiDocErr)
		}
	} else {
		var err error
		if doc, err = readAPIDoc(data); err != nil {
			t.Fatal(err)
		}
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	errRef := doc.Components.Schemas["Error"]
	if errRef == nil || errRef.Value == nil {
		t.Fatal("the document has no Error schema")
	}
	return &apiDoc{
		doc:    doc,
		router: router,
		errs:   errRef.Value,
		seen:   map[string]map[string]bool{},
		opts: &openapi3filter.Options{
			IncludeResponseStatus: true, // a status neither listed nor covered by default fails
			MultiError:            true,
			AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
			SchemaValidationOptions: []openapi3.SchemaValidationOption{
				// The failing body is in the test's message; the schema would be pages of it.
				openapi3.DisableSchemaErrorDetails(),
				openapi3.WithStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC4122)),
			},
		},
	}
}

func readAPIDoc(data []byte) (*openapi3.T, error) {
	doc, err := openapi3.NewLoader().LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("the OpenAPI document: %w", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("the OpenAPI document is not valid OpenAPI 3: %w", err)
	}
	closed := map[*openapi3.Schema]bool{}
	for _, s := range doc.Components.Schemas {
		closeObjects(s, closed)
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, r := range op.Responses.Map() {
				for _, c := range r.Value.Content {
					closeObjects(c.Schema, closed)
				}
			}
		}
	}
	return doc, nil
}

// closeObjects makes every object schema under ref that lists its properties and says nothing
// of others refuse others (additionalProperties: false).
func closeObjects(ref *openapi3.SchemaRef, done map[*openapi3.Schema]bool) {
	if ref == nil || ref.Value == nil || done[ref.Value] {
		return
	}
	s := ref.Value
	done[s] = true
	if len(s.Properties) > 0 && s.AdditionalProperties.Has == nil && s.AdditionalProperties.Schema == nil {
		s.AdditionalProperties.Has = openapi3.Ptr(false)
	}
	for _, p := range s.Properties {
		closeObjects(p, done)
	}
	closeObjects(s.Items, done)
	closeObjects(s.AdditionalProperties.Schema, done)
	for _, l := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
		for _, x := range l {
			closeObjects(x, done)
		}
	}
}

// operations lists every documented "METHOD /path/{param}", sorted.
func (d *apiDoc) operations() []string {
	var out []string
	for path, item := range d.doc.Paths.Map() {
		for method := range item.Operations() {
			out = append(out, method+" "+path)
		}
	}
	slices.Sort(out)
	return out
}

// check holds one response to the document: the operation its request names, its status (one
// the operation lists, or an error under its default), its Content-Type and its body's schema;
// a status whose response the document gives no content has no body. A request that names no
// operation (no such path, or a method the path has not) must be answered with an Error. It
// returns the operation, "" for none.
func (d *apiDoc) check(req *http.Request, status int, header http.Header, body []byte) (string, error) {
	route, params, err := d.router.FindRoute(req)
	if err != nil {
		var rerr *routers.RouteError
		if !errors.As(err, &rerr) || (status != http.StatusNotFound && status != http.StatusMethodNotAllowed) {
			return "", fmt.Errorf("%s %s: %d for no documented operation (%v)", req.Method, req.URL.Path, status, err)
		}
		return "", d.checkError(req, status, header, body)
	}
	op := req.Method + " " + route.Path
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: d.opts},
		Status:                 status,
		Header:                 header,
		Options:                d.opts,
	}
	in.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		return op, fmt.Errorf("%s %d: %w", op, status, err)
	}
	documented := strconv.Itoa(status)
	r := route.Operation.Responses.Status(status)
	if r == nil {
		documented, r = "default", route.Operation.Responses.Default()
	}
	if documented == "default" && status < 400 {
		return op, fmt.Errorf("%s %d: a status the operation does not list, and no error", op, status)
	}
	if len(r.Value.Content) == 0 && (len(body) != 0 || header.Get("Content-Type") != "") {
		return op, fmt.Errorf("%s %d: no content documented, got %q (%s)", op, status, header.Get("Content-Type"), body)
	}
	if len(r.Value.Content) != 0 {
		// The validator reads the first JSON value: the body must be that and nothing more.
		if _, err := decodeJSON(body); err != nil {
			return op, fmt.Errorf("%s %d: %w", op, status, err)
		}
	}
	d.mu.Lock()
	if d.seen[op] == nil {
		d.seen[op] = map[string]bool{}
	}
	d.seen[op][documented] = true
	d.mu.Unlock()
	return op, nil
}

// checkError holds an answer to what no operation is to the document's Error.
func (d *apiDoc) checkError(req *http.Request, status int, header http.Header, body []byte) error {
	if ct := header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return fmt.Errorf("%s %s %d: Content-Type %q, want application/json", req.Method, req.URL.Path, status, ct)
	}
	v, err := decodeJSON(body)
	if err != nil {
		return fmt.Errorf("%s %s %d: %w", req.Method, req.URL.Path, status, err)
	}
	if err := d.errs.VisitJSON(v, openapi3.VisitAsResponse()); err != nil {
		return fmt.Errorf("%s %s %d: not an Error: %w", req.Method, req.URL.Path, status, err)
	}
	return nil
}

func decodeJSON(body []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("body is not JSON: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("body is more than one JSON value")
	}
	return v, nil
}

// serve sends req through the server and holds the answer to the document.
func (d *apiDoc) serve(t testing.TB, e *testEnv, req *http.Request) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	e.srv.Engine.ServeHTTP(rec, req)
	if _, err := d.check(req, rec.Code, rec.Header(), rec.Body.Bytes()); err != nil {
		t.Errorf("%v (body %s)", err, rec.Body)
	}
	return rec
}

// covered fails t for every documented operation the walk never called, for every status an
// operation lists that it never answered, and for every operation that never answered an
// error, except those that cannot fail.
func (d *apiDoc) covered(t testing.TB, cannotFail ...string) {
	t.Helper()
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, op := range d.operations() {
		method, path, _ := strings.Cut(op, " ")
		for code := range d.doc.Paths.Value(path).GetOperation(method).Responses.Map() {
			if code == "default" && slices.Contains(cannotFail, op) {
				continue
			}
			if !d.seen[op][code] {
				t.Errorf("%s never answered %s", op, code)
			}
		}
	}
	for _, op := range cannotFail {
		if d.seen[op]["default"] {
			t.Errorf("%s is listed as never failing, and failed", op)
		}
	}
}

// The validator refuses what it should, so that the walk means something: each case is a
// response the server might wrongly send, beside one it rightly sends.
func TestOpenAPIValidatorRefuses(t *testing.T) {
	t.Parallel()
	doc := loadAPIDoc(t)
	const (
		user  = `{"username":"bob","created_at":"2010-03-01T12:00:00.000000Z"}`
		tweet = `{"id":"6ba7b810-9dad-11d1-80b4-00c04fd430c8","username":"bob","body":"b","created_at":"2010-03-01T12:00:00.000000Z"}`
		json  = "application/json; charset=utf-8"
	)
	for _, c := range []struct {
		method, path string
		status       int
		contentType  string
		body         string
		ok           bool
	}{
		{"GET", "/api/v1/users/bob", 200, json, user, true},
		{"GET", "/api/v1/users/bob", 200, json, `{"username":"bob","created_at":"2010-03-01T12:00:00.000000Z","nickname":"b"}`, false}, // a field the document lacks
		{"GET", "/api/v1/users/bob", 200, json, `{"username":"bob"}`, false},                                                           // a required field missing
		{"GET", "/api/v1/users/bob", 200, json, `{"username":"bob","created_at":"yesterday"}`, false},
		{"GET", "/api/v1/users/bob", 200, "text/html; charset=utf-8", user, false},
		{"GET", "/api/v1/users/bob", 200, json, user + user, false},
		{"GET", "/api/v1/users/bob", 404, json, `{"error":"not_found","message":"no such user"}`, true},
		{"GET", "/api/v1/users/bob", 404, json, `{"error":"not_found"}`, false},
		{"GET", "/api/v1/users/bob", 202, json, `{"error":"not_found","message":"an Error where no error is"}`, false},
		{"GET", "/api/v1/public", 200, json, `{"tweets":[` + tweet + `],"next":null}`, true},
		{"GET", "/api/v1/public", 200, json, `{"tweets":[]}`, false},
		{"GET", "/api/v1/public", 200, json, `{"tweets":[` + strings.Replace(tweet, "6ba7b810-9dad-11d1", "6ba7b810-9dad", 1) + `],"next":null}`, false},
		{"DELETE", "/api/v1/sessions/current", 204, "", "", true},
		{"DELETE", "/api/v1/sessions/current", 204, json, `{}`, false},
		{"GET", "/api/v1/blog/authors/x", 200, json, `{"name":"x","profile":{"bio":"b"},"posts":0}`, true},
		{"GET", "/api/v1/blog/authors/x", 200, json, `{"name":"x","profile":{"a":1},"posts":0}`, false},
		{"GET", "/api/v1/no/such/path", 404, json, `{"error":"not_found","message":"no such page"}`, true},
		{"GET", "/api/v1/no/such/path", 404, json, `{"error":"not_found"}`, false},
		{"GET", "/api/v1/no/such/path", 200, json, `{}`, false},
		{"PATCH", "/api/v1/public", 405, json, `{"error":"method_not_allowed","message":"no"}`, true},
		{"PATCH", "/api/v1/public", 405, "text/plain", `405 method not allowed`, false},
	} {
		h := http.Header{}
		if c.contentType != "" {
			h.Set("Content-Type", c.contentType)
		}
		_, err := doc.check(httptest.NewRequest(c.method, c.path, nil), c.status, h, []byte(c.body))
		if (err == nil) != c.ok {
			t.Errorf("%s %s %d %s %s: accepted %v (%v)", c.method, c.path, c.status, c.contentType, c.body, err == nil, err)
		}
	}
}

// A document that lacks a field the server sends refuses the server's answer: the sign-up's
// user without "fanout" in the User schema.
func TestOpenAPIValidatorRefusesAFieldTheDocumentLacks(t *testing.T) {
	t.Parallel()
	var raw map[string]any
	if err := json.Unmarshal(openapi.Document, &raw); err != nil {
		t.Fatal(err)
	}
	userProps := raw["components"].(map[string]any)["schemas"].(map[string]any)["User"].(map[string]any)["properties"].(map[string]any)
	if _, ok := userProps["fanout"]; !ok {
		t.Fatal("the User schema has no fanout")
	}
	delete(userProps, "fanout")
	lacking, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	req := httptest.NewRequest(http.MethodPost, "/api/v1/users", strings.NewReader(`{"username":"bob","password":"`+testPassword+`"}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	e.srv.Engine.ServeHTTP(rec, req)
	if rec.Code != http.StatusCreated || !strings.Contains(rec.Body.String(), `"fanout"`) {
		t.Fatalf("sign-up: %d %s", rec.Code, rec.Body)
	}
	if _, err := loadAPIDoc(t).check(req, rec.Code, rec.Header(), rec.Body.Bytes()); err != nil {
		t.Fatalf("the document refuses the sign-up: %v", err)
	}
	if _, err := loadAPIDocFrom(t, lacking).check(req, rec.Code, rec.Header(), rec.Body.Bytes()); err == nil || !strings.Contains(err.Error(), "fanout") {
		t.Fatalf("a document without fanout: %v", err)
	}
}
