package web

import (
	"net/http"
	"testing"
)

func TestSmokeSignUpPostPublic(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok := e.user("jericevans")
	tw := e.post(tok, "@ericflo thanks for Twissandra, it helps!")
	p := e.page("/api/v1/public", "")
	if len(p.Tweets) != 1 || p.Tweets[0] != tw || p.Next != nil {
		t.Fatalf("public line %+v, want just %+v", p, tw)
	}
	wantError(t, e.do(http.MethodGet, "/api/v1/users/nobody", "", ""), http.StatusNotFound, SlugNotFound)
}
