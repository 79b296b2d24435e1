package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
)

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestCLIOneShot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, out, errOut := runCmd(t, "cli", "--data-dir", dir, "-e",
		"set Scratch.Longs['s'][832416] = 'a'; set Scratch.Longs['s'][3] = 'b'\nset Scratch.Longs['s'][123] = 'c'; set Scratch.Longs['s'][976] = 'd'")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Count(out, "Value inserted.") != 4 {
		t.Errorf("output %q", out)
	}
	// The data survives the process: a second run reads it back in LongType order.
	code, out, errOut = runCmd(t, "cli", "--data-dir", dir, "-e", "get Scratch.Longs['s']")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// Each column is a triple: its timestamp follows, as a comment (the real clock's, so only
	// its shape is checked).
	want := "Longs : {\n    \"s\" : {\n        3 : \"b\",\n        123 : \"c\",\n        976 : \"d\",\n        832416 : \"a\"\n    }\n}\nReturned 4 columns.\n"
	stamps := regexp.MustCompile(` /\* timestamp \d+ \*/`)
	if len(stamps.FindAllString(out, -1)) != 4 || stamps.ReplaceAllString(out, "") != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

func TestCLIErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ stmt, want string }{
		{"get Nope.CF['k']", `unknown keyspace "Nope"`},
		{"get Scratch.Nope['k']", `unknown column family "Nope"`},
		{"get Scratch.Longs['k'", `want "]"`},
		{"set Scratch.Longs['k'][long('abc')] = 'v'", "not a 64-bit integer"},
		{"set Scratch.Longs['k'][bytes('abcdef')] = 'v'", "A long is exactly 8 bytes"},
		{"set Scratch.Longs['k'][wat(1)] = 'v'", "unknown type function"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		code, out, errOut := runCmd(t, "cli", "--data-dir", dir, "-e", c.stmt)
		if code == 0 {
			t.Errorf("%s: exit 0, output %q", c.stmt, out)
		}
		if strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: stderr %q, want one line containing %q", c.stmt, errOut, c.want)
		}
	}
	code, out, _ := runCmd(t, "cli", "--data-dir", dir, "-e", "count Scratch.Longs['k']")
	if code != 0 || out != "0 columns\n" {
		t.Errorf("after the failed statements: exit %d, %q: something was written", code, out)
	}
	// cli works on widerow only: it takes no --backend, and its help lists no cql3 flag.
	if code, _, errOut := runCmd(t, "cli", "--backend", "memory", "-e", "show keyspaces"); code == 0 || !strings.Contains(errOut, "-backend") {
		t.Errorf("cli --backend: exit %d, %q", code, errOut)
	}
	_, _, help := runCmd(t, "cli", "--help")
	if !strings.Contains(help, "-data-dir") || strings.Contains(help, "-backend") || strings.Contains(help, "-cql-") || strings.Contains(help, "-bcrypt-cost") {
		t.Errorf("cli --help:\n%s", help)
	}
}
