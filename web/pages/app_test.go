package pages

import (
	"regexp"
	"testing"

	"twissandra/internal/testkit/webkit"
	"twissandra/web"
	"twissandra/web/site"
)

// newApp serves the pages (and the JSON API) on st, in the site's frame without the teaching
// views.
func newApp(t testing.TB, st webkit.Stores) *webkit.App {
	t.Helper()
	return newAppWith(t, st, web.Config{})
}

// newAppWith is newApp with the web layer's configuration (its token secret is the tests').
func newAppWith(t testing.TB, st webkit.Stores, cfg web.Config) *webkit.App {
	t.Helper()
	return webkit.NewApp(t, st, cfg, func(_ testing.TB, s *site.Site, sv webkit.Services) error {
		return Register(s, Deps{Social: sv.Social, Blog: sv.Blog, Access: sv.Access})
	})
}

var olderLink = regexp.MustCompile(`rel="next"[^>]*href="([^"]+)"`)
