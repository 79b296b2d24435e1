package main

import (
	"strings"
	"testing"
)

// A run recorded from `go test -json`: one passing package with a pass, a skip and a failing
// subtest, one package without tests, one that did not build.
const recorded = `{"Action":"start","Package":"p/a"}
{"Action":"run","Package":"p/a","Test":"TestGood"}
{"Action":"output","Package":"p/a","Test":"TestGood","Output":"=== RUN   TestGood\n"}
{"Action":"output","Package":"p/a","Test":"TestGood","Output":"--- PASS: TestGood (0.00s)\n"}
{"Action":"pass","Package":"p/a","Test":"TestGood","Elapsed":0}
{"Action":"run","Package":"p/a","Test":"TestNode"}
{"Action":"output","Package":"p/a","Test":"TestNode","Output":"=== RUN   TestNode\n"}
{"Action":"output","Package":"p/a","Test":"TestNode","Output":"    node_test.go:30: SKIPPING THE REAL-NODE TEST: TWISSANDRA_CQL_HOSTS is not set\n"}
{"Action":"output","Package":"p/a","Test":"TestNode","Output":"--- SKIP: TestNode (0.00s)\n"}
{"Action":"skip","Package":"p/a","Test":"TestNode","Elapsed":0}
{"Action":"run","Package":"p/a","Test":"TestBad/case"}
{"Action":"output","Package":"p/a","Test":"TestBad/case","Output":"    bad_test.go:9: got 2, want 3\n"}
{"Action":"fail","Package":"p/a","Test":"TestBad/case","Elapsed":0}
{"Action":"fail","Package":"p/a","Test":"TestBad","Elapsed":0}
{"Action":"fail","Package":"p/a","Elapsed":1.5}
{"Action":"skip","Package":"p/none","Elapsed":0}
# p/broken
broken/x.go:3:1: syntax error
{"Action":"output","Package":"p/broken","Output":"FAIL\tp/broken [build failed]\n"}
{"Action":"fail","Package":"p/broken","Elapsed":0}
`

func TestSummary(t *testing.T) {
	t.Parallel()
	var live strings.Builder
	s, err := Read(strings.NewReader(recorded), &live)
	if err != nil {
		t.Fatal(err)
	}
	if s.Passed != 1 || s.Failed != 2 || s.Skipped != 1 || s.Packages != 3 || s.PackagesFailed != 2 || s.PackagesNoTests != 1 || s.OK() {
		t.Fatalf("summary %+v", s)
	}
	for _, want := range []string{"got 2, want 3", "FAIL p/a 1.5s", "broken/x.go:3:1: syntax error", "--- SKIP p/a TestNode: SKIPPING THE REAL-NODE TEST", "--   p/none"} {
		if !strings.Contains(live.String(), want) {
			t.Errorf("live report lacks %q:\n%s", want, live.String())
		}
	}
	var out strings.Builder
	s.Write(&out)
	text := out.String()
	for _, want := range []string{"packages: 3 (2 failed, 1 without tests)", "p/a TestNode: SKIPPING THE REAL-NODE TEST: TWISSANDRA_CQL_HOSTS is not set",
		"p/a TestBad/case", "p/broken (build or package failure)"} {
		if !strings.Contains(text, want) {
			t.Errorf("summary lacks %q:\n%s", want, text)
		}
	}
	lines := strings.Split(strings.TrimSpace(text), "\n")
	if last := lines[len(lines)-1]; last != "1 passed, 2 failed, 1 skipped" {
		t.Errorf("last line %q", last)
	}
}

func TestAllPassing(t *testing.T) {
	t.Parallel()
	s, err := Read(strings.NewReader(`{"Action":"pass","Package":"p","Test":"TestA"}
{"Action":"pass","Package":"p","Elapsed":0.1}
`), nil)
	if err != nil || !s.OK() || s.Passed != 1 {
		t.Fatalf("%+v %v", s, err)
	}
}
