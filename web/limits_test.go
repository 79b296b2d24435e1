package web

import (
	"context"
	"net/http"
	"strconv"
	"testing"

	"twissandra/domain/blog"
	"twissandra/domain/social"
)

// Past the comments' limit, an address's next comment is a 429 with Retry-After, and the
// comment is not stored; comments the blog refuses (no such entry) do not count.
func TestCommentsAreBounded(t *testing.T) {
	e := newBlogEnv(t)
	if err := blog.LoadFixture(context.Background(), e.blog); err != nil {
		t.Fatal(err)
	}
	const entry = "/api/v1/blog/entries/i-got-a-new-guitar/comments"
	before := len(e.comments(entry + "?limit=200").Comments)
	for range 2 * social.CommentLimits.PerAddress {
		e.ok(http.MethodPost, "/api/v1/blog/entries/no-such-entry/comments", `{"name":"n","text":"hi"}`, "", http.StatusNotFound)
	}
	for i := range social.CommentLimits.PerAddress {
		e.ok(http.MethodPost, entry, `{"name":"n","text":"comment `+strconv.Itoa(i)+`"}`, "", http.StatusCreated)
	}
	rec := e.ok(http.MethodPost, entry, `{"name":"n","text":"one too many"}`, "", http.StatusTooManyRequests)
	if after, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || after < 1 || after > 61 {
		t.Fatalf("Retry-After %q, want 1 to 61 seconds", rec.Header().Get("Retry-After"))
	}
	if n := len(e.comments(entry+"?limit=200").Comments) - before; n != social.CommentLimits.PerAddress {
		t.Fatalf("%d comments stored, want the %d admitted", n, social.CommentLimits.PerAddress)
	}
}

// Past the sign-ups' limit, an address's next sign-up is a 429 with Retry-After; taken names do
// not count.
func TestSignUpsAreBoundedOnTheAPI(t *testing.T) {
	e := newEnv(t)
	for i := range social.SignUpLimits.PerAddress {
		e.signUp("user" + strconv.Itoa(i))
	}
	rec := e.do(http.MethodPost, "/api/v1/users", `{"username":"one_too_many","password":"`+testPassword+`"}`, "")
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") == "" {
		t.Fatalf("the sign-up past the limit: %d (Retry-After %q) %s", rec.Code, rec.Header().Get("Retry-After"), rec.Body)
	}
	if rec := e.do(http.MethodGet, "/api/v1/users/one_too_many", "", ""); rec.Code != http.StatusNotFound {
		t.Fatalf("the refused sign-up made an account: %d", rec.Code)
	}
}
