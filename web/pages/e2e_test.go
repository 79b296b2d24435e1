package pages

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/domain/blog"
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

// TestBrowserEndToEnd drives the pages in headless Chromium: two users sign up, follow, post,
// page through older tweets, unfollow, comment on the blog, and a forged form is refused. It
// saves full-page screenshots of the main pages to artifacts/screenshots (the teaching views'
// are package teach's).
func TestBrowserEndToEnd(t *testing.T) {
	app := newApp(t, widerowStores(t))
	base := app.srv.URL

	// bob has more than a page of tweets before anyone follows him.
	if _, err := app.social.SignUp(bg(), "bob", "password1"); err != nil {
		t.Fatal(err)
	}
	for i := range linePageSize + 5 {
		if _, err := app.social.Post(bg(), "bob", fmt.Sprintf("bob tweet %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := app.blog.PutAuthor(bg(), "Arin Sarkissian", map[string]string{"twitter": "phatduckk", "bio": "bla bla bla"}); err != nil {
		t.Fatal(err)
	}
	if _, err := app.blog.Publish(bg(), blog.Draft{Slug: "i-got-a-new-guitar", Title: "This is a blog entry about my new, awesome guitar",
		Body: "this is a cool entry. etc etc yada yada", Author: "Arin Sarkissian", Tags: []string{"guitar", "musician"}}); err != nil {
		t.Fatal(err)
	}
	shots := screenshotDir(t)

	ctx := browser(t, 1280, 900, 60*time.Second)

	run := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	eval := func(js string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("evaluate %s: %v", js, err)
		}
		return v
	}
	count := func(sel string) int {
		t.Helper()
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(`+fmt.Sprintf("%q", sel)+`).length`))
		if err != nil {
			t.Fatalf("count %s: %v", sel, err)
		}
		return n
	}
	bodyText := func() string { t.Helper(); return eval(`document.querySelector("main").innerText`) }
	flash := func(text string) chromedp.Action[chromedp.Void] {
		return chromedp.WaitVisible(chromedp.Search(`//p[contains(@class,"flash") and contains(., "` + text + `")]`))
	}
	shot := func(name string) {
		t.Helper()
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(shots, name+".png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	signUp := func(name string) {
		t.Helper()
		run("sign up "+name,
			chromedp.Navigate(base+"/login"),
			chromedp.SendKeys(chromedp.CSS("#signup-username"), name),
			chromedp.SendKeys(chromedp.CSS("#signup-password"), "password1"),
			chromedp.SendKeys(chromedp.CSS("#signup-password2"), "password1"),
			chromedp.Click(chromedp.CSS("#signup-submit")),
			flash("Welcome, "+name))
	}
	logIn := func(name string) {
		t.Helper()
		run("log in "+name,
			chromedp.Navigate(base+"/login"),
			chromedp.SendKeys(chromedp.CSS("#login-username"), name),
			chromedp.SendKeys(chromedp.CSS("#login-password"), "password1"),
			chromedp.Click(chromedp.CSS("#login-submit")),
			flash("Welcome back, "+name))
	}
	logOut := func() {
		t.Helper()
		run("log out", chromedp.Click(chromedp.CSS("#logout")), flash("You are signed out"))
	}
	follow := func(name, button, message string) {
		t.Helper()
		run(button+" "+name,
			chromedp.Navigate(base+"/users/"+name),
			chromedp.Click(chromedp.CSS("#"+button)),
			flash(message))
	}

	// Two users; carol follows alice (and bob, with his backlog).
	run("login page", chromedp.Navigate(base+"/login"), chromedp.WaitVisible(chromedp.CSS("#signup-form")))
	shot("login")
	signUp("alice")
	logOut()
	signUp("carol")
	follow("alice", "follow", "You now follow alice")
	run("unfollow button", chromedp.WaitVisible(chromedp.CSS("#unfollow")))
	follow("bob", "follow", "You now follow bob")
	shot("user")
	logOut()

	// alice posts; the tweet reaches carol's home timeline.
	logIn("alice")
	run("post",
		chromedp.SendKeys(chromedp.CSS("#body"), "hello from alice"),
		chromedp.Click(chromedp.CSS("#post-form button[type=submit]")),
		flash("Posted."))
	logOut()
	logIn("carol")
	run("home", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(".tweet")))
	if n := count(".tweet"); n != linePageSize {
		t.Fatalf("carol's first page holds %d tweets, want %d", n, linePageSize)
	}
	if first := eval(`document.querySelector(".tweet .body").innerText`); first != "hello from alice" {
		t.Fatalf("newest tweet on carol's home page is %q", first)
	}
	shot("home")

	// Older: the rest, exactly, and no link to an empty page.
	run("older", chromedp.Click(chromedp.CSS("#older")), chromedp.WaitVisible(chromedp.Search(`//p[@class="body" and text()="bob tweet 0"]`)))
	if n := count(".tweet"); n != 6 {
		t.Fatalf("carol's second page holds %d tweets, want 6", n)
	}
	if n := count("#older"); n != 0 {
		t.Fatal("the last page links to an older one")
	}

	// Unfollowing bob takes his tweets out of carol's timeline.
	follow("bob", "unfollow", "You no longer follow bob")
	run("home after unfollow", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS(".tweet")))
	if n := count(".tweet"); n != 1 || strings.Contains(bodyText(), "bob tweet") {
		t.Fatalf("after unfollowing bob carol's home holds %d tweets:\n%s", n, bodyText())
	}

	// A comment on the blog.
	run("blog", chromedp.Navigate(base+"/blog"), chromedp.WaitVisible(chromedp.CSS(".entry")))
	shot("blog")
	run("comment",
		chromedp.Click(chromedp.CSS(".entry h2 a")),
		chromedp.WaitVisible(chromedp.CSS("#comment-form")),
		chromedp.SendKeys(chromedp.CSS("#comment-text"), "Nice guitar, Arin!"),
		chromedp.Click(chromedp.CSS("#comment-submit")),
		flash("your comment is up"),
		chromedp.WaitVisible(chromedp.Search(`//li[@class="comment" and contains(., "Nice guitar, Arin!")]`)))
	shot("blog-entry")

	// A forged POST without the CSRF token is refused, by fetch and by a plain form.
	status, err := chromedp.Run(ctx, chromedp.Evaluate[int](
		`fetch("/tweets", {method: "POST", body: new URLSearchParams({body: "forged"})}).then(r => r.status)`, chromedp.EvalAwaitPromise))
	if err != nil || status != 403 {
		t.Fatalf("forged fetch: status %d, err %v", status, err)
	}
	run("forged form",
		chromedp.Navigate(base+"/"),
		chromedp.WaitVisible(chromedp.CSS("#post-form")),
		chromedp.Evaluate[chromedp.Void](`(() => {
			const f = document.createElement("form");
			f.method = "post"; f.action = "/tweets";
			const i = document.createElement("input");
			i.name = "body"; i.value = "forged";
			f.appendChild(i); document.body.appendChild(f); f.submit();
		})()`),
		chromedp.WaitVisible(chromedp.Search(`//h1[text()="Form expired or forged"]`)))
	shot("forbidden")
	page, err := app.social.PublicLine(bg(), "", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tw := range page.Tweets {
		if tw.Body == "forged" {
			t.Fatal("a forged post was stored")
		}
	}

	run("not found", chromedp.Navigate(base+"/no/such/page"), chromedp.WaitVisible(chromedp.Search(`//h1[text()="Page not found"]`)))
	shot("not-found")
}
