package pages

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"testing"

	"twissandra/web/site"
)

// A copy of the session cookie taken before a logout is refused after it: the logout ended the
// log-in in the store, not only in the browser that sent it. The copy reads as signed out, and
// a post made with it is refused and writes nothing.
func TestCopiedSessionCookieIsRefusedAfterLogout(t *testing.T) {
	t.Parallel()
	for name, st := range map[string]func(testing.TB) stores{
		"memory":  func(testing.TB) stores { return memoryStores() },
		"widerow": widerowStores,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			app := newApp(t, st(t))
			c := app.client(t)
			c.signUp("mallory")
			u, _ := url.Parse(app.srv.URL)
			copied := c.http.Jar.Cookies(u)
			csrf := c.csrf()
			thief := app.client(t)
			jar, _ := cookiejar.New(nil)
			jar.SetCookies(u, copied)
			thief.http.Jar = jar
			mustContain(t, thief.get("/").body, "Your timeline")

			if r := c.post("/logout", nil); r.status != http.StatusSeeOther {
				t.Fatalf("logout: %d", r.status)
			}
			// The thief's jar still sends the cookie of before the logout.
			jar.SetCookies(u, copied)
			mustNotContain(t, thief.get("/").body, "Your timeline")
			jar.SetCookies(u, copied)
			r := thief.postRaw("/tweets", url.Values{"body": {"posted with a stolen cookie"}, site.CSRFField: {csrf}})
			// Signed out, the session got a new CSRF token: the form's old one is refused.
			if r.status != http.StatusForbidden {
				t.Fatalf("a post with the copied cookie: %d %q, want 403", r.status, r.header.Get("Location"))
			}
			if p, err := app.social.Userline(bg(), "mallory", "", 10); err != nil || len(p.Tweets) != 0 {
				t.Fatalf("mallory's userline after the refused post: %+v %v", p, err)
			}
		})
	}
}
