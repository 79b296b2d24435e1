package porttest

import (
	"context"
	"testing"

	"twissandra/domain/blog"
	"twissandra/domain/social"
)

// What the sibling suites (ports/teachingtest) share with this one: a subtest's context, names
// unique to the run, and the use cases over an adapter's stores.

// Context is a subtest's context, cancelled when the subtest ends (or after two minutes).
func Context(t *testing.T) context.Context { return ctx(t) }

// Name makes a username unique to this run, so stores shared between subtests never clash.
func Name(prefix string) string { return name(prefix) }

// Slug makes a slug (or a tag) unique to this run.
func Slug(prefix string) string { return slugOf(prefix) }

// AuthorName makes a blog author's name unique to this run.
func AuthorName(prefix string) string { return authorOf(prefix) }

// Social runs Twissandra's use cases over s, on a clock that steps a microsecond per reading.
func Social(s Stores) *social.Service { return service(s, nil) }

// Blog runs the blog's use cases over s, on a clock that steps a microsecond per reading.
func Blog(s BlogStores) *blog.Service { return blogService(s, nil) }

// MustAuthor creates or replaces a blog author, failing the test on an error.
func MustAuthor(t *testing.T, svc *blog.Service, name string, profile map[string]string) blog.Author {
	t.Helper()
	return mustAuthor(t, svc, name, profile)
}

// MustPublish publishes d (a title and body made up when empty), failing the test on an error.
func MustPublish(t *testing.T, svc *blog.Service, d blog.Draft) blog.Entry {
	t.Helper()
	return mustPublish(t, svc, d)
}
