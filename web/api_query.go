package web

import (
	"strings"

	"github.com/gin-gonic/gin"
)

// maxFastQueryPairs keeps queryValue's shortcut within net/url's default limit on parameters,
// above which url.ParseQuery gives nothing.
const maxFastQueryPairs = 10_000

// queryValue is c.GetQuery for the API's hot routes, without building the url.Values map. A
// query with nothing to unescape and no semicolons (every query the API's own links make) is
// scanned in place; any other falls back to gin, so the answer is always gin's: the first value
// of key, or ok false.
func queryValue(c *gin.Context, key string) (value string, ok bool) {
	raw := c.Request.URL.RawQuery
	if strings.ContainsAny(raw, "%+;") || strings.Count(raw, "&") >= maxFastQueryPairs {
		return c.GetQuery(key)
	}
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		if k, v, _ := strings.Cut(pair, "="); k == key && pair != "" {
			return v, true
		}
	}
	return "", false
}

// query is c.Query by way of queryValue.
func query(c *gin.Context, key string) string {
	v, _ := queryValue(c, key)
	return v
}
