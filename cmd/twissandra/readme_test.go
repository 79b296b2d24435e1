package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// walkthrough returns the shell block of README.md that follows the <!-- walkthrough --> marker.
func walkthrough(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "<!-- walkthrough -->\n```sh\n")
	if !ok {
		t.Fatal("README.md has no <!-- walkthrough --> block")
	}
	block, _, ok := strings.Cut(after, "```")
	if !ok {
		t.Fatal("the walkthrough block is not closed")
	}
	return block
}

// The README's walkthrough, run as written against a fresh server: `make run` becomes this
// build's serve (the same defaults, on a free port and a fresh data dir), and everything else
// runs as it is, the wait for /readyz included.
func TestREADMEWalkthrough(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the walkthrough starts a server and needs curl and jq")
	}
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("CI=true and %s is missing: the README walkthrough test needs it", tool)
			}
			t.Skipf("SKIPPING THE README WALKTHROUGH: %s is not installed", tool)
		}
	}
	block := walkthrough(t)
	const makeRun = "make run &\n"
	if !strings.HasPrefix(block, makeRun) || !strings.Contains(block, "127.0.0.1:8080") {
		t.Fatalf("the walkthrough no longer starts with %q on 127.0.0.1:8080:\n%s", makeRun, block)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	serve := fmt.Sprintf("%q serve --addr %s --data-dir %q --bcrypt-cost 4 2>%q &\n", os.Args[0], addr, t.TempDir(), t.TempDir()+"/serve.log")
	script := "trap 'kill %1 2>/dev/null' EXIT\n" + serve + strings.ReplaceAll(strings.TrimPrefix(block, makeRun), "127.0.0.1:8080", addr)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", script)
	cmd.Env = append(os.Environ(), reexecEnv+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("walkthrough: %v\nstdout:\n%s\nstderr:\n%s", err, out.String(), errOut.String())
	}
	// The answers, one JSON value each: the two sign-ups, the two tokens went into variables, the
	// follow has no body, the tweet, and last ericflo's timeline, which holds the tweet.
	var answers []map[string]any
	dec := json.NewDecoder(&out)
	for dec.More() {
		var v map[string]any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("the walkthrough printed something that is not JSON: %v", err)
		}
		answers = append(answers, v)
	}
	if len(answers) != 4 || answers[0]["username"] != "jericevans" || answers[1]["username"] != "ericflo" ||
		answers[2]["body"] != "@ericflo thanks for Twissandra, it helps!" {
		t.Fatalf("the walkthrough's answers: %v", answers)
	}
	tweets, _ := answers[3]["tweets"].([]any)
	if len(tweets) != 1 || tweets[0].(map[string]any)["id"] != answers[2]["id"] {
		t.Fatalf("ericflo's timeline: %v", answers[3])
	}
}
