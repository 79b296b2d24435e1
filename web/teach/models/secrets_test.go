package models_test

import (
	"net/http"
	"testing"

	"twissandra/domain/blog"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
)

// Pages are open to anyone, logged out included: the inspector shows that a user row has a
// password column and a comment an email, and how large the hash is, never their bytes.

const secretEmail = "rita.secret@example.com"

// storeSecrets signs rita up (a bcrypt hash) and has her comment on an entry (an email).
func storeSecrets(t *testing.T, app *webkit.App) {
	t.Helper()
	app.Client(t).SignUp("rita")
	if _, err := app.Blog.PutAuthor(webkit.BG(), "rita", map[string]string{"bio": "writes"}); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Blog.Publish(webkit.BG(), blog.Draft{Slug: "hello", Title: "Hello", Body: "body", Author: "rita"}); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Blog.Comment(webkit.BG(), "hello", blog.CommentDraft{Name: "rita", Email: secretEmail, Text: "first"}); err != nil {
		t.Fatal(err)
	}
}

func mustHideSecrets(t *testing.T, c *webkit.Client, user, comments string) {
	t.Helper()
	r := c.Get(user)
	if r.Status != http.StatusOK {
		t.Fatalf("%s: %d\n%s", user, r.Status, r.Body)
	}
	webkit.MustContain(t, r.Body, "&lt;bcrypt hash, 60 bytes&gt;")
	webkit.MustNotContain(t, r.Body, "$2a$", "$2b$", "0x24326")
	r = c.Get(comments)
	if r.Status != http.StatusOK {
		t.Fatalf("%s: %d\n%s", comments, r.Status, r.Body)
	}
	webkit.MustContain(t, r.Body, "&lt;email, hidden&gt;", "first")
	webkit.MustNotContain(t, r.Body, secretEmail, "rita.secret")
}

func TestInspectorHidesSecretsWiderow(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.WiderowStores(t))
	storeSecrets(t, app)
	anon := app.Client(t) // logged out
	mustHideSecrets(t, anon, "/models/inspect?ks=Twissandra&cf=User&user=rita", "/models/inspect?ks=BloggyAppy&cf=Comments&key=hello")
}

func TestInspectorHidesSecretsCQL(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	app := teachkit.NewApp(t, st)
	storeSecrets(t, app)
	anon := app.Client(t)
	mustHideSecrets(t, anon, "/models/inspect?table=users&user=rita", "/models/inspect?table=comments&key=hello")
}

func TestPagesHideSecretsMemory(t *testing.T) {
	t.Parallel()
	app := teachkit.NewApp(t, webkit.MemoryStores())
	storeSecrets(t, app)
	anon := app.Client(t)
	for _, path := range []string{"/models", "/models/inspect", "/blog/entries/hello", "/blog/authors/rita", "/users/rita"} {
		r := anon.Get(path)
		if r.Status != http.StatusOK {
			t.Fatalf("%s: %d", path, r.Status)
		}
		webkit.MustNotContain(t, r.Body, secretEmail, "$2a$", "$2b$")
	}
}
