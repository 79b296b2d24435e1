package main

import (
	"net/http"
	"strconv"
	"testing"
)

// On widerow, a logout and the log-in limit live in the store (the Sessions keyspace), so a
// restart forgets neither: the logged-out token cannot post after it, and the fifth failure
// before it still refuses the sixth try after it.
func TestLogoutAndLimitSurviveARestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := []string{"--backend", "widerow", "--data-dir", dir}
	first := startServer(t, args...)
	api := "http://" + first.addr + "/api/v1"
	cred := `{"username":"jericevans","password":"correct horse"}`
	if c := callAPI(t, "POST", api+"/users", "", cred); c.status != http.StatusCreated {
		t.Fatalf("sign up: %d", c.status)
	}
	login := callAPI(t, "POST", api+"/sessions", "", cred)
	token, _ := login.body["token"].(string)
	if login.status != http.StatusOK || token == "" {
		t.Fatalf("log in: %d %v", login.status, login.body)
	}
	if c := callAPI(t, "DELETE", api+"/sessions/current", token, ""); c.status != http.StatusNoContent {
		t.Fatalf("log out: %d", c.status)
	}
	for i := range 5 {
		if c := callAPI(t, "POST", api+"/sessions", "", `{"username":"ericflo","password":"guess `+strconv.Itoa(i)+`"}`); c.status != http.StatusUnauthorized {
			t.Fatalf("a wrong guess: %d", c.status)
		}
	}
	first.stop()

	second := startServer(t, args...)
	api = "http://" + second.addr + "/api/v1"
	if c := callAPI(t, "POST", api+"/tweets", token, `{"body":"posted after logging out"}`); c.status != http.StatusUnauthorized {
		t.Fatalf("the logged-out token after a restart: %d %v, want 401", c.status, c.body)
	}
	if c := callAPI(t, "POST", api+"/sessions", "", `{"username":"ericflo","password":"guess 5"}`); c.status != http.StatusTooManyRequests {
		t.Fatalf("the sixth guess after a restart: %d, want 429", c.status)
	}
	if c := callAPI(t, "GET", api+"/users/jericevans/tweets", "", ""); c.status != http.StatusOK {
		t.Fatalf("userline: %d", c.status)
	} else if tweets, _ := c.body["tweets"].([]any); len(tweets) != 0 {
		t.Fatalf("the logged-out token posted: %v", c.body)
	}
}
