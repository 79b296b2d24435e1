package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	neturl "net/url"
	"regexp"
	"strings"
	"testing"
)

const classToken = "the-instructor-secret-of-tests"

// `class accounts` makes a class's accounts through a running memory server (which nothing can
// preload) and prints them as CSV; each logs in; `roster` lists them; `reset` wants its
// confirmation and clears the class; a wrong token is the server's message.
func TestClassCommandOnAMemoryServer(t *testing.T) {
	addr := startServe(t, "--instructor-token", classToken)
	url := "http://" + addr
	out := mustRun(t, "class", "accounts", "--url", url, "--instructor-token", classToken, "--class", "lab7", "--n", "3")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || lines[0] != "username,password" {
		t.Fatalf("accounts printed:\n%s", out)
	}
	// More than a request's batch: asked in turns, numbered on, printed as one list.
	more := mustRun(t, "class", "accounts", "--url", url, "--instructor-token", classToken, "--class", "lab8", "--n", "27")
	if ls := strings.Split(strings.TrimSpace(more), "\n"); len(ls) != 28 || !strings.HasPrefix(ls[27], "lab8_027,") || strings.Count(more, "username,password") != 1 {
		t.Fatalf("27 accounts printed:\n%s", more)
	}
	for i, l := range lines[1:] {
		user, pw, ok := strings.Cut(l, ",")
		if want := "lab7_00" + string(rune('1'+i)); !ok || user != want || len(pw) < 12 {
			t.Fatalf("line %d: %q, want %s,<password>", i+1, l, want)
		}
		body, _ := json.Marshal(map[string]string{"username": user, "password": pw})
		res, err := http.Post(url+"/api/v1/sessions", "application/json", strings.NewReader(string(body)))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("log in %s: %d", user, res.StatusCode)
		}
	}
	roster := mustRun(t, "class", "roster", "--url", url, "--instructor-token", classToken, "--class", "lab7")
	if !strings.Contains(roster, "lab7_001") || !strings.Contains(roster, "lab7_003") || !strings.Contains(roster, "0/") {
		t.Fatalf("roster:\n%s", roster)
	}
	if code, _, errOut := runCmd(t, "class", "reset", "--url", url, "--instructor-token", classToken, "--class", "lab7"); code != 1 || !strings.Contains(errOut, "--confirm lab7") {
		t.Fatalf("reset without --confirm: exit %d: %s", code, errOut)
	}
	if out := mustRun(t, "class", "reset", "--url", url, "--instructor-token", classToken, "--class", "lab7", "--confirm", "lab7"); !strings.Contains(out, "3 learners") {
		t.Fatalf("reset:\n%s", out)
	}
	if code, _, errOut := runCmd(t, "class", "roster", "--url", url, "--instructor-token", "not-the-instructor-secret", "--class", "lab7"); code != 1 || !strings.Contains(errOut, "401: wrong instructor token") {
		t.Fatalf("a wrong token: exit %d: %s", code, errOut)
	}
}

// A server refuses an instructor's token too short to be a secret.
func TestInstructorTokenTooShort(t *testing.T) {
	code, _, errOut := runCmd(t, "serve", "--backend", "memory", "--addr", "127.0.0.1:0", "--instructor-token", "short")
	if code == 0 || !strings.Contains(errOut, "--instructor-token must be at least 16 characters") {
		t.Fatalf("a short token: exit %d: %s", code, errOut)
	}
}

// Every backend's serve wires the ClassBook and the progress store: on widerow and on the node,
// a learner's lesson shows on the roster, and the reset clears it.
func TestClassOnEachServedBackend(t *testing.T) {
	for _, backend := range []string{"widerow", "cql3"} {
		t.Run(backend, func(t *testing.T) {
			args := []string{"--backend", backend, "--instructor-token", classToken}
			if backend == "widerow" {
				args = append(args, "--data-dir", t.TempDir())
			} else {
				hosts, port, ks := cqlKeyspace(t)
				args = append(args, cqlFlags("", hosts, port, ks)...)
			}
			url := "http://" + startServer(t, args...).addr
			out := mustRun(t, "class", "accounts", "--url", url, "--instructor-token", classToken, "--class", "k", "--n", "1")
			user, pw, _ := strings.Cut(strings.Split(strings.TrimSpace(out), "\n")[1], ",")
			jar, _ := cookiejar.New(nil)
			browser := &http.Client{Jar: jar}
			page := func(path string) string {
				res, err := browser.Get(url + path)
				if err != nil {
					t.Fatal(err)
				}
				defer res.Body.Close()
				b, _ := io.ReadAll(res.Body)
				return string(b)
			}
			csrf := regexp.MustCompile(`name="csrf_token" value="([^"]+)"`).FindStringSubmatch(page("/login"))
			if csrf == nil {
				t.Fatal("no CSRF token on /login")
			}
			res, err := browser.PostForm(url+"/login", neturl.Values{"username": {user}, "password": {pw}, "csrf_token": {csrf[1]}})
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			page("/learn/primer")
			if roster := mustRun(t, "class", "roster", "--url", url, "--instructor-token", classToken, "--class", "k"); !regexp.MustCompile(`k_001\s+1/\d+\s+0/\d+\s+lesson primer\s`).MatchString(roster) {
				t.Fatalf("roster after %s's lesson:\n%s", user, roster)
			}
			mustRun(t, "class", "reset", "--url", url, "--instructor-token", classToken, "--class", "k", "--confirm", "k")
			if roster := mustRun(t, "class", "roster", "--url", url, "--instructor-token", classToken, "--class", "k"); !regexp.MustCompile(`k_001\s+0/\d+\s+0/\d+\s+-\s+-\s+0\n`).MatchString(roster) {
				t.Fatalf("roster after the reset:\n%s", roster)
			}
		})
	}
}
