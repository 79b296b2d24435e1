package site

import (
	"context"
	"io"
	"time"

	"github.com/a-h/templ"
)

// When is a time as the pages show it ("12 May 2010 09:00 UTC"), "" for the zero time.
func When(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(whenLayout)
}

// ISO is a time as a <time datetime> attribute holds it (RFC 3339, UTC).
func ISO(t time.Time) string { return t.UTC().Format(time.RFC3339) }

const whenLayout = "2 Jan 2006 15:04 UTC"

// TimeTag is <time datetime="ISO">When</time>, written straight into the page: a page of 40
// tweets shows 40 of them, and formatting each into a string of its own was a tenth of the
// page's time. The two layouts hold only digits, letters, spaces, colons and dashes: nothing to
// escape.
func TimeTag(t time.Time) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		var buf [96]byte
		b := append(buf[:0], `<time datetime="`...)
		u := t.UTC()
		b = u.AppendFormat(b, time.RFC3339)
		b = append(b, `">`...)
		if !t.IsZero() {
			b = u.AppendFormat(b, whenLayout)
		}
		b = append(b, `</time>`...)
		_, err := w.Write(b)
		return err
	})
}
