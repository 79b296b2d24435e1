package web

import (
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"testing"
)

func TestPublicPageCache(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok := e.user("alice")
	for i := range 3 {
		e.post(tok, "tweet "+strconv.Itoa(i))
	}
	get := func(target, wantCache string) string {
		t.Helper()
		rec := e.do(http.MethodGet, target, "", "")
		if rec.Code != http.StatusOK || rec.Header().Get(PageCacheHeader) != wantCache {
			t.Fatalf("GET %s: %d, %s %q, want %q", target, rec.Code, PageCacheHeader, rec.Header().Get(PageCacheHeader), wantCache)
		}
		return rec.Body.String()
	}
	first := get("/api/v1/public?limit=2", "miss")
	if again := get("/api/v1/public?limit=2", "hit"); again != first {
		t.Fatalf("the cached page differs:\n%s\n%s", first, again)
	}
	if get("/api/v1/public?limit=3", "miss") == first {
		t.Fatal("another limit got the same page")
	}
	get("/api/v1/public?limit=3", "hit")
	// Pages further down are read every time.
	p := e.page("/api/v1/public?limit=2", "")
	rec := e.do(http.MethodGet, "/api/v1/public?limit=2&start="+*p.Next, "", "")
	if rec.Code != http.StatusOK || rec.Header().Get(PageCacheHeader) != "" {
		t.Fatalf("second page: %d, %s %q", rec.Code, PageCacheHeader, rec.Header().Get(PageCacheHeader))
	}

	// A post drops every cached page: the next read has the new tweet first.
	tw := e.post(tok, "news")
	for _, limit := range []string{"2", "3"} {
		var fresh pageJSON
		if err := jsonUnmarshal(get("/api/v1/public?limit="+limit, "miss"), &fresh); err != nil {
			t.Fatal(err)
		}
		if len(fresh.Tweets) == 0 || fresh.Tweets[0].ID != tw.ID {
			t.Fatalf("limit %s after a post: %+v, want %s first", limit, fresh.Tweets, tw.ID)
		}
	}

	// Bad limits are refused before the cache is asked.
	wantError(t, e.do(http.MethodGet, "/api/v1/public?limit=0", "", ""), http.StatusBadRequest, "invalid")
}

func TestPublicPageCacheOff(t *testing.T) {
	t.Parallel()
	e := newEnvWith(t, Config{TokenSecret: testSecret}, nil)
	tok := e.user("alice")
	e.post(tok, "one")
	for range 2 {
		rec := e.do(http.MethodGet, "/api/v1/public?limit=5", "", "")
		if rec.Code != http.StatusOK || rec.Header().Get(PageCacheHeader) != "" {
			t.Fatalf("cache off: %d, %s %q", rec.Code, PageCacheHeader, rec.Header().Get(PageCacheHeader))
		}
	}
}

// TestPublicPageCacheFresh posts while readers keep the cache busy: once a post has been
// answered, every read of the first page has that tweet (no page cached before it survives),
// and every page is the stores' page of that moment, newest first.
func TestPublicPageCacheFresh(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	tok := e.user("alice")
	stop := make(chan struct{})
	var readers sync.WaitGroup
	for range 4 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				rec := e.do(http.MethodGet, "/api/v1/public?limit=5", "", "")
				var p pageJSON
				if rec.Code != http.StatusOK || jsonUnmarshal(rec.Body.String(), &p) != nil {
					t.Errorf("read: %d %s", rec.Code, rec.Body)
					return
				}
				for i := 1; i < len(p.Tweets); i++ {
					if p.Tweets[i-1].CreatedAt < p.Tweets[i].CreatedAt {
						t.Errorf("page not newest first: %+v", p.Tweets)
						return
					}
				}
			}
		}()
	}
	for i := range 100 {
		tw := e.post(tok, "tweet "+strconv.Itoa(i))
		for range 3 {
			if p := e.page("/api/v1/public?limit=5", ""); len(p.Tweets) == 0 || p.Tweets[0].ID != tw.ID {
				close(stop)
				t.Fatalf("after post %d answered, the first page starts with %+v, want %s", i, p.Tweets, tw.ID)
			}
		}
	}
	close(stop)
	readers.Wait()
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }
