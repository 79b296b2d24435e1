// Command testsummary reads `go test -json` and says what happened, for scripts/test.sh.
//
//	go test -json ./... | tee run.json | testsummary -stream   # as it runs: packages, failures, skips
//	testsummary < run.json                                     # at the end: the summary
//
// -stream prints a line per package (ok, FAIL, no test files) as each finishes, and the whole
// output of every failed test, so a failure reads as with plain `go test`. Without -stream it
// prints the summary: packages, tests passed, failed and skipped, every skip with its reason,
// every failure by name, and last the line "N passed, N failed, N skipped". Either way it exits
// 1 when a test or a package failed (a build failure included), 0 otherwise.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// event is one line of `go test -json` (test2json).
type event struct {
	Action  string
	Package string
	Test    string
	Output  string
	Elapsed float64
}

// Summary is what a run did.
type Summary struct {
	Packages, PackagesFailed, PackagesNoTests int
	Passed, Failed, Skipped                   int
	Skips                                     []Skip   // every skipped test, with its reason
	Failures                                  []string // "pkg TestName", or "pkg (build or package failure)"
}

// Skip is one skipped test.
type Skip struct{ Package, Test, Reason string }

// Read consumes the events of r. stream, if not nil, receives the live report.
func Read(r io.Reader, stream io.Writer) (Summary, error) {
	var s Summary
	out := map[string][]string{} // "pkg\x00test" -> output lines
	failedTests := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if err := json.Unmarshal(line, &e); err != nil || e.Action == "" {
			// go test prints build errors as plain text before or between the events.
			if stream != nil && len(line) > 0 {
				fmt.Fprintf(stream, "%s\n", line)
			}
			continue
		}
		key := e.Package + "\x00" + e.Test
		switch e.Action {
		case "output":
			out[key] = append(out[key], e.Output)
		case "pass", "fail", "skip":
			if e.Test != "" {
				switch e.Action {
				case "pass":
					s.Passed++
				case "fail":
					s.Failed++
					failedTests[e.Package] = true
					s.Failures = append(s.Failures, e.Package+" "+e.Test)
					if stream != nil {
						fmt.Fprint(stream, strings.Join(out[key], ""))
					}
				case "skip":
					s.Skipped++
					sk := Skip{Package: e.Package, Test: e.Test, Reason: skipReason(out[key])}
					s.Skips = append(s.Skips, sk)
					if stream != nil {
						fmt.Fprintf(stream, "--- SKIP %s %s: %s\n", e.Package, e.Test, sk.Reason)
					}
				}
				delete(out, key)
				continue
			}
			s.Packages++
			elapsed := time.Duration(e.Elapsed * float64(time.Second)).Round(time.Millisecond)
			status := "ok  "
			switch {
			case e.Action == "fail":
				s.PackagesFailed++
				status = "FAIL"
				if !failedTests[e.Package] {
					// A package that failed without a failing test: a build error, a panic
					// outside a test, a timeout. Its output says which.
					s.Failures = append(s.Failures, e.Package+" (build or package failure)")
					if stream != nil {
						fmt.Fprint(stream, strings.Join(out[key], ""))
					}
				}
			case e.Action == "skip":
				s.PackagesNoTests++
				status = "--  "
			}
			if stream != nil {
				fmt.Fprintf(stream, "%s %s %s\n", status, e.Package, elapsed)
			}
			delete(out, key)
		}
	}
	return s, sc.Err()
}

// skipReason is what a skipped test said, without the framework's own lines.
func skipReason(lines []string) string {
	var said []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		// "file_test.go:12: reason": keep the reason.
		if i := strings.Index(t, ": "); i > 0 && strings.Contains(t[:i], ".go:") {
			t = t[i+2:]
		}
		said = append(said, t)
	}
	if len(said) == 0 {
		return "(no reason given)"
	}
	return strings.Join(said, " ")
}

// Write prints the summary; its last line is "N passed, N failed, N skipped".
func (s Summary) Write(w io.Writer) {
	fmt.Fprintf(w, "== test summary\n")
	fmt.Fprintf(w, "packages: %d (%d failed, %d without tests)\n", s.Packages, s.PackagesFailed, s.PackagesNoTests)
	if len(s.Skips) > 0 {
		fmt.Fprintf(w, "skipped tests and why:\n")
		skips := slices.Clone(s.Skips)
		slices.SortFunc(skips, func(a, b Skip) int { return strings.Compare(a.Package+a.Test, b.Package+b.Test) })
		for _, sk := range skips {
			fmt.Fprintf(w, "  %s %s: %s\n", sk.Package, sk.Test, sk.Reason)
		}
	}
	if len(s.Failures) > 0 {
		fmt.Fprintf(w, "failed:\n")
		for _, f := range s.Failures {
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped\n", s.Passed, s.Failed, s.Skipped)
}

// OK is whether nothing failed.
func (s Summary) OK() bool { return s.Failed == 0 && s.PackagesFailed == 0 }

func main() {
	stream := flag.Bool("stream", false, "report packages, failures and skips as they come, no summary")
	flag.Parse()
	var live io.Writer
	if *stream {
		live = os.Stdout
	}
	s, err := Read(os.Stdin, live)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testsummary:", err)
		os.Exit(2)
	}
	if !*stream {
		s.Write(os.Stdout)
	}
	if !s.OK() {
		os.Exit(1)
	}
}
