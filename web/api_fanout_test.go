package web

import (
	"net/http"
	"strings"
	"testing"

	"twissandra/domain"
)

// The user JSON carries the follower count and how the user's posts reach the followers; a
// pulled author's post writes no follower's timeline, and the follower's page still shows it.
func TestAPIFanoutOfAUser(t *testing.T) {
	e := newEnv(t)
	if err := e.svc.SetPullThreshold(1); err != nil {
		t.Fatal(err)
	}
	star := e.user("star")
	fans := []string{e.user("ann"), e.user("bob")}
	rec := e.do(http.MethodGet, "/api/v1/users/star", "", "")
	var u struct {
		Username  string
		Followers *int64
		Fanout    string
	}
	decode(t, rec, &u)
	if u.Followers == nil || *u.Followers != 0 || u.Fanout != "push" {
		t.Fatalf("a user nobody follows: %s", rec.Body)
	}
	for i, name := range []string{"ann", "bob"} {
		if rec := e.do(http.MethodPut, "/api/v1/users/"+name+"/friends/star", "", fans[i]); rec.Code != http.StatusNoContent && rec.Code != http.StatusOK {
			t.Fatalf("follow: %d %s", rec.Code, rec.Body)
		}
		rec := e.do(http.MethodGet, "/api/v1/users/star", "", "")
		decode(t, rec, &u)
		want := map[int]string{0: "push", 1: "pull"}[i] // above the threshold of 1 with 2
		if *u.Followers != int64(i+1) || u.Fanout != want {
			t.Fatalf("after %d follows: %s, want %d followers, %s", i+1, rec.Body, i+1, want)
		}
	}
	if rec := e.do(http.MethodPost, "/api/v1/tweets", `{"body":"from the top"}`, star); rec.Code != http.StatusCreated {
		t.Fatalf("post: %d %s", rec.Code, rec.Body)
	}
	rec = e.do(http.MethodGet, "/api/v1/timeline", "", fans[0])
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "from the top") {
		t.Fatalf("the follower's timeline: %d %s", rec.Code, rec.Body)
	}
	if entries, err := e.store.Slice(t.Context(), domain.TimelineOf("ann"), 0, 10); err != nil || len(entries) != 0 {
		t.Fatalf("the pulled post wrote %d entries into ann's timeline row (%v)", len(entries), err)
	}
}
