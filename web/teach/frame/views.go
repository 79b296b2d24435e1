package frame

//go:generate go tool templ generate -path .

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
)

// The teaching views are templ components, one .templ file a page (footer.templ here,
// models.templ in package models, ...), each taking its page's data; `go generate ./...` compiles
// them into the *_templ.go files beside them (a //go:generate line in each package). Below are
// the small helpers they call.
//
// Whitespace in a .templ file reaches the page as templ decides: a newline between two pieces of
// inline content (text, an expression, <a>, <strong>, an if or a for among them) becomes one
// space, none otherwise, and a component call (@x) must follow a space or a newline. Where a
// sentence runs on with no space, the views say it in one piece: a word a condition adds is
// When(cond, s) or IfElse; a list or a clause that ends a sentence renders its end (end).
// `go tool templ fmt` keeps these files as they are.

// When is s if cond, else "": a piece of a sentence that a condition adds, written where no
// space may separate it from the words around it.
func When(cond bool, s string) string { return IfElse(cond, s, "") }

// IfElse is yes if cond, else no: a word a condition picks, written where no space may separate
// it from the words around it.
func IfElse(cond bool, yes, no string) string {
	if cond {
		return yes
	}
	return no
}

// Sep is s before every item of a list but the first (i is the item's index).
func Sep(i int, s string) string { return When(i > 0, s) }

// Plural is one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Micros shows a duration in microseconds, as an operation's time reads best.
func Micros(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Microsecond), 'f', 0, 64) + " µs"
}

// InspectURL is the storage inspector's address for a query a store made (url.Values encoded).
func InspectURL(query string) string { return "/models/inspect?" + query }

// UserURL is a user's page.
func UserURL(name string) templ.SafeURL { return templ.SafeURL("/users/" + url.PathEscape(name)) }

// Short cuts s to n runes, with an ellipsis.
func Short(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// Thousands writes n with a comma between each group of three digits.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// GlossaryURL is the glossary's entry for a term.
func GlossaryURL(id string) templ.SafeURL { return templ.SafeURL("/learn/glossary#" + id) }
