package webkit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// ChromiumPath is where the end-to-end tests find Chromium.
const ChromiumPath = "/usr/bin/chromium"

// ScreenshotDir is artifacts/screenshots at the repository root (the folder holding go.mod).
func ScreenshotDir(t *testing.T) string {
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

// Browser starts headless Chromium with a window of width x height and returns a context for
// its first tab, with a deadline of timeout (the start itself has none). Without Chromium the
// test skips loudly, and fails under CI.
func Browser(t *testing.T, width, height int, timeout time.Duration) context.Context {
	t.Helper()
	if _, err := os.Stat(ChromiumPath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing and CI=true: install it with apt-get install -y chromium", ChromiumPath)
		}
		t.Skipf("!!! SKIPPING THE BROWSER TEST: %s is missing (apt-get install -y chromium) !!!", ChromiumPath)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(ChromiumPath), chromedp.NoSandbox, chromedp.Flag("disable-gpu", true), chromedp.WindowSize(width, height))
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

// Tab is one Chromium tab of a test: steps that must succeed, the text of an element, and
// full-page screenshots into artifacts/screenshots.
type Tab struct {
	t   *testing.T
	Ctx context.Context
}

// NewTab is a tab of a new Chromium, as Browser starts it.
func NewTab(t *testing.T, width, height int, timeout time.Duration) *Tab {
	t.Helper()
	return &Tab{t: t, Ctx: Browser(t, width, height, timeout)}
}

// Do runs the actions, failing the test with what on an error.
func (b *Tab) Do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.Ctx, actions...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// WatchConsole listens to the tab's console until the function it returns is called, which
// gives every error, exception and Content Security Policy violation logged meanwhile.
func (b *Tab) WatchConsole() (stop func() []string) {
	listen, cancel := context.WithCancel(b.Ctx)
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

// Text is the rendered text of the first element matching the CSS selector, "" for none.
func (b *Tab) Text(sel string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.Ctx, chromedp.Evaluate[string](`(document.querySelector(`+fmt.Sprintf("%q", sel)+`)||{}).innerText||""`))
	if err != nil {
		b.t.Fatalf("text of %s: %v", sel, err)
	}
	return v
}

// Shot saves a full-page screenshot as artifacts/screenshots/name.png.
func (b *Tab) Shot(name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.Ctx, chromedp.FullScreenshot(90))
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(ScreenshotDir(b.t), name+".png"), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// CSPWatch records, in every document the tab opens, the Content-Security-Policy violations it
// reports (window.__csp): a page that wrote an inline style or script would add one.
func CSPWatch() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.__csp = []; document.addEventListener("securitypolicyviolation", e => window.__csp.push(e.violatedDirective + " " + e.blockedURI));`,
		})
		return err
	})
}

// PageHealth is what every lesson page must be: answered 200, no CSP violation, nothing wider
// than the viewport.
type PageHealth struct {
	Status              int
	CSP                 []string
	Viewport, PageWidth float64
	Path                string
	Wider               []string // on a page wider than the viewport: the elements past its edge
}

// Health is the page's health, failing the test (but going on) unless it is as it must be. It
// waits for the page's stylesheets first: an element a test waits for may be in the document
// before they are, and a page laid out without them is as wide as its widest figure.
func (b *Tab) Health() PageHealth {
	b.t.Helper()
	b.WaitFor(`document.readyState === "complete"`)
	h, err := chromedp.Run(b.Ctx, chromedp.Evaluate[PageHealth](`(() => ({
		Status: (performance.getEntriesByType("navigation")[0] || {}).responseStatus || 0,
		CSP: window.__csp || [],
		Viewport: document.documentElement.clientWidth,
		PageWidth: document.documentElement.scrollWidth,
		Path: location.pathname,
		Wider: document.documentElement.scrollWidth <= document.documentElement.clientWidth ? [] :
			[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
				.slice(0, 8).map(e => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && e.className.baseVal === undefined ? "." + e.className : "") + " " + Math.round(e.getBoundingClientRect().right)),
	}))()`))
	if err != nil {
		b.t.Fatalf("health: %v", err)
	}
	if h.Status != 200 || len(h.CSP) != 0 || h.PageWidth > h.Viewport {
		b.t.Errorf("%s: %+v", h.Path, h)
	}
	return h
}

// WaitFor polls the page until the JavaScript condition holds (a form that reloads its own page
// leaves the old page's elements in view until the new one comes).
func (b *Tab) WaitFor(cond string) {
	b.t.Helper()
	for {
		ok, err := chromedp.Run(b.Ctx, chromedp.Evaluate[bool](cond))
		if err == nil && ok {
			return
		}
		select {
		case <-b.Ctx.Done():
			b.t.Fatalf("waiting for %s: %v", cond, b.Ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}
