package pages

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"twissandra/domain/blog"
	"twissandra/internal/testkit/webkit"
)

// TestBrowserEndToEnd drives the pages in headless Chromium: two users sign up, follow, post,
// page through older tweets, unfollow, comment on the blog, and a forged form is refused. It
// saves full-page screenshots of the main pages to artifacts/screenshots (the teaching views'
// are package teach's).
func TestBrowserEndToEnd(t *testing.T) {
	app := newApp(t, webkit.WiderowStores(t))
	base := app.Srv.URL

	// bob has more than a page of tweets before anyone follows him.
	if _, err := app.Social.SignUp(webkit.BG(), "bob", "password1"); err != nil {
		t.Fatal(err)
	}
	for i := range linePageSize + 5 {
		if _, err := app.Social.Post(webkit.BG(), "bob", fmt.Sprintf("bob tweet %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := app.Blog.PutAuthor(webkit.BG(), "Arin Sarkissian", map[string]string{"twitter": "phatduckk", "bio": "bla bla bla"}); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Blog.Publish(webkit.BG(), blog.Draft{Slug: "i-got-a-new-guitar", Title: "This is a blog entry about my new, awesome guitar",
		Body: "this is a cool entry. etc etc yada yada", Author: "Arin Sarkissian", Tags: []string{"guitar", "musician"}}); err != nil {
		t.Fatal(err)
	}
	shots := webkit.ScreenshotDir(t)

	ctx := webkit.Browser(t, 1280, 900, 60*time.Second)

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
	page, err := app.Social.PublicLine(webkit.BG(), "", 0)
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
