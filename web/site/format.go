package site

import "time"

// When is a time as the pages show it ("12 May 2010 09:00 UTC"), "" for the zero time.
func When(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2 Jan 2006 15:04 UTC")
}

// ISO is a time as a <time datetime> attribute holds it (RFC 3339, UTC).
func ISO(t time.Time) string { return t.UTC().Format(time.RFC3339) }
