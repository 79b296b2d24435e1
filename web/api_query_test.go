package web

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

// queryContext is a gin context of a request with the raw query q.
func queryContext(q string) *gin.Context {
	c, _ := gin.CreateTestContext(httptest.NewRecorder())
	c.Request = httptest.NewRequest("GET", "/api/v1/public", nil)
	c.Request.URL.RawQuery = q
	return c
}

// checkQueryValue compares queryValue with gin's GetQuery on a fresh context.
func checkQueryValue(t *testing.T, q, key string) {
	t.Helper()
	v, ok := queryValue(queryContext(q), key)
	wantV, wantOK := queryContext(q).GetQuery(key)
	if v != wantV || ok != wantOK {
		t.Fatalf("query %q key %q: got %q %v, gin says %q %v", q, key, v, ok, wantV, wantOK)
	}
}

func TestQueryValue(t *testing.T) {
	t.Parallel()
	for _, q := range []string{
		"", "limit=40", "limit=40&start=AQ", "start=AQ&limit=40&limit=5", "limit", "limit=", "=40&limit=1",
		"&&limit=3&", "limit=4%30", "limit=4+0", "li%6dit=7", "limit=1;limit=2&limit=3", "limit=%zz&limit=5",
		"a=b=c&limit=1=2", "LIMIT=5", "limits=5&limit=6", "tag=a,b&start=x", strings.Repeat("a&", maxFastQueryPairs) + "limit=1",
	} {
		for _, key := range []string{"limit", "start", "tag", "a", ""} {
			checkQueryValue(t, q, key)
		}
	}
}

func FuzzQueryValue(f *testing.F) {
	for _, q := range []string{"limit=40&start=AQ", "limit=1;x&limit=%32", "a+b=c%20d&&=", url.Values{"tag": {"a b"}, "limit": {"5"}}.Encode()} {
		f.Add(q, "limit")
	}
	f.Fuzz(func(t *testing.T, q, key string) {
		checkQueryValue(t, q, key)
	})
}
