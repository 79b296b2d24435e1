package models

import (
	"net/url"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"
)

// tokensLessonURL is the lesson's page placing key.
func tokensLessonURL(key string) templ.SafeURL {
	return templ.SafeURL("/learn/tokens?" + url.Values{"key": {key}}.Encode() + "#ring")
}

// tokensOf are the tokens of keys of container by the running backend's ring, aligned with
// keys; nil without a ring (memory), or when the store cannot say (the inspector shows the keys
// without their tokens then).
func (h *Handler) tokensOf(c *gin.Context, container string, keys [][]string) []string {
	if h.Deps.Ring == nil || len(keys) == 0 {
		return nil
	}
	toks, err := h.Deps.Ring.Tokens(c.Request.Context(), container, keys)
	if err != nil || len(toks) != len(keys) {
		return nil
	}
	return toks
}

// keyToken is what a page says of one key's token: the token, and the lesson's page that
// places the key on the ring ("" when only the token is known: a key the lesson would hash
// otherwise, such as a uuid on cql3).
type keyToken struct {
	Token string
	Ring  templ.SafeURL
}
