// Package reliability holds the load, fault and abuse tests of the HTTP API: concurrent
// sign-ups, many writers with followers, kill -9 of a serving process, and fuzzing of request
// parsing. The package itself only has helpers for those tests.
package reliability
