package pages

import (
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"testing"

	"twissandra/internal/testkit/webkit"
	"twissandra/web/site"
)

// A copy of the session cookie taken before a logout is refused after it: the logout ended the
// log-in in the store, not only in the browser that sent it. The copy reads as signed out, and
// a post made with it is refused and writes nothing.
func TestCopiedSessionCookieIsRefusedAfterLogout(t *testing.T) {
	t.Parallel()
	for name, st := range map[string]func(testing.TB) webkit.Stores{
		"memory":  func(testing.TB) webkit.Stores { return webkit.MemoryStores() },
		"widerow": webkit.WiderowStores,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			app := newApp(t, st(t))
			c := app.Client(t)
			c.SignUp("mallory")
			u, _ := url.Parse(app.Srv.URL)
			copied := c.HTTP.Jar.Cookies(u)
			csrf := c.CSRF()
			thief := app.Client(t)
			jar, _ := cookiejar.New(nil)
			jar.SetCookies(u, copied)
			thief.HTTP.Jar = jar
			webkit.MustContain(t, thief.Get("/").Body, "Your timeline")

			if r := c.Post("/logout", nil); r.Status != http.StatusSeeOther {
				t.Fatalf("logout: %d", r.Status)
			}
			// The thief's jar still sends the cookie of before the logout.
			jar.SetCookies(u, copied)
			webkit.MustNotContain(t, thief.Get("/").Body, "Your timeline")
			jar.SetCookies(u, copied)
			r := thief.PostRaw("/tweets", url.Values{"body": {"posted with a stolen cookie"}, site.CSRFField: {csrf}})
			// Signed out, the session got a new CSRF token: the form's old one is refused.
			if r.Status != http.StatusForbidden {
				t.Fatalf("a post with the copied cookie: %d %q, want 403", r.Status, r.Header.Get("Location"))
			}
			if p, err := app.Social.Userline(webkit.BG(), "mallory", "", 10); err != nil || len(p.Tweets) != 0 {
				t.Fatalf("mallory's userline after the refused post: %+v %v", p, err)
			}
		})
	}
}
