package teach

import (
	"net/http"
	"testing"

	"twissandra/domain/blog"
)

// Pages are open to anyone, logged out included: the inspector shows that a user row has a
// password column and a comment an email, and how large the hash is, never their bytes.

const secretEmail = "rita.secret@example.com"

// storeSecrets signs rita up (a bcrypt hash) and has her comment on an entry (an email).
func storeSecrets(t *testing.T, app *testApp) {
	t.Helper()
	app.client(t).signUp("rita")
	if _, err := app.blog.PutAuthor(bg(), "rita", map[string]string{"bio": "writes"}); err != nil {
		t.Fatal(err)
	}
	if _, err := app.blog.Publish(bg(), blog.Draft{Slug: "hello", Title: "Hello", Body: "body", Author: "rita"}); err != nil {
		t.Fatal(err)
	}
	if _, err := app.blog.Comment(bg(), "hello", blog.CommentDraft{Name: "rita", Email: secretEmail, Text: "first"}); err != nil {
		t.Fatal(err)
	}
}

func mustHideSecrets(t *testing.T, c *client, user, comments string) {
	t.Helper()
	r := c.get(user)
	if r.status != http.StatusOK {
		t.Fatalf("%s: %d\n%s", user, r.status, r.body)
	}
	mustContain(t, r.body, "&lt;bcrypt hash, 60 bytes&gt;")
	mustNotContain(t, r.body, "$2a$", "$2b$", "0x24326")
	r = c.get(comments)
	if r.status != http.StatusOK {
		t.Fatalf("%s: %d\n%s", comments, r.status, r.body)
	}
	mustContain(t, r.body, "&lt;email, hidden&gt;", "first")
	mustNotContain(t, r.body, secretEmail, "rita.secret")
}

func TestInspectorHidesSecretsWiderow(t *testing.T) {
	t.Parallel()
	app := newApp(t, widerowStores(t))
	storeSecrets(t, app)
	anon := app.client(t) // logged out
	mustHideSecrets(t, anon, "/models/inspect?ks=Twissandra&cf=User&user=rita", "/models/inspect?ks=BloggyAppy&cf=Comments&key=hello")
}

func TestInspectorHidesSecretsCQL(t *testing.T) {
	st, _ := cql3Stores(t)
	app := newApp(t, st)
	storeSecrets(t, app)
	anon := app.client(t)
	mustHideSecrets(t, anon, "/models/inspect?table=users&user=rita", "/models/inspect?table=comments&key=hello")
}

func TestPagesHideSecretsMemory(t *testing.T) {
	t.Parallel()
	app := newApp(t, memoryStores())
	storeSecrets(t, app)
	anon := app.client(t)
	for _, path := range []string{"/models", "/models/inspect", "/blog/entries/hello", "/blog/authors/rita", "/users/rita"} {
		r := anon.get(path)
		if r.status != http.StatusOK {
			t.Fatalf("%s: %d", path, r.status)
		}
		mustNotContain(t, r.body, secretEmail, "$2a$", "$2b$")
	}
}
