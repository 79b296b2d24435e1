// Package openapi holds the OpenAPI 3 description of /api/v1 (openapi.json, written by hand)
// and a small checker of responses against it, for the tests that keep the two true to each
// other: web's route test, and the response checks of web and tests/reliability.
//
// The checker knows the part of JSON Schema the document uses: type, nullable, required,
// properties, additionalProperties, items, enum, minimum, maximum, minLength, maxLength,
// pattern and the formats uuid and date-time, with $ref to components.
package openapi

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
)

// Document is the OpenAPI description served at /api/v1/openapi.json.
//
//go:embed openapi.json
var Document []byte

// Spec is the parsed document.
type Spec struct {
	raw   map[string]any
	paths []pathTemplate

	mu       sync.Mutex
	patterns map[string]*regexp.Regexp
}

type pathTemplate struct {
	template string
	segs     []string
}

// Parse reads an OpenAPI document.
func Parse(doc []byte) (*Spec, error) {
	var raw map[string]any
	if err := json.Unmarshal(doc, &raw); err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	paths, ok := raw["paths"].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("openapi: no paths")
	}
	s := &Spec{raw: raw, patterns: map[string]*regexp.Regexp{}}
	for p := range paths {
		s.paths = append(s.paths, pathTemplate{template: p, segs: strings.Split(strings.Trim(p, "/"), "/")})
	}
	// Literal segments win over parameters, as in gin: /users/{u}/friends before /users/{u}/{x}.
	sort.Slice(s.paths, func(i, j int) bool {
		return literals(s.paths[i].segs) > literals(s.paths[j].segs)
	})
	return s, nil
}

var (
	loadOnce sync.Once
	loaded   *Spec
	loadErr  error
)

// Load parses Document once.
func Load() (*Spec, error) {
	loadOnce.Do(func() { loaded, loadErr = Parse(Document) })
	return loaded, loadErr
}

func literals(segs []string) int {
	n := 0
	for _, s := range segs {
		if !strings.HasPrefix(s, "{") {
			n++
		}
	}
	return n
}

// Operations lists every documented "METHOD /path/{param}", sorted.
func (s *Spec) Operations() []string {
	var out []string
	for p, item := range s.raw["paths"].(map[string]any) {
		for m := range item.(map[string]any) {
			switch m {
			case "get", "put", "post", "delete", "patch", "head", "options":
				out = append(out, strings.ToUpper(m)+" "+p)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Template finds the documented path template a concrete path matches.
func (s *Spec) Template(path string) (string, bool) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	for _, t := range s.paths {
		if len(t.segs) != len(segs) {
			continue
		}
		ok := true
		for i, seg := range t.segs {
			if !strings.HasPrefix(seg, "{") && seg != segs[i] {
				ok = false
				break
			}
			if strings.HasPrefix(seg, "{") && segs[i] == "" {
				ok = false
				break
			}
		}
		if ok {
			return t.template, true
		}
	}
	return "", false
}

// CheckResponse checks a response to method path (a concrete path, without the query) against
// the document: the operation must exist, the status must be documented (or covered by
// default), and a body the document describes must match its schema.
func (s *Spec) CheckResponse(method, path string, status int, body []byte) error {
	tmpl, ok := s.Template(path)
	if !ok {
		if status == 404 {
			// No route: the server's JSON 404, whose body is an Error like every other.
			return s.checkError(method, path, status, body)
		}
		return fmt.Errorf("%s %s: no documented path", method, path)
	}
	op, ok := s.raw["paths"].(map[string]any)[tmpl].(map[string]any)[strings.ToLower(method)].(map[string]any)
	if !ok {
		if status == 405 || status == 404 {
			return nil // gin's answers to an undocumented method
		}
		return fmt.Errorf("%s %s: method not documented", method, tmpl)
	}
	responses := op["responses"].(map[string]any)
	r, ok := responses[strconv.Itoa(status)].(map[string]any)
	if !ok {
		if r, ok = responses["default"].(map[string]any); !ok {
			return fmt.Errorf("%s %s: status %d not documented", method, tmpl, status)
		}
	}
	content, _ := r["content"].(map[string]any)
	if content == nil {
		if len(body) != 0 {
			return fmt.Errorf("%s %s %d: body %q where none is documented", method, tmpl, status, body)
		}
		return nil
	}
	schema := content["application/json"].(map[string]any)["schema"].(map[string]any)
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("%s %s %d: body is not JSON: %v", method, tmpl, status, err)
	}
	if err := s.Validate(schema, v); err != nil {
		return fmt.Errorf("%s %s %d: %w", method, tmpl, status, err)
	}
	return nil
}

func (s *Spec) checkError(method, path string, status int, body []byte) error {
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		return fmt.Errorf("%s %s %d: body is not JSON: %v", method, path, status, err)
	}
	if err := s.Validate(map[string]any{"$ref": "#/components/schemas/Error"}, v); err != nil {
		return fmt.Errorf("%s %s %d: %w", method, path, status, err)
	}
	return nil
}

// Validate checks a decoded JSON value against a schema of the document.
func (s *Spec) Validate(schema map[string]any, v any) error { return s.validate(schema, v, "$") }

func (s *Spec) resolve(schema map[string]any) map[string]any {
	for {
		ref, ok := schema["$ref"].(string)
		if !ok {
			return schema
		}
		node := any(s.raw)
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			node = node.(map[string]any)[part]
		}
		schema = node.(map[string]any)
	}
}

