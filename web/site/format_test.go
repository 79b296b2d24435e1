package site

import (
	"bytes"
	"context"
	"html"
	"testing"
	"time"
)

func TestAppendEscapedIsHTMLEscape(t *testing.T) {
	for _, s := range []string{"", "plain", `<script>alert("x")</script>`, "a & b ' c", "ünïcode > 5", "&amp;"} {
		if got := string(AppendEscaped([]byte("x"), s)); got != "x"+html.EscapeString(s) {
			t.Errorf("AppendEscaped(%q) = %q, want %q", s, got, "x"+html.EscapeString(s))
		}
	}
}

// The escaper of the components written in Go escapes as html.EscapeString does, whatever the
// text.
func FuzzAppendEscaped(f *testing.F) {
	for _, s := range []string{"", "<a href='x'>&amp;</a>", "\"\"''<<>>&&", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(AppendEscaped(nil, s)), html.EscapeString(s); got != want {
			t.Fatalf("AppendEscaped(%q) = %q, want %q", s, got, want)
		}
	})
}

// TimeTag writes what <time datetime={ ISO(t) }>{ When(t) }</time> would, for any time.
func TestTimeTag(t *testing.T) {
	for _, tm := range []time.Time{
		time.Date(2010, 5, 12, 9, 0, 7, 123456000, time.UTC),
		time.Date(1999, 12, 31, 23, 59, 59, 0, time.FixedZone("X", 5*3600)),
		{},
	} {
		var b bytes.Buffer
		if err := TimeTag(tm).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		if want := `<time datetime="` + ISO(tm) + `">` + When(tm) + `</time>`; b.String() != want {
			t.Errorf("TimeTag(%v) = %s, want %s", tm, b.String(), want)
		}
	}
}
