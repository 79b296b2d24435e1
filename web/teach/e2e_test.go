package teach

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

const chromiumPath = "/usr/bin/chromium"

// screenshotDir is artifacts/screenshots at the repository root (the folder holding go.mod).
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
	out := filepath.Join(dir, "artifacts", "screenshots")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	return out
}

// browser starts headless Chromium with a window of width x height and returns a context for
// its first tab, with a deadline of timeout (the start itself has none). Without Chromium the
// test skips loudly, and fails under CI.
func browser(t *testing.T, width, height int, timeout time.Duration) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing and CI=true: install it with apt-get install -y chromium", chromiumPath)
		}
		t.Skipf("!!! SKIPPING THE BROWSER TEST: %s is missing (apt-get install -y chromium) !!!", chromiumPath)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath), chromedp.NoSandbox, chromedp.Flag("disable-gpu", true), chromedp.WindowSize(width, height))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	browserCtx, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelBrowser)
	if err := chromedp.Do(browserCtx); err != nil { // starts the browser, with no deadline
		t.Fatalf("start chromium: %v", err)
	}
	ctx, cancel := context.WithTimeout(browserCtx, timeout)
	t.Cleanup(cancel)
	return ctx
}

// tab is one Chromium tab of a test: steps that must succeed, the text of an element, and
// full-page screenshots into artifacts/screenshots.
type tab struct {
	t   *testing.T
	ctx context.Context
}

func newTab(t *testing.T, width, height int, timeout time.Duration) *tab {
	t.Helper()
	return &tab{t: t, ctx: browser(t, width, height, timeout)}
}

// do runs the actions, failing the test with what on an error.
func (b *tab) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// watchConsole listens to the tab's console until the function it returns is called, which
// gives every error, exception and Content Security Policy violation logged meanwhile.
func (b *tab) watchConsole() (stop func() []string) {
	listen, cancel := context.WithCancel(b.ctx)
	var problems []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range chromedp.Console(listen) {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException || strings.Contains(m.Text, "Content Security Policy") {
				problems = append(problems, m.String())
			}
		}
	}()
	return func() []string {
		cancel()
		<-done // problems is the listener's until it has returned
		return problems
	}
}

// text is the rendered text of the first element matching the CSS selector, "" for none.
func (b *tab) text(sel string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(document.querySelector(`+fmt.Sprintf("%q", sel)+`)||{}).innerText||""`))
	if err != nil {
		b.t.Fatalf("text of %s: %v", sel, err)
	}
	return v
}

// shot saves a full-page screenshot as artifacts/screenshots/name.png.
func (b *tab) shot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(90))
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(screenshotDir(b.t), name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}