func (s *Spec) validate(schema map[string]any, v any, at string) error {
	schema = s.resolve(schema)
	if v == nil {
		if schema["nullable"] == true {
			return nil
		}
		return fmt.Errorf("%s: null where %v is expected", at, schema["type"])
	}
	switch schema["type"] {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want an object, got %T", at, v)
		}
		for _, r := range asList(schema["required"]) {
			if _, ok := obj[r.(string)]; !ok {
				return fmt.Errorf("%s: required field %q missing", at, r)
			}
		}
		props, _ := schema["properties"].(map[string]any)
		for k, fv := range obj {
			if ps, ok := props[k].(map[string]any); ok {
				if err := s.validate(ps, fv, at+"."+k); err != nil {
					return err
				}
				continue
			}
			switch ap := schema["additionalProperties"].(type) {
			case map[string]any:
				if err := s.validate(ap, fv, at+"."+k); err != nil {
					return err
				}
			case bool:
				if !ap {
					return fmt.Errorf("%s: unexpected field %q", at, k)
				}
			}
		}
	case "array":
		arr, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s: want an array, got %T", at, v)
		}
		if items, ok := schema["items"].(map[string]any); ok {
			for i, x := range arr {
				if err := s.validate(items, x, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s: want a string, got %T", at, v)
		}
		if err := s.checkString(schema, str); err != nil {
			return fmt.Errorf("%s: %w", at, err)
		}
	case "integer", "number":
		f, ok := v.(float64)
		if !ok {
			return fmt.Errorf("%s: want a number, got %T", at, v)
		}
		if schema["type"] == "integer" && f != float64(int64(f)) {
			return fmt.Errorf("%s: want an integer, got %v", at, f)
		}
		if m, ok := schema["minimum"].(float64); ok && f < m {
			return fmt.Errorf("%s: %v below minimum %v", at, f, m)
		}
		if m, ok := schema["maximum"].(float64); ok && f > m {
			return fmt.Errorf("%s: %v above maximum %v", at, f, m)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s: want a boolean, got %T", at, v)
		}
	}
	if enum := asList(schema["enum"]); enum != nil && !slices.Contains(enum, v) {
		return fmt.Errorf("%s: %v not in %v", at, v, enum)
	}
	return nil
}

func (s *Spec) checkString(schema map[string]any, str string) error {
	n := utf8.RuneCountInString(str)
	if m, ok := schema["minLength"].(float64); ok && n < int(m) {
		return fmt.Errorf("%q shorter than %v", str, m)
	}
	if m, ok := schema["maxLength"].(float64); ok && n > int(m) {
		return fmt.Errorf("%q longer than %v", str, m)
	}
	if p, ok := schema["pattern"].(string); ok {
		re, err := s.pattern(p)
		if err != nil {
			return err
		}
		if !re.MatchString(str) {
			return fmt.Errorf("%q does not match %s", str, p)
		}
	}
	switch schema["format"] {
	case "uuid":
		if _, err := uuid.Parse(str); err != nil || len(str) != 36 {
			return fmt.Errorf("%q is not a UUID", str)
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339Nano, str); err != nil {
			return fmt.Errorf("%q is not an RFC 3339 date-time", str)
		}
	}
	return nil
}

func (s *Spec) pattern(p string) (*regexp.Regexp, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if re, ok := s.patterns[p]; ok {
		return re, nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	s.patterns[p] = re
	return re, nil
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}
