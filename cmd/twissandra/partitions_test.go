package main

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// In compare mode the partition lessons measure both models of the running server: widerow's
// one !PUBLIC! row and cql3's day bucket each count every post.
func TestComparePartitionsPage(t *testing.T) {
	base, ks := compareServer(t)
	api := base + "/api/v1"
	if c := callAPI(t, "POST", api+"/users", "", `{"username":"star","password":"correct horse"}`); c.status != http.StatusCreated {
		t.Fatalf("sign up: %d %v", c.status, c.body)
	}
	c := callAPI(t, "POST", api+"/sessions", "", `{"username":"star","password":"correct horse"}`)
	if c.status != http.StatusOK {
		t.Fatalf("log in: %d %v", c.status, c.body)
	}
	token := c.body["token"].(string)
	for i := range 3 {
		if c := callAPI(t, "POST", api+"/tweets", token, fmt.Sprintf(`{"body":"post %d"}`, i)); c.status != http.StatusCreated {
			t.Fatalf("post: %d %v", c.status, c.body)
		}
	}
	resp, err := http.Get(base + "/models/partitions")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	body := html.UnescapeString(string(b))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("partitions: %d\n%s", resp.StatusCode, body)
	}
	today := time.Now().UTC().Format(time.DateOnly)
	for _, w := range []string{`<section id="model-widerow">`, `<section id="model-cql3">`,
		`<code>Twissandra.Userline[!PUBLIC!]</code>, holding <strong id="public-count">3</strong> columns`,
		"3 posts in the last 1 day", `<td>` + today + `</td><td>3</td>`, `id="widest-rows-cql3"`, ks + ".public_line"} {
		if !strings.Contains(body, w) {
			t.Errorf("the page lacks %q", w)
		}
	}
}
