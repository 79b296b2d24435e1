package pages

import (
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"twissandra/domain/social"
	"twissandra/internal/testkit/webkit"
)

// A class behind one address logs in for the first time on accounts made for it: the log-in
// form gave each browser its device, so one learner's typos lock out that browser alone, and
// more failures in a minute than an address without devices is allowed (social.AddressLoginLimit)
// leave the others logging in. A client that fetches the form again for a new device at every
// attempt is held to the devices' total of its address (social.DevicesPerAddressLimit).
func TestLoginTyposOfAClassLockOutNoOneElse(t *testing.T) {
	t.Parallel()
	app := newApp(t, webkit.MemoryStores())
	const class = 12
	for i := range class {
		if _, err := app.Social.SignUp(webkit.BG(), "pupil"+string(rune('a'+i)), "password1"); err != nil {
			t.Fatal(err)
		}
	}
	login := func(c *webkit.Client, name, pw string) int {
		return c.Post("/login", url.Values{"username": {name}, "password": {pw}}).Status
	}
	typist := app.Client(t)
	for i := range social.LoginLimit {
		if s := login(typist, "pupila", "typo"); s != http.StatusUnauthorized {
			t.Fatalf("the typist's typo %d: %d", i+1, s)
		}
	}
	if s := login(typist, "pupila", "password1"); s != http.StatusTooManyRequests {
		t.Fatalf("the typist after %d typos: %d, want 429", social.LoginLimit, s)
	}
	// Every other learner makes a typo, then logs in: more failures of the address than
	// AddressLoginLimit, and none of them refused.
	if class-1+social.LoginLimit <= social.AddressLoginLimit {
		t.Fatalf("the class makes too few typos to pass the bound of an address without devices")
	}
	for i := 1; i < class; i++ {
		c, name := app.Client(t), "pupil"+string(rune('a'+i))
		if s := login(c, name, "typo"); s != http.StatusUnauthorized {
			t.Fatalf("%s's typo: %d", name, s)
		}
		if s := login(c, name, "password1"); s != http.StatusSeeOther {
			t.Fatalf("%s's log-in after the class's %d typos: %d, want it signed in", name, social.LoginLimit+i, s)
		}
	}
	// A new browser (a new device) for every guess: the address's devices together are held
	// to their total.
	failed := social.LoginLimit + class - 1
	for ; failed < social.DevicesPerAddressLimit; failed++ {
		if s := login(app.Client(t), fmt.Sprint("nobody", failed), "guess"); s != http.StatusUnauthorized {
			t.Fatalf("guess %d from a new device: %d", failed+1, s)
		}
	}
	if s := login(app.Client(t), "nobody-else", "guess"); s != http.StatusTooManyRequests {
		t.Fatalf("guess %d from a new device, past the address's devices' total: %d, want 429", failed+1, s)
	}
}
