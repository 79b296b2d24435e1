// Package progress draws progress bars on a terminal (and nothing elsewhere).
package progress

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Bar counts work done; the zero-cost Off bar draws nothing.
type Bar struct {
	mu  sync.Mutex
	w   io.Writer
	bar *progressbar.ProgressBar
}

// Visible reports whether w is a terminal a bar may be drawn on.
func Visible(w io.Writer, quiet bool) bool {
	f, ok := w.(*os.File)
	return !quiet && ok && term.IsTerminal(int(f.Fd()))
}

// New returns a bar on w of total steps (-1: unknown), or a silent one when w is not a
// terminal or quiet is set.
func New(w io.Writer, quiet bool, total int64, desc string) *Bar {
	if !Visible(w, quiet) {
		return &Bar{}
	}
	b := &Bar{w: w}
	b.start(total, desc)
	return b
}

func (b *Bar) start(total int64, desc string) {
	b.bar = progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(b.w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("records"),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionOnCompletion(func() { _, _ = io.WriteString(b.w, "\n") }),
		progressbar.OptionSetPredictTime(total > 0),
	)
}

// Add counts n more steps.
func (b *Bar) Add(n int) {
	if b.bar == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	_ = b.bar.Add(n)
}

// Phase starts a new bar of unknown length named phase (migrate's phases).
func (b *Bar) Phase(phase string) {
	if b.w == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.bar != nil {
		_ = b.bar.Finish()
	}
	b.start(-1, phase)
}

// Finish completes the bar.
func (b *Bar) Finish() {
	if b.bar == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	_ = b.bar.Finish()
}
