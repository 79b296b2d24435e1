package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// runProcess runs twissandra args as a process (the test binary, re-executed: TestMain), stdin
// as its standard input.
func runProcess(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), reexecEnv+"=1")
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return code, out.String(), errOut.String()
}

// cli fed from a pipe is a script: the first error ends it, as one line, with a non-zero exit.
func TestCLIFromAPipe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, out, errOut := runProcess(t, "set Scratch.Longs['k'][long(3)] = 'three'\nget Scratch.Longs['k']\n", "cli", "--data-dir", dir)
	if code != 0 || !strings.Contains(out, `3 : "three"`) {
		t.Fatalf("a good script: exit %d\n%s\n%s", code, out, errOut)
	}
	code, _, errOut = runProcess(t, "get Nope.CF['k']\nshow keyspaces\n", "cli", "--data-dir", dir)
	if code == 0 || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, "Nope") {
		t.Fatalf("a failing script: exit %d, stderr %q", code, errOut)
	}
}
