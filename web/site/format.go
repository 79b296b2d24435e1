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

// AppendEscaped appends s to b with the five characters that matter in HTML text and quoted
// attribute values escaped, as html.EscapeString does, without a string of its own: for the
// few components written in Go because they run per item of a page (TimeTag, the footer's
// operations), where templ's text expressions format through fmt.
func AppendEscaped(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		default:
			continue
		}
		b = append(append(b, s[last:i]...), esc...)
		last = i + 1
	}
	return append(b, s[last:]...)
}
