package models_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"twissandra/domain"
	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/ports/oplog"
	"twissandra/web"
	"twissandra/web/teach/models"
)

// recordOf makes one request as c's browser and returns its storage operations, from the
// whole record a client may ask for (Storage-Ops-Detail: json).
func recordOf(t *testing.T, c *webkit.Client, method, path string, form url.Values) []oplog.Op {
	t.Helper()
	var req *http.Request
	if method == http.MethodPost {
		f := url.Values{"csrf_token": {c.CSRF()}}
		for k, v := range form {
			f[k] = v
		}
		req, _ = http.NewRequest(method, c.App.Srv.URL+path, strings.NewReader(f.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		req, _ = http.NewRequest(method, c.App.Srv.URL+path, nil)
	}
	req.Header.Set("Accept", "text/html")
	req.Header.Set(web.StorageOpsDetailHeader, "json")
	r := c.Do(req)
	if r.Status >= 400 {
		t.Fatalf("%s %s: %d", method, path, r.Status)
	}
	var rec web.OpsRecord
	if err := json.Unmarshal([]byte(r.Header.Get(web.StorageOpsDetailHeader)), &rec); err != nil || rec.Dropped > 0 {
		t.Fatalf("%s %s: the record: %v, %d dropped", method, path, err, rec.Dropped)
	}
	return rec.Ops
}

// checkCalls holds what the page says an action costs (calls, for an author with n followers)
// to what the action made (ops): each call made exactly as many times as said (a call made only
// at times, none or as said), and no storage call the page does not name.
func checkCalls(t *testing.T, what string, calls []models.Call, n int, ops []oplog.Op) {
	t.Helper()
	made := make([]int, len(calls))
	for _, op := range ops {
		if op.Kind == oplog.Note {
			continue
		}
		i := 0
		for ; i < len(calls); i++ {
			if op.Call == calls[i].Verb && strings.Contains(op.Family, calls[i].Family) {
				break
			}
		}
		if i == len(calls) {
			t.Errorf("%s: the page names no call such as %q", what, op.Text)
			continue
		}
		made[i]++
	}
	for i, c := range calls {
		want := c.Times + c.PerFollower*n
		if made[i] != want && (!c.Sometimes || made[i] != 0) {
			t.Errorf("%s: the page says %s ×%s (%d with N=%d), the store made %d", what, c.Verb, c.Count(), want, n, made[i])
		}
	}
}

// Every count the generations page states is what the stores make: a home timeline page of 40
// and a post by an author with N = 3 followers, on widerow for the 0.6 column families, on cql3
// for the query-first tables and, with timeline rows that hold tweet IDs only (as seed 002's and
// this server's before migration 004 did), for the 2014 tables.
func TestGenerationsCountsAreWhatTheStoresMake(t *testing.T) {
	const followers = 3
	// setUp makes rita, followed by the reader and two more, with 45 tweets; it returns the
	// reader's and rita's browsers.
	setUp := func(t *testing.T, st webkit.Stores) (*webkit.App, *webkit.Client, *webkit.Client) {
		app := teachkit.NewApp(t, st)
		reader, rita := app.Client(t), app.Client(t)
		reader.SignUp("reader")
		rita.SignUp("rita")
		for _, n := range []string{"f1", "f2"} {
			if _, err := app.Social.SignUp(webkit.BG(), n, "password1"); err != nil {
				t.Fatal(err)
			}
		}
		for _, n := range []string{"reader", "f1", "f2"} {
			if err := app.Social.Follow(webkit.BG(), n, "rita"); err != nil {
				t.Fatal(err)
			}
		}
		for i := range 45 {
			if _, err := app.Social.Post(webkit.BG(), "rita", fmt.Sprint("tweet ", i)); err != nil {
				t.Fatal(err)
			}
		}
		return app, reader, rita
	}
	post := url.Values{"body": {"measured"}}

	t.Run("0.6 on widerow", func(t *testing.T) {
		t.Parallel()
		_, reader, rita := setUp(t, webkit.WiderowStores(t))
		checkCalls(t, "the 0.6 page", models.Generations[0].Page, followers, recordOf(t, reader, http.MethodGet, "/", nil))
		checkCalls(t, "the 0.6 post", models.Generations[0].Post, followers, recordOf(t, rita, http.MethodPost, "/tweets", post))
	})
	t.Run("CQL3 on cql3", func(t *testing.T) {
		t.Parallel()
		st, _ := webkit.CQL3Stores(t)
		app, reader, rita := setUp(t, st)
		checkCalls(t, "the query-first page", models.Generations[2].Page, followers, recordOf(t, reader, http.MethodGet, "/", nil))
		ops := recordOf(t, rita, http.MethodPost, "/tweets", post)
		checkCalls(t, "the query-first post", models.Generations[2].Post, followers, ops)
		checkCalls(t, "the 2014 post", models.Generations[1].Post, followers, ops)

		// The 2014 page: a timeline whose rows hold the tweets' IDs only.
		old := app.Client(t)
		old.SignUp("old")
		recent, err := st.Lines.Slice(webkit.BG(), domain.UserlineOf("rita"), 0, 45)
		if err != nil {
			t.Fatal(err)
		}
		for i := range recent {
			recent[i].Tweet = nil
		}
		if err := st.Lines.AppendEntries(webkit.BG(), domain.TimelineOf("old"), recent); err != nil {
			t.Fatal(err)
		}
		checkCalls(t, "the 2014 page", models.Generations[1].Page, followers, recordOf(t, old, http.MethodGet, "/", nil))
	})
}

// What the models page (the Followers mapping) and the celebrity page say a follow writes: on
// 0.6 one batch_mutate of both sides and the count; on cql3 one conditional batch of the
// followers row and its count, then the friends row.
func TestFollowWritesWhatThePagesSay(t *testing.T) {
	follow := func(t *testing.T, st webkit.Stores) []oplog.Op {
		app := teachkit.NewApp(t, st)
		if _, err := app.Social.SignUp(webkit.BG(), "rita", "password1"); err != nil {
			t.Fatal(err)
		}
		c := app.Client(t)
		c.SignUp("sam")
		return recordOf(t, c, http.MethodPost, "/users/rita/follow", nil)
	}
	writes := func(ops []oplog.Op) (out []oplog.Op) {
		for _, op := range ops {
			if op.Kind == oplog.Write || op.Kind == oplog.LWT {
				out = append(out, op)
			}
		}
		return out
	}
	t.Run("widerow", func(t *testing.T) {
		t.Parallel()
		w := writes(follow(t, webkit.WiderowStores(t)))
		if len(w) != 1 || w[0].Call != "batch_mutate" || !strings.Contains(w[0].Family, "Followers") || !strings.Contains(w[0].Family, "Friends") || !strings.Contains(w[0].Family, "User") {
			t.Errorf("a follow on widerow wrote %+v", w)
		}
	})
	t.Run("cql3", func(t *testing.T) {
		t.Parallel()
		st, _ := webkit.CQL3Stores(t)
		w := writes(follow(t, st))
		if len(w) != 2 || w[0].Call != "BATCH" || w[0].Family != "followers" || !strings.Contains(w[0].Text, "IF NOT EXISTS") ||
			w[1].Call != "INSERT" || w[1].Family != "friends" {
			t.Errorf("a follow on cql3 wrote %+v", w)
		}
	})
}
